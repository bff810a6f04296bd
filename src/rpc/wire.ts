/**
 * The typed RPC shared by every worker of the lab (indexing/search, generation, UMAP, the
 * benchmark harness): what a method takes, answers and reports, the messages on the wire,
 * and the error every failure arrives as. Pure TypeScript: runs in a module worker, the page
 * and Node (tests use a MessageChannel).
 */

/** One method: its parameters, its result, and the progress it reports while it runs. */
export interface RpcMethod<P = unknown, R = unknown, Pr = never> {
  params: P;
  result: R;
  progress: Pr;
}

/** An API: method name → RpcMethod. `A` is the API itself, so interfaces and type aliases both fit. */
export type RpcApi<A> = { [M in keyof A]: RpcMethod<unknown, unknown, unknown> };

/** Events the worker sends unasked (the lab's corpus status): name → payload. */
export type RpcEvents<E> = { [K in keyof E]: unknown };

export type MethodName<A> = keyof A & string;
export type ParamsOf<A extends RpcApi<A>, M extends keyof A> = A[M]['params'];
export type ResultOf<A extends RpcApi<A>, M extends keyof A> = A[M]['result'];
export type ProgressOf<A extends RpcApi<A>, M extends keyof A> = A[M]['progress'];

/** What may carry messages: a Worker, a worker's global scope, a MessagePort (browser or Node). */
export interface RpcPort {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** MessagePorts deliver nothing until started; Workers have no start. */
  start?(): void;
}

/** The error of a failed request, as it travels. */
export interface WireError {
  code: string;
  message: string;
  data?: unknown;
  /** The request had been cancelled when it failed. */
  cancelled: boolean;
}

/**
 * Every message carries the protocol's tag: pdf.js posts its own messages inside the lab
 * worker, and those must never be taken for ours.
 */
export type ToWorker =
  | { tag: string; kind: 'call'; id: number; method: string; params: unknown }
  | { tag: string; kind: 'cancel'; id: number; target: number };

export type FromWorker =
  | { tag: string; kind: 'progress'; id: number; progress: unknown }
  | { tag: string; kind: 'result'; id: number; result: unknown }
  | { tag: string; kind: 'error'; id: number; error: WireError }
  | { tag: string; kind: 'event'; event: string; data: unknown };

/**
 * A failed request: a `code` the program (and the page's wording) reads, data for the words,
 * and a message for logs and for codes nobody words. `cancelled` when it failed after a cancel.
 */
export class RpcError<C extends string = string, D = unknown> extends Error {
  constructor(
    readonly code: C,
    message: string = code,
    readonly data?: D,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Whether a message is one of this protocol's (tagged), not pdf.js's or anyone else's. */
export function isTagged<T extends { tag: string }>(data: unknown, tag: string): data is T {
  return typeof data === 'object' && data !== null && (data as { tag?: unknown }).tag === tag;
}
