/**
 * streamChat with bounded retries, for runs of many calls (question generation): a 429 waits
 * as long as its Retry-After says (seconds or an HTTP date, capped), a 5xx or an unreachable
 * server backs off exponentially, a call that takes too long is abandoned and tried again, and
 * a server that refuses `response_format` (HTTP 400 naming it) is asked once more without it.
 * The caller's signal stops any wait at once. Everything else (401, 404, a bad body) fails
 * at the first try: trying again would not help.
 */
import { GenerationError, streamChat, type ChatMessage, type EndpointConfig, type StreamOptions, type StreamResult } from './openai';

export interface RetryOptions {
  /** Tries after the first (default 3). */
  retries?: number;
  /** Longest single wait, whatever Retry-After says (default 30 s). */
  maxWaitMs?: number;
  /** First backoff for 5xx; doubled each time (default 1 s). */
  backoffMs?: number;
  /** A call with no complete reply after this long is abandoned (default 120 s; 0 = never). */
  timeoutMs?: number;
  /** Called before each wait, for progress lines ("rate-limited: waiting 5 s"). */
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
  /** Replaces setTimeout-based waiting (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The current time, for HTTP-date Retry-After values (tests). */
  now?: () => number;
}

export const RETRY_DEFAULTS = { retries: 3, maxWaitMs: 30_000, backoffMs: 1_000, timeoutMs: 120_000 };

/**
 * Milliseconds to wait for a Retry-After value: whole seconds or an HTTP date; null when absent
 * or unreadable. Never negative; capped at `maxMs`.
 */
export function retryAfterMs(value: string | null, maxMs: number, now = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d+(?:\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (!Number.isFinite(at)) return null;
    ms = at - now;
  }
  return Math.min(maxMs, Math.max(0, Math.round(ms)));
}

/** setTimeout as a promise that the signal ends at once (shared with the embedding endpoint client). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

const RESPONSE_FORMAT_REFUSED = /response_format|json_schema|structured output|schema/i;

/** streamChat with the retries above. Stopping is not an error: it resolves with `stopped: true`. */
export async function chatWithRetry(endpoint: EndpointConfig, messages: ChatMessage[], options: StreamOptions & RetryOptions = {}): Promise<StreamResult> {
  const o = { ...RETRY_DEFAULTS, ...options };
  const sleep = options.sleep ?? abortableSleep;
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let responseFormat = options.responseFormat;
  for (let attempt = 0; ; attempt++) {
    let retryAfter: string | null = null;
    // Records the Retry-After header: streamChat's error keeps only the status.
    const recording: typeof fetch = async (input, init) => {
      const r = await baseFetch(input, init);
      retryAfter = r.headers.get('retry-after');
      return r;
    };
    const timeout = new AbortController();
    const onAbort = () => timeout.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = o.timeoutMs > 0 ? setTimeout(() => timeout.abort(), o.timeoutMs) : null;
    let failure: GenerationError;
    try {
      const { retries: _r, maxWaitMs: _m, backoffMs: _b, timeoutMs: _t, onRetry: _o, sleep: _s, now: _n, responseFormat: _f, ...stream } = options;
      const result = await streamChat(endpoint, messages, { ...stream, ...(responseFormat ? { responseFormat } : {}), signal: timeout.signal, fetch: recording });
      if (!result.stopped || options.signal?.aborted) return result;
      failure = new GenerationError(`no complete reply from ${endpoint.baseUrl} within ${o.timeoutMs / 1000} s`, 'server');
    } catch (e) {
      if (options.signal?.aborted) return { text: '', finishReason: null, stopped: true };
      if (!(e instanceof GenerationError)) throw e;
      failure = e;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
    if (failure.status === 400 && responseFormat && RESPONSE_FORMAT_REFUSED.test(failure.message)) {
      // The server does not take structured outputs: the reply is parsed tolerantly anyway.
      responseFormat = undefined;
      o.onRetry?.({ attempt: attempt + 1, waitMs: 0, reason: 'the server refused response_format; asking without it' });
      continue;
    }
    const retryable = failure.status === 429 || (failure.status !== undefined && failure.status >= 500) || failure.kind === 'unreachable' || (failure.kind === 'server' && failure.status === undefined);
    if (!retryable || attempt >= o.retries) throw failure;
    const waitMs = failure.status === 429 ? (retryAfterMs(retryAfter, o.maxWaitMs, (options.now ?? Date.now)()) ?? Math.min(o.maxWaitMs, o.backoffMs * 2 ** attempt)) : Math.min(o.maxWaitMs, o.backoffMs * 2 ** attempt);
    o.onRetry?.({ attempt: attempt + 1, waitMs, reason: failure.message });
    await sleep(waitMs, options.signal);
    if (options.signal?.aborted) return { text: '', finishReason: null, stopped: true };
  }
}
