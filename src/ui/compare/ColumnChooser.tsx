import { useEffect, useRef, useState } from 'react';
import { setColumns } from '../../state/controller';
import { columnsFor, COLUMN_IDS } from '../../state/columns';
import { useView } from '../../state/stores';
import { shownColumnIds } from '../../state/url-state';
import type { ColumnId } from '../../worker/protocol';

/**
 * Which columns to show and in what order (kept in the URL): a checkbox per column and
 * Up/Down buttons for the shown ones. Only the shown columns are searched.
 */
export function ColumnChooser() {
  const base = useView((s) => s.view.retrieval.retriever);
  const chosen = useView((s) => s.view.columns);
  const shown = shownColumnIds({ columns: chosen });
  const labels = new Map(columnsFor(base).map((c) => [c.id, c.label]));
  const hidden = COLUMN_IDS.filter((id) => !shown.includes(id));
  const [said, say] = useState('');
  // A moved row's button keeps the focus (or its sibling, at either end of the list).
  const [focus, setFocus] = useState<{ id: ColumnId; dir: 'up' | 'down' } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (!focus || !list.current) return;
    const row = list.current.querySelector(`[data-column="${focus.id}"]`);
    const want = row?.querySelector<HTMLButtonElement>(`button[data-dir="${focus.dir}"]:not(:disabled)`) ?? row?.querySelector<HTMLButtonElement>('button:not(:disabled)');
    want?.focus();
    setFocus(null);
  }, [focus]);

  const label = (id: ColumnId) => labels.get(id) ?? id;
  const move = (id: ColumnId, by: -1 | 1) => {
    const order = [...shown];
    const i = order.indexOf(id);
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j]!, order[i]!];
    setColumns(order);
    setFocus({ id, dir: by < 0 ? 'up' : 'down' });
    say(`${label(id)} moved to position ${j + 1} of ${order.length}.`);
  };
  const toggle = (id: ColumnId, on: boolean) => {
    setColumns(on ? [...shown, id] : shown.filter((x) => x !== id));
    say(on ? `${label(id)} shown, last.` : `${label(id)} hidden.`);
  };

  return (
    <details className="column-chooser">
      <summary>
        Columns: {shown.length} of {COLUMN_IDS.length} shown
      </summary>
      <p className="small">Only the columns shown are searched. The order and the choice are kept in the page’s address.</p>
      <ol ref={list} className="column-choices" aria-label="Columns, in the order shown">
        {[...shown, ...hidden].map((id, i) => {
          const on = shown.includes(id);
          return (
            <li key={id} data-column={id} className={on ? '' : 'off'}>
              <label>
                <input type="checkbox" checked={on} disabled={on && shown.length === 1} onChange={(e) => toggle(id, e.target.checked)} /> {label(id)}
              </label>
              {on && (
                <span className="column-moves">
                  <button type="button" data-dir="up" aria-label={`Move ${label(id)} up`} disabled={i === 0} onClick={() => move(id, -1)}>
                    Up
                  </button>
                  <button type="button" data-dir="down" aria-label={`Move ${label(id)} down`} disabled={i === shown.length - 1} onClick={() => move(id, 1)}>
                    Down
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        disabled={chosen === null}
        onClick={() => {
          setColumns(null);
          say('All columns shown, in the default order.');
        }}
      >
        Show all columns
      </button>
      <p className="cmp-vh" aria-live="polite">
        {said}
      </p>
    </details>
  );
}
