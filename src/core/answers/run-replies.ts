/**
 * Planning and running many model calls through the reply cache (reply-cache.ts): answers and
 * judge verdicts alike. The plan says before anything is sent how many distinct requests there
 * are, how many the cache answers, and what the rest will cost (prompt tokens, time); the run
 * sends each uncached request once (a few at a time for an endpoint, one at a time for a model
 * in this browser), stores every reply as it comes, honours pause (the gate) and cancel (the
 * signal) and keeps what was made. Retries of 429 and 5xx are the caller's (generate/retry.ts);
 * a call that still fails is a failure — listed, never cached (the next run asks again), never
 * scored — and a run stops when the generator has clearly gone away. A reply that came back is
 * kept even when it is empty: the scorer counts it as a failed answer, and asking the same model
 * the same thing again would give the same.
 */
import type { ChatMessage } from '../generate/endpoint-types';
import { ASSUMED_RATE } from '../questions/generate';
import type { CachedReply, ReplyCache } from './reply-cache';

/** Failed calls in a row that stop a run (the endpoint went away); the rest are not sent. */
export const STOP_AFTER_FAILURES_IN_A_ROW = 5;

export interface ReplyRequest {
  /** replyKey(model, messages, settings). */
  key: string;
  messages: ChatMessage[];
  /** Prompt tokens as counted before sending (the generator's tokenizer, or an estimate). */
  promptTokens: number;
  /** Structured outputs for an endpoint (judge replies); a model here gets the same prompt without it. */
  responseFormat?: Record<string, unknown>;
}

export interface ReplyResult {
  text: string;
  finishReason: string | null;
  stopped: boolean;
  usage?: { promptTokens: number; completionTokens: number };
}

/** The generator as a run calls it. */
export interface ReplyCaller {
  complete(messages: ChatMessage[], options: { signal?: AbortSignal; responseFormat?: Record<string, unknown> }): Promise<ReplyResult>;
  /** Calls in flight at once: 1 for a model here, a few for an endpoint. */
  concurrency: number;
}

export interface ReplyRate {
  promptTokensPerSecond: number;
  replyTokensPerSecond: number;
}

export interface ReplyPlan {
  /** Distinct requests (after collapsing identical prompts). */
  requests: number;
  /** Of those, answered by the cache: nothing is sent for them. */
  cached: number;
  calls: number;
  /** Prompt tokens of the calls to make, and of those the cache saves. */
  promptTokens: number;
  savedPromptTokens: number;
  /** Assumed reply tokens of the calls. */
  replyTokens: number;
  seconds: number;
  rate: 'measured' | 'assumed';
}

/** What the requests will cost, after the cache. `replyTokens`: the expected reply length of one call. */
export async function planReplies(requests: readonly ReplyRequest[], cache: ReplyCache, o: { replyTokens: number; rate?: ReplyRate; concurrency?: number }): Promise<ReplyPlan> {
  let cached = 0;
  let promptTokens = 0;
  let saved = 0;
  for (const r of requests) {
    if (await cache.get(r.key)) {
      cached++;
      saved += r.promptTokens;
    } else promptTokens += r.promptTokens;
  }
  const calls = requests.length - cached;
  const rate = o.rate ?? ASSUMED_RATE;
  const replyTokens = calls * o.replyTokens;
  const seconds = Math.round((promptTokens / rate.promptTokensPerSecond + replyTokens / rate.replyTokensPerSecond) / Math.max(1, o.concurrency ?? 1));
  return { requests: requests.length, cached, calls, promptTokens, savedPromptTokens: saved, replyTokens, seconds, rate: o.rate ? 'measured' : 'assumed' };
}

export interface ReplyProgress {
  /** Requests settled (cached, answered or failed) of all. */
  done: number;
  total: number;
  cached: number;
  /** Calls made (answered or failed). */
  calls: number;
  failed: number;
  elapsedMs: number;
  /** From the mean time per call so far; null before the first call ends. */
  leftMs: number | null;
}

