import type { Document } from '../types';

/** Where the answer to a question lies, for judging blocks. */
export interface Target {
  /** Document id. */
  doc: string;
  /** Graded relevance (1 for binary judgements). */
  grade: number;
  /** Character spans of the answer in the document; absent when the whole document is relevant. */
  spans?: { start: number; end: number }[];
}

export interface EvalQuestion {
  id: string;
  question: string;
  /** Gold answer strings (for answer-in-context); empty for document-level sets like BEIR. */
  answers: string[];
  /** Each target is found once; several targets mean several relevant documents. */
  targets: Target[];
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
