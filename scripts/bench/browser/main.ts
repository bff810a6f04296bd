/**
 * The benchmark harness page: each run gets a fresh module worker (ONNX Runtime fixes its
 * thread count when its wasm starts), so 1 and 2 threads and app vs bare never share a runtime.
 * Playwright calls window.benchIndexing(...) and reads the result.
 */
import ortMjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { IndexingRequest, IndexingResult } from './protocol';

const abs = (u: string) => new URL(u, location.href).href;

async function benchIndexing(req: Omit<IndexingRequest, 'ortWasm'>): Promise<IndexingResult> {
  const worker = new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<IndexingResult>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent) => {
        const m = e.data as { type: string; result?: IndexingResult; message?: string };
        if (m?.type === 'result') resolve(m.result!);
        else if (m?.type === 'error') reject(new Error(m.message));
      };
      worker.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
      worker.postMessage({ ...req, ortWasm: { mjs: abs(ortMjs), wasm: abs(ortWasm) } } satisfies IndexingRequest);
    });
  } finally {
    worker.terminate();
  }
}

(window as unknown as { benchIndexing: typeof benchIndexing }).benchIndexing = benchIndexing;
(window as unknown as { benchReady: boolean }).benchReady = true;
document.getElementById('status')!.textContent = `harness ready · crossOriginIsolated=${crossOriginIsolated} · cores=${navigator.hardwareConcurrency}`;
