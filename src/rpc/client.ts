/**
 * The page side of the RPC: typed calls with ids, progress callbacks, cancellation (answered
 * by the worker), events, and failing every waiting call when the worker behind the port dies.
 */
import { isTagged, RpcError, type FromWorker, type MethodName, type ParamsOf, type ProgressOf, type ResultOf, type RpcApi, type RpcEvents, type RpcPort, type ToWorker } from './wire';

export interface Pending<T> {
  promise: Promise<T>;
  /** Asks the worker to cancel; true when the call was still running or waiting there. */
  cancel(): Promise<boolean>;
}

export interface CallOptions<Pr> {
  onProgress?: (p: Pr) => void;
  /** Buffers moved to the worker instead of copied. */
  transfer?: Transferable[];
  /** Cancels the call when aborted. */
  signal?: AbortSignal;
}

interface Waiting {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (p: unknown) => void;
}

export class RpcClient<A extends RpcApi<A>, E extends RpcEvents<E> = Record<never, never>> {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private readonly listeners = new Map<string, Set<(data: never) => void>>();
  private failure: Error | null = null;

  constructor(
    private readonly port: RpcPort,
    private readonly tag: string,
  ) {
    port.addEventListener('message', (e: MessageEvent) => this.receive(e.data));
    port.start?.();
  }

  request<M extends MethodName<A>>(method: M, params: ParamsOf<A, M>, options: CallOptions<ProgressOf<A, M>> = {}): Pending<ResultOf<A, M>> {
    const id = this.nextId++;
    const promise = this.wait<ResultOf<A, M>>(id, options.onProgress as ((p: unknown) => void) | undefined);
    this.send({ tag: this.tag, kind: 'call', id, method, params }, options.transfer);
    const cancel = () => {
      if (!this.waiting.has(id)) return Promise.resolve(false);
      const cid = this.nextId++;
      const answered = this.wait<boolean>(cid).catch(() => false);
      this.send({ tag: this.tag, kind: 'cancel', id: cid, target: id });
      return answered;
    };
    if (options.signal?.aborted) void cancel();
    else options.signal?.addEventListener('abort', () => void cancel(), { once: true });
    return { promise, cancel };
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof E & string>(event: K, listener: (data: E[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (data: never) => void);
    return () => set.delete(listener as (data: never) => void);
  }

  /**
   * The worker behind the port is gone (crashed, ended): every waiting call fails with
   * `error`, and so does every later one.
   */
  fail(error: Error): void {
    this.failure ??= error;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(error);
  }

  private wait<T>(id: number, onProgress?: (p: unknown) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(onProgress ? { onProgress } : {}) });
    });
  }

  private send(msg: ToWorker, transfer: Transferable[] = []): void {
    if (this.failure) return;
    this.port.postMessage(msg, transfer);
  }

  private receive(data: unknown): void {
    if (!isTagged<FromWorker>(data, this.tag)) return;
    if (data.kind === 'event') {
      for (const l of this.listeners.get(data.event) ?? []) (l as (d: unknown) => void)(data.data);
      return;
    }
    const w = this.waiting.get(data.id);
    if (!w) return;
    if (data.kind === 'progress') {
      w.onProgress?.(data.progress);
      return;
    }
    this.waiting.delete(data.id);
    if (data.kind === 'result') w.resolve(data.result);
    else w.reject(new RpcError(data.error.code, data.error.message, data.error.data, data.error.cancelled));
  }
}
