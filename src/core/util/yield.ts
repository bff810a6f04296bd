/**
 * Lets the event loop run other tasks (a worker's incoming messages) before going on.
 * ONNX Runtime's WASM runs resolve without a macrotask, so an embedding loop awaiting them
 * never yields by itself: a search sent meanwhile waited until the whole corpus was
 * embedded. A MessageChannel task avoids setTimeout's 4 ms clamp; setTimeout elsewhere.
 */
export function yieldToEventLoop(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
