import ortMjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import pdfWorkerUrl from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs?url';
import voyWasm from 'voy-search/voy_search_bg.wasm?url';
import type { TabMemory } from '../core/memory/load-estimate';
import { RpcClient } from '../rpc/client';
import { RpcError, type RpcPort } from '../rpc/wire';
import { LAB_TAG, type InitOptions, type LabApi, type LabEvents, type WorkerStatus } from '../worker/protocol';

export type { Pending } from '../rpc/client';

/** The code of the error every waiting request fails with when the worker crashes. */
export const CRASHED = 'crashed';

/**
 * The page's one door to the lab worker: LabApi's typed requests (src/rpc), status events,
 * and crash detection. Components never call postMessage.
 */
export class WorkerClient extends RpcClient<LabApi, LabEvents> {
  private readonly crashListeners = new Set<(message: string) => void>();
  crashed = false;

  constructor() {
    const worker = new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'rag-lab' });
    super(worker as unknown as RpcPort, LAB_TAG);
    // An uncaught error leaves the worker in an unknown state: it is ended and replaced.
    worker.onerror = (e) => {
      e.preventDefault();
      if (this.crashed) return;
      this.crashed = true;
      const message = `the worker stopped: ${e.message || 'unknown error'}`;
      worker.terminate();
      this.fail(new RpcError(CRASHED, message));
      for (const l of this.crashListeners) l(message);
    };
  }

  onCrash(listener: (message: string) => void): void {
    this.crashListeners.add(listener);
  }

  onStatus(listener: (s: WorkerStatus) => void): () => void {
    return this.on('status', listener);
  }

  /** Where the worker finds models and ONNX Runtime, relative to this page (any sub-path). */
  static initOptions(threads: number, fresh = false, faults = false, memory: TabMemory = {}, owner = true): InitOptions {
    const abs = (u: string) => new URL(u, document.baseURI).href;
    return { modelsUrl: abs('./models/'), ortWasm: { mjs: abs(ortMjs), wasm: abs(ortWasm) }, threads, pdfWorkerUrl: abs(pdfWorkerUrl), voyWasm: abs(voyWasm), fresh, faults, memory, owner };
  }
}
