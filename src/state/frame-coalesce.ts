/**
 * Runs `fn` once per animation frame however often it is asked for: a slider drag fires input
 * events faster than the page can paint an answer, and only the last value of a frame is
 * worth a search. Outside a page (tests, Node) a 16 ms timer stands in for the frame.
 */
export function perFrame(fn: () => void): () => void {
  let queued = false;
  const frame: (cb: () => void) => unknown = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (cb) => setTimeout(cb, 16);
  return () => {
    if (queued) return;
    queued = true;
    frame(() => {
      queued = false;
      fn();
    });
  };
}
