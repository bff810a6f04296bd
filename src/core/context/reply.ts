/**
 * A model's reply to the context prompt, cleaned into the context that is prepended: without
 * reasoning blocks (<think>…</think>), code fences, a "Context:" or "Here is the succinct
 * context:" label, Markdown emphasis or surrounding quotes, on one line; and at most
 * MAX_CONTEXT_TOKENS tokens — a longer reply is cut at a word and flagged, since an unbounded
 * context would crowd the unit out of its own embedding.
 */
import { truncateToTokens } from '../generate/doc-context';
import type { TokenCounter } from '../segment/tokens';
import { dropThinking, unfence } from '../util/model-reply';

/** Longest context kept, in tokens (Anthropic's contexts are 50–100 tokens). */
export const MAX_CONTEXT_TOKENS = 120;

export type CleanedContext = { ok: true; text: string; cut: boolean; tokens: number } | { ok: false; reason: string };

const LABEL = /^(?:here\s+is\s+(?:the|a)\s+(?:short\s+)?(?:succinct\s+)?context(?:\s+for\s+(?:the|this)\s+chunk)?|(?:succinct\s+|short\s+)?context(?:\s+for\s+(?:the|this)\s+chunk)?|situating\s+context|answer)\s*[:：]\s*/iu;

const QUOTES = /^["'“”‘’«»„`]+|["'“”‘’«»„`]+$/gu;

/** The context in a reply, or why there is none. `maxTokens` defaults to MAX_CONTEXT_TOKENS. */
export function cleanContext(reply: string, counter: TokenCounter, maxTokens = MAX_CONTEXT_TOKENS): CleanedContext {
  let t = unfence(dropThinking(reply))
    .replace(/<\/?(?:context|chunk)>/giu, '');
  t = t
    .split(/\r?\n/u)
    .map((l) => l.trim().replace(/^(\*\*|__)(.*?)\1/u, '$2'))
    .filter(Boolean)
    .join(' ')
    .replace(/\s+/gu, ' ')
    .trim();
  for (let i = 0; i < 3; i++) {
    const before = t;
    t = t.replace(/^(\*\*|__)([^*_]+?)\1\s*/u, '$2 ').trim();
    t = t.replace(LABEL, '').trim();
    t = t.replace(QUOTES, '').trim();
    if (t === before) break;
  }
  if (!/[\p{L}\p{N}]/u.test(t)) return { ok: false, reason: reply.trim() ? 'the reply holds no context (only a label, quotes or reasoning)' : 'the reply is empty' };
  const tokens = counter.count(t);
  if (tokens <= maxTokens) return { ok: true, text: t, cut: false, tokens };
  // One token is left for the ellipsis that says the context was cut.
  const kept = `${truncateToTokens(t, Math.max(1, maxTokens - 1), counter).text.replace(/[\s,;:.–—-]+$/u, '')}…`;
  return { ok: true, text: kept, cut: true, tokens: counter.count(kept) };
}
