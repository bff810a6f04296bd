/**
 * Bundle tables are joined by their key columns, never by row position: another tool may
 * have re-sorted a table's rows (a consistent bundle whose rows were shuffled imported with
 * exit 0 and answered with the wrong sentences). Each table is put in key order here, and a
 * key that repeats, skips a number or points outside its range is one BundleError.
 */
import { BundleError, type Table } from './format';
import type { ColumnTable } from './read-columns';

/**
 * A key column, or a string column ranked by a list (the order the export writes kinds in,
 * so a table as exported is already in order and never copied; other values after it).
 */
export type KeySpec = string | { name: string; order: readonly string[] };

const keyName = (k: KeySpec) => (typeof k === 'string' ? k : k.name);

/** A key's value of row i: the column's value, or a kind's rank. */
function keyOf(spec: KeySpec, column: ArrayLike<unknown>): (i: number) => number | string {
  if (typeof spec === 'string') return (i) => column[i] as number | string;
  const rank = new Map(spec.order.map((v, i) => [v, i]));
  return (i) => {
    const v = String(column[i]);
    let r = rank.get(v);
    if (r === undefined) rank.set(v, (r = rank.size));
    return r;
  };
}

/** Row order by the keys (numbers compare as numbers, strings as strings), or null when the rows are in order already. */
function orderBy(rows: number, keys: ((i: number) => number | string)[]): Int32Array | null {
  const cmp = (a: number, b: number) => {
    for (const k of keys) {
      const x = k(a);
      const y = k(b);
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  let sorted = true;
  for (let i = 1; i < rows && sorted; i++) if (cmp(i - 1, i) > 0) sorted = false;
  if (sorted) return null;
  const order = Int32Array.from({ length: rows }, (_, i) => i);
  order.sort(cmp);
  return order;
}

/** Refuses two rows with the same key (rows are in key order); the message shows the key's values as the table holds them. */
function checkUnique(path: string, rows: number, keys: ((i: number) => number | string)[], names: string[], columns: ArrayLike<unknown>[]): void {
  for (let i = 1; i < rows; i++) {
    if (keys.every((k) => k(i - 1) === k(i))) throw new BundleError(`${path} is corrupt: two rows have the same ${names.map((n, j) => `${n} ${JSON.stringify(columns[j]![i])}`).join(', ')}`);
  }
}

/** Refuses a key column that is not exactly first, first+1, … (rows in key order, within each group). */
export function checkDense(path: string, what: string, ids: ArrayLike<number>, from = 0, to = ids.length): void {
  for (let i = from; i < to; i++) {
    const want = i - from;
    if (ids[i] !== want) {
      const v = ids[i]!;
      throw new BundleError(`${path} is corrupt: ${what} ${want} ${Number.isInteger(v) && v > want ? 'is missing' : 'appears twice or out of range'} (found ${v})`);
    }
  }
}

function permute<T>(values: ArrayLike<T>, order: Int32Array): T[] {
  return Array.from(order, (i) => values[i]!);
}

/** A whole table (readParquet) in key order; duplicate keys refused. */
export function tableInKeyOrder(t: Table, path: string, specs: KeySpec[]): Table {
  const order = orderBy(t.rows, specs.map((k) => keyOf(k, t.columns[keyName(k)]!)));
  const out = order ? { ...t, columns: Object.fromEntries(Object.entries(t.columns).map(([n, c]) => [n, permute(c, order)])) } : t;
  const cols = specs.map((k) => out.columns[keyName(k)]!);
  checkUnique(path, t.rows, specs.map((k, j) => keyOf(k, cols[j]!)), specs.map(keyName), cols);
  return out;
}

/** Columns read for an import (read-columns.ts) in key order; duplicate keys refused. Vectors move with their rows. */
export function columnsInKeyOrder(t: ColumnTable, path: string, specs: KeySpec[]): ColumnTable {
  const column = (src: ColumnTable, spec: KeySpec): ArrayLike<unknown> => {
    const c = src.ints[keyName(spec)] ?? src.values[keyName(spec)];
    if (!c) throw new Error(`${keyName(spec)} was not read`);
    return c;
  };
  const get = (src: ColumnTable, spec: KeySpec) => keyOf(spec, column(src, spec));
  const order = orderBy(t.rows, specs.map((k) => get(t, k)));
  let out = t;
  if (order) {
    out = {
      rows: t.rows,
      ints: Object.fromEntries(Object.entries(t.ints).map(([n, c]) => [n, Int32Array.from(order, (i) => c[i]!)])),
      values: Object.fromEntries(Object.entries(t.values).map(([n, c]) => [n, permute(c, order)])),
      vectors: null,
    };
    if (t.vectors) {
      const { data, dims } = t.vectors;
      const moved = new Float32Array(data.length);
      order.forEach((from, to) => moved.set(data.subarray(from * dims, (from + 1) * dims), to * dims));
      // A bad row's index follows it (the first bad one in the new order).
      const badRow = t.vectors.badRow < 0 ? -1 : order.indexOf(t.vectors.badRow);
      out.vectors = { ...t.vectors, data: moved, badRow };
    }
  }
  checkUnique(path, t.rows, specs.map((k) => get(out, k)), specs.map(keyName), specs.map((k) => column(out, k)));
  return out;
}

/** The first non-finite value of vectors (rows × dims), as [row, value], or null. */
export function firstNonFinite(data: Float32Array, dims: number): [number, number] | null {
  for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]!)) return [Math.floor(i / Math.max(1, dims)), data[i]!];
  return null;
}
