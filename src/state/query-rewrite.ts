/**
 * The Query transformation column's rewrite of the asked question: the generator chosen in the
 * Generator panel writes it (variants, sub-questions with their tools, a hypothetical passage,
 * or the routed tool), once per question, generator, transformation and tools — kept in the
 * page's reply cache (IndexedDB), so a slider move or a reload asks nothing again. The last
 * question asked always wins: a rewrite that arrives for an older one is not used.
 */
import { create } from 'zustand';
import { replyKey } from '../core/answers/reply-cache';
import { runReplies } from '../core/answers/run-replies';
import { readRewrite, rewriteMessages, type QueryTransform } from '../core/transform/rewrites';
import { REWRITE_SETTINGS } from '../core/transform/run-rewrites';
import type { SearchRewrite } from '../worker/protocol';
import { useGeneration } from './generation';
import { replyCaller } from './generator-caller';
import { pageReplyCache } from './reply-cache-idb';

export interface RewriteState {
  query: string;
  transform: QueryTransform;
  generator: string;
  state: 'writing' | 'ready' | 'failed';
  /** What the column retrieves with (a fallback rewrite is ready too: the column says why). */
  rewrite?: SearchRewrite;
  error?: string;
  key: string;
}

export const useRewrite = create<{ current: RewriteState | null }>(() => ({ current: null }));

/**
 * The rewrite of `query` when a transformation is chosen: at once when known; otherwise it is
 * asked for (or read from the cache) and `onReady` runs when it arrives (the caller searches
 * again). Undefined while there is none.
 */
export function rewriteFor(query: string, onReady: () => void): SearchRewrite | undefined {
  const { settings, generator } = useGeneration.getState();
  const q = query.trim();
  const t = settings.queryTransform;
  if (!generator || t === 'none' || !q) return undefined;
  const tools = t === 'subquestions' || t === 'router' ? settings.tools : [];
  const key = JSON.stringify([q, generator.identity, t, tools, t === 'multiquery' ? settings.fusionVariants : 0]);
  const cur = useRewrite.getState().current;
  if (cur?.key === key) return cur.state === 'ready' ? cur.rewrite : undefined;
  const state: RewriteState = { query: q, transform: t, generator: generator.label, state: 'writing', key };
  useRewrite.setState({ current: state });
  const same = () => useRewrite.getState().current?.key === key;
  const m = rewriteMessages(t, q, tools, settings.fusionVariants)!;
  const request = { key: replyKey(generator.identity, m.messages, REWRITE_SETTINGS), messages: m.messages, promptTokens: 0, ...(m.responseFormat ? { responseFormat: m.responseFormat } : {}) };
  void runReplies({ requests: [request], cache: pageReplyCache(), caller: replyCaller(generator, REWRITE_SETTINGS) })
    .then((r) => {
      if (!same()) return;
      const reply = r.replies.get(request.key);
      if (!reply) {
        useRewrite.setState({ current: { ...state, state: 'failed', error: r.failures.get(request.key) ?? 'no reply' } });
      } else {
        useRewrite.setState({ current: { ...state, state: 'ready', rewrite: { transform: t, rewrite: readRewrite(t, reply.text, q, tools, settings.fusionVariants), tools } } });
      }
      onReady();
    })
    .catch((e: Error) => {
      if (!same()) return;
      useRewrite.setState({ current: { ...state, state: 'failed', error: e.message } });
      onReady();
    });
  return undefined;
}
