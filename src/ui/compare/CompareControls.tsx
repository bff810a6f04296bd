import { useId, useState } from 'react';
import { setCompare } from '../../state/controller';
import { columnsFor } from '../../state/columns';
import { useView } from '../../state/stores';
import { shownColumnIds } from '../../state/url-state';
import type { ColumnId } from '../../worker/protocol';

/** Compare two: a switch and the two shown columns to put side by side (kept in the URL). */
export function CompareControls() {
  const base = useView((s) => s.view.retrieval.retriever);
  const chosen = useView((s) => s.view.columns);
  const compare = useView((s) => s.view.compare);
  const shown = shownColumnIds({ columns: chosen });
  const specs = columnsFor(base).filter((c) => shown.includes(c.id));
  // The pair the selects show while compare mode is off: the last one picked, else the first two shown.
  const [picked, setPicked] = useState<[ColumnId, ColumnId] | null>(null);
  const id = useId();
  const valid = (p: [ColumnId, ColumnId] | null) => p !== null && p[0] !== p[1] && shown.includes(p[0]) && shown.includes(p[1]);
  const pair: [ColumnId, ColumnId] | null = compare ?? (valid(picked) ? picked : shown.length >= 2 ? [shown[0]!, shown[1]!] : null);
  if (!pair) return null;

  const choose = (side: 0 | 1, id: ColumnId) => {
    const next: [ColumnId, ColumnId] = side === 0 ? [id, pair[1]] : [pair[0], id];
    // Picking the other side's column swaps the two.
    if (next[0] === next[1]) next[1 - side] = pair[side];
    setPicked(next);
    if (compare) setCompare(next);
  };
  const select = (side: 0 | 1, label: string) => (
    <span>
      <label htmlFor={`${id}-${side}`}>{label}</label>{' '}
      <select id={`${id}-${side}`} value={pair[side]} onChange={(e) => choose(side, e.target.value as ColumnId)}>
        {specs.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
    </span>
  );
  return (
    <fieldset className="compare-controls">
      <legend className="cmp-vh">Compare two columns</legend>
      <label>
        <input type="checkbox" checked={compare !== null} onChange={(e) => setCompare(e.target.checked ? pair : null)} /> Compare two
      </label>
      {select(0, 'First column')}
      {select(1, 'Second column')}
    </fieldset>
  );
}
