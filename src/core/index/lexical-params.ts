/**
 * What a lexical index is: its analyzer and BM25 variant, their key and label, and each
 * variant's constants. Below the index, so parameters and reports read it without the index.
 */

/**
 * BM25+ parameters (the `bm25plus` variant). MiniSearch scores with BM25+ (k1, b and the
 * lower bound δ) and then multiplies a document's summed term scores by the number of
 * query terms it matched; document length is its count of distinct terms. These are
 * MiniSearch's defaults, set here on purpose (the lab's default before Lucene's BM25).
 */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

/**
 * Lucene's BM25 (BM25Similarity, as Anserini runs it): k1 0.9, b 0.4, document length in
 * tokens, idf = ln(1 + (N − df + 0.5)/(df + 0.5)), a unit's score the plain sum over query
 * terms of idf · tf / (tf + k1 · (1 − b + b · len/avgLen)) (Lucene 8+ drops the constant
 * (k1 + 1) factor; the order is the same). Lengths are kept exact, not Lucene's one-byte norms.
 */
export const LUCENE_BM25_PARAMS = { k: 0.9, b: 0.4 } as const;

/** `bm25plus`: MiniSearch's BM25+ (BM25_PARAMS); `lucene`: Lucene's BM25 (LUCENE_BM25_PARAMS). */
export const ANALYZERS = ['words', 'stem', 'words+stop', 'stem+stop'] as const;
export type AnalyzerName = (typeof ANALYZERS)[number];

export function isAnalyzer(v: unknown): v is AnalyzerName {
  return ANALYZERS.includes(v as AnalyzerName);
}

export const BM25_VARIANTS = ['bm25plus', 'lucene'] as const;
export type Bm25Variant = (typeof BM25_VARIANTS)[number];

export function isBm25Variant(v: unknown): v is Bm25Variant {
  return BM25_VARIANTS.includes(v as Bm25Variant);
}

/** How the lexical indexes analyse and score: an index-level choice (changing it rebuilds them, never the vectors). */
export interface LexicalParams {
  analyzer: AnalyzerName;
  bm25: Bm25Variant;
}

/**
 * The default lexical model: Lucene's BM25 over Snowball-stemmed words without stop words
 * (as Anserini and Elasticsearch's language analyzers). It measured best across the shared
 * sets (docs/measuring.md, "The lexical choices, measured"); the export's SQL reproduces every
 * analyzer × variant, this one included.
 */
export const DEFAULT_LEXICAL: LexicalParams = { analyzer: 'stem+stop', bm25: 'lucene' };

export function lexicalKey(p: LexicalParams): string {
  return `${p.analyzer}|${p.bm25}`;
}

/** "BM25+ · words", "Lucene BM25 · stem+stop": what is shown beside a BM25 score. */
export function lexicalLabel(p: LexicalParams): string {
  return `${p.bm25 === 'lucene' ? 'Lucene BM25' : 'BM25+'} · ${p.analyzer}`;
}

/** One term's postings: the units holding it, ascending, and its frequency in each. */
