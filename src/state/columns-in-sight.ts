import type { ColumnId } from '../worker/protocol';

/**
 * The strategy columns in sight sideways, as the strip last measured them (ColumnsStrip, after
 * a layout or a scroll, never forcing one): a search asks the worker for these first and paints
 * them while it searches the others. Null while no strip is shown (compare mode, no answer yet).
 */
let inSight: readonly ColumnId[] | null = null;

export function setColumnsInSight(ids: readonly ColumnId[] | null): void {
  inSight = ids;
}

/** The columns of `asked` to search first: those in sight, when some of them are not (else none: one answer). */
export function firstColumns(asked: readonly ColumnId[]): ColumnId[] | undefined {
  if (!inSight) return undefined;
  const shown = new Set(inSight);
  const first = asked.filter((id) => shown.has(id));
  return first.length && first.length < asked.length ? first : undefined;
}
