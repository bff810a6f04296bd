/**
 * Whether a question needs every answer (all-of) or any one of them: the one rule the
 * evaluation, the formats and the page read.
 */
import type { LabelledQuestion } from './types';

/** What the parts are counted from: answer spans (their documents) and relevant documents. */
interface PartsOf {
  answers: readonly { doc: string }[];
  documents?: readonly string[];
}

type Parts = PartsOf & Pick<LabelledQuestion, 'needs' | 'unanswerable'>;

/** The parts of a question's answer: its answer spans, and its relevant documents no span lies in. */
export function answerParts(q: PartsOf): number {
  const spanDocs = new Set(q.answers.map((a) => a.doc));
  return q.answers.length + new Set((q.documents ?? []).filter((d) => !spanDocs.has(d))).size;
}

/** True when the question needs all of two or more parts (with one part, all-of and any-of are the same). */
export function needsAll(q: Parts): boolean {
  return q.needs === 'all' && !q.unanswerable && answerParts(q) > 1;
}

/** `needs` as a question should store it: 'all' only where it means something. */
export function normalNeeds(q: Parts): { needs?: 'all' } {
  return needsAll(q) ? { needs: 'all' } : {};
}
