/**
 * Where judging by the context and judging by the answer disagree, question by question, at one
 * answered point:
 * - missed: the answer was in the context (answer in context = 1) but the model did not give
 *   it — wrong (exact 0 and F1 below RIGHT_F1, or the judge said incorrect) or it abstained:
 *   the cost of noise, or of a fact lost in the middle;
 * - rightWithout: the model answered right (exact match, F1 ≥ RIGHT_F1, or the judge said
 *   correct) though the answer was not in the context: from its own knowledge, or from a
 *   paraphrase the answer-in-context check cannot see.
 * Failed answers and unanswerable questions are in neither list.
 */
import type { AnswerOutcome } from './answer-metrics';

/** F1 at or above which an answer that is not an exact match still counts as right. */
export const RIGHT_F1 = 0.8;
/** F1 below which an answer counts as wrong. */
export const WRONG_F1 = 0.5;

export type Rightness = 'right' | 'wrong' | 'partial' | null;

/** Right, wrong or in between by the references (and the judge, when it graded); null when it cannot be said. */
export function rightness(o: AnswerOutcome): Rightness {
  if (o.failed !== null) return null;
  const judged = o.judge?.correct;
  if (o.exact === 1 || judged === 1 || (o.f1 ?? 0) >= RIGHT_F1) return 'right';
  if (o.abstained || judged === 0 || (o.f1 !== null && o.f1 < WRONG_F1)) return 'wrong';
  return o.f1 === null && judged == null ? null : 'partial';
}

export interface Disagreements {
  /** Question indices, in order. */
  missed: number[];
  rightWithout: number[];
}

/** `inContext[q]`: the point's answer in context for question q (NaN or undefined where not measured). */
export function disagreements(slots: Int32Array, outcomes: readonly AnswerOutcome[], inContext: ArrayLike<number>, unanswerable: (q: number) => boolean): Disagreements {
  const missed: number[] = [];
  const rightWithout: number[] = [];
  slots.forEach((at, q) => {
    if (at < 0 || unanswerable(q)) return;
    const r = rightness(outcomes[at]!);
    const found = inContext[q];
    if (found === 1 && r === 'wrong') missed.push(q);
    else if (found === 0 && r === 'right') rightWithout.push(q);
  });
  return { missed, rightWithout };
}
