/**
 * SQuAD's two answer scores, per language (normalize.ts): exact match (the normalised strings
 * are equal) and bag-of-tokens F1 (precision and recall of the shared tokens, counted with
 * multiplicity), each the maximum over the reference answers. As in SQuAD v2.0's script, when
 * either side normalises to nothing, F1 is 1 if both do and 0 otherwise.
 */
import { answerTokens } from './normalize';

export interface AnswerScore {
  exact: number;
  f1: number;
}

/** F1 of two token lists. */
export function tokenF1(prediction: readonly string[], reference: readonly string[]): number {
  if (!prediction.length || !reference.length) return prediction.length === reference.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of reference) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of prediction) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / prediction.length;
  const recall = same / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Exact match and F1 of `prediction` against the best of `references`; null without references. */
export function scoreAnswer(prediction: string, references: readonly string[], language = 'en'): AnswerScore | null {
  if (!references.length) return null;
  const pred = answerTokens(prediction, language);
  const predText = pred.join(' ');
  let exact = 0;
  let f1 = 0;
  for (const r of references) {
    const ref = answerTokens(r, language);
    if (ref.join(' ') === predText) exact = 1;
    f1 = Math.max(f1, tokenF1(pred, ref));
  }
  return { exact, f1 };
}

/** True when `part` occurs in `tokens` as a contiguous run. */
function contains(tokens: readonly string[], part: readonly string[]): boolean {
  if (!part.length) return true;
  outer: for (let i = 0; i + part.length <= tokens.length; i++) {
    for (let j = 0; j < part.length; j++) if (tokens[i + j] !== part[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * An answer to a question that needs every reference (an all-of question: two facts, each its own
 * reference): exact when the answer holds every reference's normalised words in order; F1 against
 * all the references' words together. Null without references.
 */
export function scoreAllOf(prediction: string, references: readonly string[], language = 'en'): AnswerScore | null {
  if (!references.length) return null;
  const pred = answerTokens(prediction, language);
  const parts = references.map((r) => answerTokens(r, language));
  return { exact: parts.every((p) => contains(pred, p)) ? 1 : 0, f1: tokenF1(pred, parts.flat()) };
}
