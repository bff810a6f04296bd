/** A retrieved unit (sentence, leaf or chunk) with where its score came from. */
export interface Candidate {
  id: number;
  score: number;
  ranks: Record<string, number | null>;
  scores: Record<string, number>;
  fused?: number;
  rerank?: { score: number; before: number };
  /** The lexical model behind a BM25 rank or score ("BM25+ · words"). */
  lexical?: string;
}

/** Measures a block's context cost in tokens: its text plus its header, if any. */
export type BlockCost = (start: number, end: number) => number;
