import { useMemo, useState } from 'react';
import type { ColumnResult } from '../../worker/protocol';
import { columnColour, useScheme } from '../palette';
import { overlapMatrix, sentenceIds, type RangeBlock } from './overlap';
import { shortLabel } from './labels';
import { overlapSummary, overlapSummaryLine } from './overlap-summary';

/** Whether the table is open is remembered in this browser (closed by default: it would push the results below the fold). */
const OPEN_KEY = 'rag-lab:overlap-open';

function storedOpen(): boolean {
  try {
    return localStorage.getItem(OPEN_KEY) === '1';
  } catch {
    return false;
  }
}

function storeOpen(open: boolean): void {
  try {
    localStorage.setItem(OPEN_KEY, open ? '1' : '0');
  } catch {
    // storage refused: the choice lasts for this page only
  }
}

/** Each answer's sentences, listed once per column's blocks (a column chosen again, or re-rendered, is not listed again). */
const listed = new WeakMap<readonly RangeBlock[], readonly number[]>();
function idsOf(blocks: readonly RangeBlock[]): readonly number[] {
  let ids = listed.get(blocks);
  if (!ids) listed.set(blocks, (ids = sentenceIds(blocks)));
  return ids;
}

interface Props {
  /** The shown columns, in their order. */
  columns: ColumnResult[];
}

/**
 * For the current question, how much each pair of shown strategies hands over in common:
 * Jaccard over the sentences of their blocks, as a table (a screen reader reads it cell by
 * cell with its headers); the cell's tint repeats the number for the eye.
 */
export function OverlapStrip({ columns }: Props) {
  const m = useMemo(() => overlapMatrix(columns.map((c) => ({ id: c.column.id, blocks: c.result.blocks })), idsOf), [columns]);
  const [open, setOpen] = useState(storedOpen);
  if (columns.length < 2) return null;
  const line = overlapSummaryLine(overlapSummary(m), (i) => shortLabel(columns[i]!.column));
  return (
    <details
      className="overlap"
      open={open}
      onToggle={(e) => {
        const now = e.currentTarget.open;
        setOpen(now);
        storeOpen(now);
      }}
    >
      <summary>
        <span className="overlap-title">Overlap between strategies</span> <span className="small">{line}</span>
      </summary>
      {open && (
        <div className="overlap-strip" role="region" aria-labelledby="overlap-caption" tabIndex={0}>
          <table>
            <caption id="overlap-caption">
              Overlap between strategies: sentences both hand over ÷ sentences either hands over (Jaccard, 0 to 1)
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  Strategy <span className="small">(sentences)</span>
                </th>
                {columns.map((c) => (
                  <th key={c.column.id} scope="col" title={c.column.label}>
                    <Swatch id={c.column.id} />
                    {shortLabel(c.column)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {columns.map((row, i) => (
                <tr key={row.column.id}>
                  <th scope="row" title={row.column.label}>
                    <Swatch id={row.column.id} />
                    {shortLabel(row.column)} <span className="small">({m.sentences[i]})</span>
                  </th>
                  {columns.map((col, j) => {
                    const cell = m.cells[i]![j]!;
                    if (i === j) {
                      return (
                        <td key={col.column.id} className="overlap-self">
                          <span aria-hidden="true">·</span>
                          <span className="cmp-vh">itself</span>
                        </td>
                      );
                    }
                    const union = cell.shared + cell.onlyA + cell.onlyB;
                    return (
                      <td
                        key={col.column.id}
                        data-jaccard={cell.jaccard ?? ''}
                        // Up to 30 % of the accent: the number stays readable in both themes.
                        style={{ backgroundColor: `color-mix(in srgb, var(--accent) ${Math.round((cell.jaccard ?? 0) * 30)}%, var(--panel))` }}
                        title={cell.jaccard === null ? 'neither hands over a sentence' : `${cell.shared} of ${union} sentences shared`}
                      >
                        {cell.jaccard === null ? '–' : cell.jaccard.toFixed(2)}
                        <span className="cmp-vh">{cell.jaccard === null ? ' (nothing handed over)' : ` (${cell.shared} of ${union} sentences shared)`}</span>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

/** The column's colour, as on the map and its stripe (decoration: the label says which column it is). */
export function Swatch({ id }: { id: ColumnResult['column']['id'] }) {
  const scheme = useScheme();
  return <span className="cmp-swatch" aria-hidden="true" style={{ backgroundColor: columnColour(id, scheme) }} />;
}
