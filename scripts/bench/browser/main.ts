/**
 * The benchmark harness page: each run gets a fresh module worker (ONNX Runtime fixes its
 * thread count when its wasm starts), so 1 and 2 threads and app vs bare never share a runtime.
 * Playwright calls window.benchIndexing(...) and reads the result.
 */
import ortMjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { RpcClient } from '../../../src/rpc/client';
import type { RpcPort } from '../../../src/rpc/wire';
import { BENCH_TAG, type BenchApi, type IndexingRequest, type IndexingResult } from './protocol';

const abs = (u: string) => new URL(u, location.href).href;

async function benchIndexing(req: Omit<IndexingRequest, 'ortWasm'>): Promise<IndexingResult> {
  const worker = new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module' });
  const rpc = new RpcClient<BenchApi>(worker as unknown as RpcPort, BENCH_TAG);
  worker.onerror = (e) => rpc.fail(new Error(`worker error: ${e.message}`));
  try {
    return await rpc.request('index', { ...req, ortWasm: { mjs: abs(ortMjs), wasm: abs(ortWasm) } }).promise;
  } finally {
    worker.terminate();
  }
}

(window as unknown as { benchIndexing: typeof benchIndexing }).benchIndexing = benchIndexing;
(window as unknown as { benchReady: boolean }).benchReady = true;
document.getElementById('status')!.textContent = `harness ready · crossOriginIsolated=${crossOriginIsolated} · cores=${navigator.hardwareConcurrency}`;