export interface StoredReply extends CachedReply {
  /** True when it came from the cache in this run (no call was made). */
  cached: boolean;
}

export interface ReplyRunResult {
  replies: Map<string, StoredReply>;
  /** Request key → why it has no reply. */
  failures: Map<string, string>;
  progress: ReplyProgress;
  cancelled: boolean;
  /** Set when the run stopped because calls kept failing: one line for the user. */
  stopped?: string;
}

export interface RunRepliesOptions {
  requests: readonly ReplyRequest[];
  cache: ReplyCache;
  caller: ReplyCaller;
  signal?: AbortSignal;
  /** Awaited before each call: a paused run waits here. */
  gate?: () => Promise<void>;
  onProgress?: (p: ReplyProgress) => void;
  /** Called with each new reply as it is stored. */
  onReply?: (key: string, reply: StoredReply) => void;
  now?: () => number;
}

const errorLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();

/** Sends every request the cache cannot answer; see the module comment. */
export async function runReplies(o: RunRepliesOptions): Promise<ReplyRunResult> {
  const now = o.now ?? (() => performance.now());
  const started = now();
  const replies = new Map<string, StoredReply>();
  const failures = new Map<string, string>();
  const todo: ReplyRequest[] = [];
  let cached = 0;
  // Identical requests are one request: the first is sent, the others share its reply.
  const seen = new Set<string>();
  for (const r of o.requests) {
    if (seen.has(r.key)) continue;
    seen.add(r.key);
    const hit = await o.cache.get(r.key);
    if (hit) {
      replies.set(r.key, { ...hit, cached: true });
      cached++;
    } else todo.push(r);
  }
  const total = seen.size;
  let calls = 0;
  let callMs = 0;
  let failuresInARow = 0;
  let stopped: string | undefined;
  const progress = (): ReplyProgress => {
    const settled = replies.size + failures.size;
    const perCall = calls ? callMs / calls : null;
    return {
      done: settled,
      total,
      cached,
      calls,
      failed: failures.size,
      elapsedMs: now() - started,
      leftMs: perCall === null ? null : (perCall * (total - settled)) / Math.max(1, o.caller.concurrency),
    };
  };
  o.onProgress?.(progress());

  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      await o.gate?.();
      if (o.signal?.aborted || stopped) return;
      const r = todo[next++];
      if (!r) return;
      const t0 = now();
      calls++;
      try {
        const res = await o.caller.complete(r.messages, { ...(o.signal ? { signal: o.signal } : {}), ...(r.responseFormat ? { responseFormat: r.responseFormat } : {}) });
        if (res.stopped || o.signal?.aborted) return; // a reply cut short by cancel is not kept
        const ms = now() - t0;
        const reply: CachedReply = {
          text: res.text,
          promptTokens: res.usage?.promptTokens ?? r.promptTokens,
          ...(res.usage ? { completionTokens: res.usage.completionTokens } : {}),
          ms: Math.round(ms),
          finishReason: res.finishReason,
          at: new Date().toISOString(),
        };
        await o.cache.put(r.key, reply);
        const stored = { ...reply, cached: false };
        replies.set(r.key, stored);
        failuresInARow = 0;
        o.onReply?.(r.key, stored);
      } catch (e) {
        if (o.signal?.aborted) return;
        failures.set(r.key, errorLine(e));
        failuresInARow++;
        if (failuresInARow >= STOP_AFTER_FAILURES_IN_A_ROW) stopped = `stopped after ${failuresInARow} failed calls in a row; the last: ${errorLine(e)}`;
      }
      callMs += now() - t0;
      o.onProgress?.(progress());
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.caller.concurrency, todo.length || 1)) }, worker));
  return { replies, failures, progress: progress(), cancelled: Boolean(o.signal?.aborted), ...(stopped ? { stopped } : {}) };
}
