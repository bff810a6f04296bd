import ortMjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import pdfWorkerUrl from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs?url';
import voyWasm from 'voy-search/voy_search_bg.wasm?url';
import { PROTOCOL_TAG, type InitOptions, type Progress, type Request, type Response, type Results, type WorkerStatus } from '../worker/protocol';

type Body<T extends Request['type']> = Omit<Extract<Request, { type: T }>, 'id' | 'type'>;

export interface Pending<T> {
  promise: Promise<T>;
  cancel(): void;
}

/** A request failed in the worker; `cancelled` when the user stopped it. */
export class WorkerError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

/**
 * The page's one door to the worker: typed requests with ids, progress callbacks,
 * cancellation, and a status subscription. Components never call postMessage.
 */
export class WorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; onProgress?: (p: Progress) => void }>();
  private readonly statusListeners = new Set<(s: WorkerStatus) => void>();
  private readonly crashListeners = new Set<(message: string) => void>();
  crashed = false;

  constructor() {
    this.worker = new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'rag-lab' });
    this.worker.onmessage = (e: MessageEvent) => this.receive(e.data);
    // An uncaught error leaves the worker in an unknown state: it is ended and replaced.
    this.worker.onerror = (e) => {
      e.preventDefault();
      if (this.crashed) return;
      this.crashed = true;
      const message = `the worker stopped: ${e.message || 'unknown error'}`;
      this.worker.terminate();
      const err = new WorkerError(message);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      for (const l of this.crashListeners) l(message);
    };
  }

  private receive(data: ({ tag?: string } & Response) | undefined): void {
    if (!data || data.tag !== PROTOCOL_TAG) return;
    if (data.type === 'status') {
      for (const l of this.statusListeners) l(data.status);
      return;
    }
    if (data.type === 'ready' || data.id === null) return;
    const p = this.pending.get(data.id);
    if (!p) return;
    if (data.type === 'progress') p.onProgress?.(data.progress);
    else {
      this.pending.delete(data.id);
      if (data.type === 'result') p.resolve(data.result);
      else p.reject(new WorkerError(data.message, data.cancelled));
    }
  }

  request<T extends Request['type']>(type: T, body: Body<T>, onProgress?: (p: Progress) => void, transfer: Transferable[] = []): Pending<Results[T]> {
    const id = this.nextId++;
    const promise = new Promise<Results[T]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(onProgress ? { onProgress } : {}) });
    });
    this.worker.postMessage({ tag: PROTOCOL_TAG, id, type, ...body }, transfer);
    return { promise, cancel: () => this.worker.postMessage({ tag: PROTOCOL_TAG, id: this.nextId++, type: 'cancel', target: id }) };
  }

  onCrash(listener: (message: string) => void): void {
    this.crashListeners.add(listener);
  }

  onStatus(listener: (s: WorkerStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Where the worker finds models and ONNX Runtime, relative to this page (any sub-path). */
  static initOptions(threads: number, fresh = false, faults = false): InitOptions {
    const abs = (u: string) => new URL(u, document.baseURI).href;
    return { modelsUrl: abs('./models/'), ortWasm: { mjs: abs(ortMjs), wasm: abs(ortWasm) }, threads, pdfWorkerUrl: abs(pdfWorkerUrl), voyWasm: abs(voyWasm), fresh, faults };
  }
}
