/** The strategy columns shown side by side (pure, so the benchmarks can import it without zustand). */
import { RETRIEVER_NAMES, type RetrieverName } from '../core/retrieve/retrievers';
import { COMPARISON_STRATEGY, STRATEGY_LIST } from '../core/strategies/registry';
import type { ColumnId, ColumnSpec } from '../worker/protocol';

/**
 * The columns shown side by side; `base` is the retriever of the plain strategy columns:
 * every strategy of the registry, then the hybrid, reranked and query-transformation comparisons
 * (run with the comparison strategy), then the baseline.
 */
export function columnsFor(base: RetrieverName): ColumnSpec[] {
  const name = RETRIEVER_NAMES[base].short;
  const plain = (s: (typeof STRATEGY_LIST)[number]): ColumnSpec => ({ id: s.name, label: `${s.label} · ${name}${s.note ? ` ${s.note}` : ''}`, strategy: s.name, retriever: base, rerank: false });
  const { name: strategy, plural } = COMPARISON_STRATEGY;
  return [
    ...STRATEGY_LIST.filter((s) => !('baseline' in s && s.baseline)).map(plain),
    // Needs the LLM's rewrite of the question (the search request's `rewrite`); the id stays 'fusion' for saved links.
    { id: 'fusion', label: `Query transformation · ${name} ${plural}`, strategy, retriever: base, rerank: false, fusion: true },
    { id: 'hybrid', label: `Hybrid RRF · ${plural}`, strategy, retriever: 'hybrid', rerank: false },
    { id: 'reranked', label: `Reranked · hybrid ${plural}`, strategy, retriever: 'hybrid', rerank: true },
    ...STRATEGY_LIST.filter((s) => 'baseline' in s && s.baseline).map(plain),
  ];
}

/** Every column's id, in the default order (the ids do not depend on the base retriever). */
export const COLUMN_IDS: readonly ColumnId[] = columnsFor('vector').map((c) => c.id);

export function isColumnId(id: unknown): id is ColumnId {
  return typeof id === 'string' && (COLUMN_IDS as readonly string[]).includes(id);
}

/** The columns a user chose to see, in their order; null: all, in the default order. */
export function chosenColumns(base: RetrieverName, ids: readonly ColumnId[] | null): ColumnSpec[] {
  const all = columnsFor(base);
  if (!ids) return all;
  return ids.map((id) => all.find((c) => c.id === id)).filter((c): c is ColumnSpec => c !== undefined);
}
