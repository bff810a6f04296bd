/**
 * A corpus's question set: questions with gold answer spans, made inside the lab (marked by
 * the user while exploring, or written by a model from sampled passages) or imported. Pure
 * data, shared by the core, the worker, the page and the CLI. The JSONL line format of
 * `npm run cli -- questions convert` and the page's export is exactly `LabelledQuestion`.
 */

/** One gold span: a character range [start, end) of a document's text, and that text. */
export interface GoldSpan {
  /** Document id (Document.id). */
  doc: string;
  start: number;
  end: number;
  text: string;
}

/** Where a question came from. */
export type QuestionSourceKind = 'marked' | 'generated' | 'imported';

export interface QuestionSource {
  kind: QuestionSourceKind;
  /** The generator that wrote it ("Qwen2.5-0.5B-Instruct", "llama3.2 at localhost:11434"); generated only. */
  model?: string;
  /** The passage(s) it was written from, as spans; generated only. */
  passage?: GoldSpan[];
  /** The file it was imported from; imported only. */
  file?: string;
}

/** What a generated question asks for (Ragas' single-hop specific / abstract, multi-hop). */
export type QuestionType = 'specific' | 'abstract' | 'multi-passage';

export interface LabelledQuestion {
  id: string;
  question: string;
  /** Gold spans; empty when `unanswerable`. */
  answers: GoldSpan[];
  /** True when the user said the documents do not answer it. */
  unanswerable?: boolean;
  source: QuestionSource;
  /** Generated questions: the kind asked for; marked ones may leave it out. */
  type?: QuestionType;
  /** Share (0–1) of the question's content words found verbatim in its passage (generated ones). */
  copyShare?: number;
  /** ISO time of creation or last edit. */
  updated?: string;
  /**
   * Set when a document it points into was removed: the question is kept and says so
   * (it is left out of evaluation until re-marked).
   */
  missingDocs?: string[];
}

export interface QuestionSet {
  questions: LabelledQuestion[];
}

/** Why a generated question was not kept (each rejected question is listed with one). */
export type RejectReason = 'not-json' | 'no-question' | 'answer-not-found' | 'dont-know' | 'duplicate' | 'copies-passage' | 'error';

export interface RejectedQuestion {
  reason: RejectReason;
  /** One line for the user ("the answer 'x' is not in the passage (best match 0.41 < 0.80)"). */
  detail: string;
  question?: string;
  answer?: string;
  passage: GoldSpan[];
  type: QuestionType;
}
