/** The retrievers a strategy's candidates can come from, in the order they are shown. */
export const RETRIEVERS = ['bm25', 'vector', 'hybrid'] as const;
export type RetrieverName = (typeof RETRIEVERS)[number];

/** How a retriever is named: `short` in column titles and ranks ("BM25 #3"), `long` where it is described. */
export const RETRIEVER_NAMES: Record<RetrieverName, { short: string; long: string }> = {
  bm25: { short: 'BM25', long: 'BM25' },
  vector: { short: 'vector', long: 'vector' },
  hybrid: { short: 'hybrid', long: 'hybrid RRF' },
};

export function isRetriever(x: unknown): x is RetrieverName {
  return (RETRIEVERS as readonly unknown[]).includes(x);
}
