/**
 * The worker side of the RPC: a table of handlers, one per method, each declaring when it may
 * run. Every call is answered with progress messages, then exactly one result or error; a
 * cancel is answered too (true when the call was still running or waiting).
 */
import { isTagged, RpcError, type FromWorker, type ParamsOf, type ProgressOf, type ResultOf, type RpcApi, type RpcEvents, type RpcPort, type ToWorker, type WireError } from './wire';

/**
 * When a call may start:
 * - 'serial': after every earlier serial call has finished (one queue: state that is not re-entrant);
 * - 'concurrent': at once, even while a long serial call runs (reads, searches);
 * - { after: [methods] }: once the latest calls of those methods have finished, without
 *   waiting for the serial queue (counting tokens waits for a model load, not for an answer).
 */
export type Concurrency<A> = 'serial' | 'concurrent' | { after: readonly (keyof A)[] };

export interface RpcContext<Pr> {
  /** Aborted when the page cancels this call. A cancelled call still runs to its answer. */
  signal: AbortSignal;
  progress(p: Pr): void;
  /** Buffers the result moves instead of copying (they are unusable here afterwards). */
  transfer(...items: Transferable[]): void;
}

export interface Handler<A extends RpcApi<A>, M extends keyof A> {
  concurrency: Concurrency<A>;
  run(params: ParamsOf<A, M>, ctx: RpcContext<ProgressOf<A, M>>): ResultOf<A, M> | Promise<ResultOf<A, M>>;
}

export type Handlers<A extends RpcApi<A>> = { [M in keyof A]: Handler<A, M> };

export interface ServeOptions {
  /** How a thrown value travels; by default its `code` (else 'failed'), message and `data`. */
  describeError?(e: unknown): Omit<WireError, 'cancelled'>;
}

export interface RpcServer<E> {
  emit<K extends keyof E & string>(event: K, data: E[K]): void;
  /** Runs `work` in the serial queue, after every serial call before it (work the worker starts by itself). */
  serial<T>(work: () => Promise<T>): Promise<T>;
}

export function describeError(e: unknown): Omit<WireError, 'cancelled'> {
  const err = e as { code?: unknown; message?: unknown; data?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : 'failed';
  const message = typeof err?.message === 'string' ? err.message : String(e);
  return { code, message, ...(err?.data !== undefined ? { data: err.data } : {}) };
}

/**
 * Answers calls arriving on `port` from `handlers`. Call it before any slow import: a
 * worker drops messages that arrive before its listener exists.
 */
export function serve<A extends RpcApi<A>, E extends RpcEvents<E> = Record<never, never>>(
  port: RpcPort,
  tag: string,
  handlers: Handlers<A>,
  options: ServeOptions = {},
): RpcServer<E> {
  const post = (msg: FromWorker, transfer: Transferable[] = []) => port.postMessage(msg, transfer);
  const describe = options.describeError ?? describeError;
  const controllers = new Map<number, AbortController>();
  let serial: Promise<unknown> = Promise.resolve();
  /** The latest call of each method, settled when it has answered (for { after }). */
  const latest = new Map<keyof A, Promise<unknown>>();

  async function answer(id: number, method: keyof A, params: unknown, controller: AbortController): Promise<void> {
    const transfer: Transferable[] = [];
    const ctx: RpcContext<unknown> = {
      signal: controller.signal,
      progress: (progress) => post({ tag, kind: 'progress', id, progress }),
      transfer: (...items) => transfer.push(...items),
    };
    try {
      const handler = handlers[method] as unknown as Handler<A, keyof A>;
      const result = await handler.run(params as never, ctx as never);
      post({ tag, kind: 'result', id, result }, transfer);
    } catch (e) {
      post({ tag, kind: 'error', id, error: { ...describe(e), cancelled: controller.signal.aborted } });
    } finally {
      controllers.delete(id);
    }
  }

  port.addEventListener('message', (event: MessageEvent) => {
    if (!isTagged<ToWorker>(event.data, tag)) return;
    const msg = event.data;
    if (msg.kind === 'cancel') {
      const target = controllers.get(msg.target);
      target?.abort();
      post({ tag, kind: 'result', id: msg.id, result: target !== undefined });
      return;
    }
    const method = msg.method as keyof A;
    if (!Object.hasOwn(handlers, method)) {
      const error = new RpcError('unknown-method', `no such method: ${msg.method}`);
      post({ tag, kind: 'error', id: msg.id, error: { ...describe(error), cancelled: false } });
      return;
    }
    const controller = new AbortController();
    controllers.set(msg.id, controller);
    const run = () => answer(msg.id, method, msg.params, controller);
    const { concurrency } = handlers[method];
    let done: Promise<unknown>;
    if (concurrency === 'concurrent') done = run();
    else if (concurrency === 'serial') done = serial = serial.then(run);
    else done = Promise.all(concurrency.after.map((m) => latest.get(m))).then(run);
    latest.set(method, done);
  });
  port.start?.();

  return {
    emit: (event, data) => post({ tag, kind: 'event', event, data }),
    serial: (work) => {
      const run = serial.then(work);
      serial = run.catch(() => undefined);
      return run;
    },
  };
}
