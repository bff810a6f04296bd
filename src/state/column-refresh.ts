/**
 * When the shown columns must search again: one rule for every column, read from the
 * strategy registry. A column depends on its strategy's unit kind: on how many units there
 * are (semantic chunks appear as the model cuts them) and, unless it ranks by BM25 alone, on
 * how many of them have vectors; columns that retrieve by contextualised text also on the
 * contexts written. Pure, so it is tested with exact values.
 */
import type { RetrievalParams } from '../core/retrieve/params';
import { strategyOf } from '../core/strategies/registry';
import type { ColumnSpec, WorkerStatus } from '../worker/protocol';

/** What the columns' answers depend on in a status; a search is due when it changes. */
export function columnDependencies(
  status: Pick<WorkerStatus, 'docs' | 'embedding'> & Partial<Pick<WorkerStatus, 'contexts' | 'structure'>>,
  columns: readonly ColumnSpec[],
  params?: RetrievalParams,
): string {
  const parts = new Set<string>([`docs:${status.docs.length}`]);
  // Contexts arrive while a run goes on: the columns that retrieve by them search again.
  if (columns.some((c) => c.strategy === 'contextual') || status.structure?.contextual) parts.add(`contexts:${status.contexts?.version ?? 0}`);
  for (const c of columns) {
    // The unit kind it really retrieves: a strategy's parameters may choose it (the Contextual chunks column's unit).
    const s = strategyOf(c.strategy);
    const kind = (params && s.retrieves?.(params as never).kind) ?? s.unit;
    const { done, total } = status.embedding.coverage[kind] ?? { done: 0, total: 0 };
    parts.add(c.retriever === 'bm25' && !c.rerank ? `${kind}:${total}` : `${kind}:${done}/${total}`);
  }
  return [...parts].sort().join(' ');
}
