import type { ColumnSpec } from '../../worker/protocol';

/** "Sentence windows · vector" → "Sentence windows": the strategy without its retriever, for tight places. */
export function shortLabel(column: Pick<ColumnSpec, 'label'>): string {
  return column.label.split(' · ')[0]!;
}
