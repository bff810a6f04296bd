/**
 * Asking the generator for every question's rewrites, once: calls = questions × transformations
 * (sub-questions and the router once per tool set), less what the reply cache already holds —
 * the same cache as answer runs, keyed by the generator, the exact messages and the settings, so
 * a slider move, a reload or a repeated command asks nothing again. A call that fails, or a
 * reply that cannot be read, leaves that question with the plain question and a note.
 */
import { runReplies, planReplies, type ReplyCaller, type ReplyPlan, type ReplyProgress } from '../answers/run-replies';
import { replyKey, type ReplyCache, type ReplySettings } from '../answers/reply-cache';
import type { ChatMessage } from '../generate/endpoint-types';
import { DEFAULT_VARIANTS, readRewrite, REWRITE_MAX_TOKENS, rewriteMessages, type QueryTransform, type Rewrite } from './rewrites';
import type { QueryTool } from './tools';

/** Rewrites are asked greedily: the same question gives the same rewrite, and the cache is exact. */
export const REWRITE_SETTINGS: ReplySettings = { temperature: 0, maxTokens: REWRITE_MAX_TOKENS };

export interface ToolSet {
  /** Named in results ("default", the file name): routing precision is per set. */
  name: string;
  tools: QueryTool[];
}

export interface RewriteSpec {
  transforms: readonly QueryTransform[];
  toolSets: readonly ToolSet[];
  variants?: number;
}

/** The page measures one tool set, the Generator panel's: its name in rewrite keys and results. */
export const PAGE_TOOL_SET = 'generator panel';

/** Which rewrite a request is: transformation, tool set (tools only), question. */
export function rewriteKey(t: QueryTransform, toolSet: string | null, question: string): string {
  return JSON.stringify([t, t === 'subquestions' || t === 'router' ? toolSet : null, question]);
}

export interface RewriteRequest {
  key: string;
  rewrite: string;
  transform: QueryTransform;
  toolSet: ToolSet | null;
  question: string;
  messages: ChatMessage[];
  promptTokens: number;
  responseFormat?: Record<string, unknown>;
}

/** Every request the spec needs for the questions (none for `none`). */
export function rewriteRequests(questions: readonly string[], spec: RewriteSpec, model: string, count: (m: ChatMessage[]) => number): RewriteRequest[] {
  const out: RewriteRequest[] = [];
  const seen = new Set<string>();
  for (const t of spec.transforms) {
    if (t === 'none') continue;
    const sets = t === 'subquestions' || t === 'router' ? spec.toolSets : [null];
    for (const set of sets) {
      for (const question of questions) {
        const rewrite = rewriteKey(t, set?.name ?? null, question);
        if (seen.has(rewrite)) continue;
        seen.add(rewrite);
        const m = rewriteMessages(t, question, set?.tools ?? [], spec.variants ?? DEFAULT_VARIANTS)!;
        out.push({ key: replyKey(model, m.messages, REWRITE_SETTINGS), rewrite, transform: t, toolSet: set, question, messages: m.messages, promptTokens: count(m.messages), ...(m.responseFormat ? { responseFormat: m.responseFormat } : {}) });
      }
    }
  }
  return out;
}

/** Expected reply length of a rewrite, for the plan's time. */
export const REWRITE_REPLY_TOKENS = 80;

export function planRewrites(requests: readonly RewriteRequest[], cache: ReplyCache, o: { concurrency: number }): Promise<ReplyPlan> {
  return planReplies(requests, cache, { replyTokens: REWRITE_REPLY_TOKENS, concurrency: o.concurrency });
}

export interface RewriteRun {
  /** rewriteKey → the rewrite read (a fallback with its note where the call failed or the reply was unreadable). */
  rewrites: Map<string, Rewrite>;
  progress: ReplyProgress;
  cancelled: boolean;
  notes: string[];
}

/** Asks what the cache does not hold and reads every reply. */
export async function runRewrites(requests: readonly RewriteRequest[], cache: ReplyCache, caller: ReplyCaller, o: { signal?: AbortSignal; gate?: () => Promise<void>; onProgress?: (p: ReplyProgress) => void; variants?: number } = {}): Promise<RewriteRun> {
  const run = await runReplies({ requests, cache, caller, ...(o.signal ? { signal: o.signal } : {}), ...(o.gate ? { gate: o.gate } : {}), ...(o.onProgress ? { onProgress: o.onProgress } : {}) });
  const rewrites = new Map<string, Rewrite>();
  for (const r of requests) {
    const reply = run.replies.get(r.key);
    const failed = run.failures.get(r.key);
    rewrites.set(
      r.rewrite,
      reply ? readRewrite(r.transform, reply.text, r.question, r.toolSet?.tools ?? [], o.variants ?? DEFAULT_VARIANTS) : { kind: 'fallback', transform: r.transform, note: failed ? `the call failed (${failed})` : 'not asked (the run was stopped)' },
    );
  }
  const notes = [...(run.stopped ? [run.stopped] : []), ...cache.damaged];
  return { rewrites, progress: run.progress, cancelled: run.cancelled, notes };
}
