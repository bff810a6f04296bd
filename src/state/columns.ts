/** The strategy columns shown side by side (pure, so the benchmarks can import it without zustand). */
import type { RetrieverName } from '../core/retrieve/params';
import type { ColumnSpec } from '../worker/protocol';

/** The columns shown side by side; `base` is the retriever of the plain strategy columns. */
export function columnsFor(base: RetrieverName): ColumnSpec[] {
  const name = { bm25: 'BM25', vector: 'vector', hybrid: 'hybrid' }[base];
  return [
    { id: 'sentence', label: `Sentence hits · ${name}`, strategy: 'sentence', retriever: base, rerank: false },
    { id: 'window', label: `Sentence windows · ${name}`, strategy: 'window', retriever: base, rerank: false },
    { id: 'automerge', label: `Auto-merged parents · ${name}`, strategy: 'automerge', retriever: base, rerank: false },
    { id: 'adaptive', label: `Adaptive windows · ${name}`, strategy: 'adaptive', retriever: base, rerank: false },
    { id: 'rse', label: `Relevant segments (RSE) · ${name}`, strategy: 'rse', retriever: base, rerank: false },
    // Needs the LLM's query variants (the search request's `variants`); not part of the eval lab.
    { id: 'fusion', label: `Query fusion · ${name} windows`, strategy: 'window', retriever: base, rerank: false, fusion: true },
    { id: 'hybrid', label: 'Hybrid RRF · windows', strategy: 'window', retriever: 'hybrid', rerank: false },
    { id: 'reranked', label: 'Reranked · hybrid windows', strategy: 'window', retriever: 'hybrid', rerank: true },
    { id: 'naive', label: `Naive chunks · ${name} (baseline)`, strategy: 'naive', retriever: base, rerank: false },
  ];
}
