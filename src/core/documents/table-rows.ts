import { collapseSpaces } from './builder';

/** A value that reads as a number, a percentage, a currency amount or a date: never a column header. */
const NUMERIC = /^[-+(]?[$€£¥]?\s?\d[\d\s.,:/'-]*%?\)?$/;

/** One sheet of a workbook (or a CSV file) as a grid of cell texts, as the sheet readers give it. */
export interface Sheet {
  name: string;
  rows: string[][];
}

export interface TableSentences {
  /** A caption line above the table (a sheet's title row), when there is one. */
  caption: string | null;
  headers: string[] | null;
  /** One sentence per data row: "Header: value; Header: value". */
  rows: string[];
}

/**
 * Turns a grid of cells into one sentence per row that carries its column headers, so a
 * row is retrieved whole and reads on its own ("Estado: Tocantins; Capital: Palmas").
 * Empty rows and columns are dropped. A first row alone in its first cell above a wider
 * table is a caption. The next row is the header row when its cells are all text (no
 * numbers or dates), distinct, and fill at least half the columns; otherwise rows are
 * written as their values joined by "; ".
 */
export function tableSentences(grid: readonly (readonly string[])[]): TableSentences {
  let rows = grid.map((r) => r.map(cleanCell)).filter((r) => r.some((c) => c));
  const width = Math.max(0, ...rows.map((r) => r.length));
  const used = Array.from({ length: width }, (_, j) => rows.some((r) => r[j]));
  rows = rows.map((r) => Array.from({ length: width }, (_, j) => r[j] ?? '').filter((_, j) => used[j]));
  const cols = used.filter(Boolean).length;
  let caption: string | null = null;
  if (rows.length > 2 && cols > 2 && rows[0]!.filter((c) => c).length === 1 && rows[0]![0]) {
    caption = rows[0]![0]!;
    rows = rows.slice(1);
  }
  let headers: string[] | null = null;
  if (rows.length > 1 && isHeaderRow(rows[0]!, cols)) {
    headers = rows[0]!;
    rows = rows.slice(1);
  }
  const sentences = rows.map((r) =>
    r
      .map((v, j) => (v ? (headers?.[j] ? `${headers[j]}: ${v}` : v) : ''))
      .filter((s) => s)
      .join('; '),
  );
  return { caption, headers, rows: sentences };
}

/** Most cells are clean already ("Palmas", "12 km"): collapsing only those that need it is 5x faster on a sheet. */
const NEEDS_COLLAPSE = /[^\S ]|[\u200b\u2060\ufeff]| {2}|^ | $/;
const cleanCell = (c: string | undefined) => (c ? (NEEDS_COLLAPSE.test(c) ? collapseSpaces(c) : c) : '');

function isHeaderRow(row: readonly string[], cols: number): boolean {
  const filled = row.filter((c) => c);
  if (filled.length < Math.ceil(cols / 2)) return false;
  if (filled.some((c) => NUMERIC.test(c) || c.length > 80)) return false;
  return new Set(filled.map((c) => c.toLowerCase())).size === filled.length;
}
