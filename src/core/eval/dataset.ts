import type { Document } from '../types';

/** Where the answer to a question lies, for judging blocks. */
export interface Target {
  /** Document id. */
  doc: string;
  /** Graded relevance (1 for binary judgements). */
  grade: number;
  /** Character spans of the answer in the document, any one enough; absent when the whole document is relevant. */
  spans?: { start: number; end: number }[];
}

/**
 * Answer spans as targets. Any-of (the default): one target per document, its spans
 * alternatives (SQuAD's alternative answers). All-of: one target per span, each required.
 */
export function spanTargets(spans: readonly { doc: string; start: number; end: number }[], needs?: 'all'): Target[] {
  if (needs === 'all') return spans.map((s) => ({ doc: s.doc, grade: 1, spans: [{ start: s.start, end: s.end }] }));
  const byDoc = new Map<string, Target>();
  for (const s of spans) {
    const t = byDoc.get(s.doc) ?? { doc: s.doc, grade: 1, spans: [] };
    t.spans!.push({ start: s.start, end: s.end });
    byDoc.set(s.doc, t);
  }
  return [...byDoc.values()];
}

export interface EvalQuestion {
  id: string;
  question: string;
  /** Gold answer strings (for answer-in-context); empty for document-level sets like BEIR. */
  answers: string[];
  /** Each target is found once; several targets mean several relevant documents (any one answers it), or, with `needs: 'all'`, the parts of its answer. */
  targets: Target[];
  /**
   * 'all': the question needs every target (a compound question: each target is one required
   * part, and `answers` holds one string per part); it counts as found only when all of them
   * are in the context. Absent: any one target, and any one answer string, is enough.
   */
  needs?: 'all';
}

export interface EvalSet {
  name: string;
  docs: Document[];
  questions: EvalQuestion[];
  /**
   * Questions the documents do not answer (SQuAD v2's impossible ones, questions marked so):
   * no retrieval metric judges them, but an answer run asks them and counts a correct
   * abstention. Their `targets` are empty.
   */
  unanswerable?: EvalQuestion[];
  /** Rows that could not be used, with why (they never stop the rest). */
  skipped: string[];
}

/** A malformed dataset: one clear line for the user. */
export class DatasetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetError';
  }
}
