/**
 * The sentences, units and vectors tables of a bundle put in key order and their keys and
 * references checked (table-order.ts): sentence numbers 0…n-1 once each, documents whose
 * sentence ranges tile the sentences, units naming a document and sentences that exist,
 * each vector kind's units 0…n-1 once each, every vector value finite.
 */
import type { UnitKind } from '../retrieve/params';
import { BundleError, type Table } from './format';
import type { ColumnTable } from './read-columns';
import { BUNDLE_KINDS } from './tables';
import { checkDense, columnsInKeyOrder, firstNonFinite } from './table-order';

const SENTENCES = 'parquet/sentences.parquet';
const UNITS = 'parquet/units.parquet';
const VECTORS = 'parquet/vectors.parquet';
/** The order the export writes unit kinds in (tables.ts): a bundle as written is never copied. */
const UNIT_ROWS = ['leaf', 'parent', 'chunk'] as const;

/** Sentences by their number; the documents (in key order) must cover them exactly, in order. */
export function sentencesInOrder(sentences: ColumnTable, docs: Table): ColumnTable {
  const out = columnsInKeyOrder(sentences, SENTENCES, ['sentence']);
  checkDense(SENTENCES, 'sentence', out.ints.sentence!);
  const start = docs.columns.sent_start as number[];
  const end = docs.columns.sent_end as number[];
  let at = 0;
  for (let d = 0; d < docs.rows; d++) {
    if (start[d] !== at || !(Number.isInteger(end[d]) && end[d]! >= at && end[d]! <= out.rows)) {
      throw new BundleError(`parquet/documents.parquet is corrupt: document ${d} has the sentence range [${start[d]}, ${end[d]}), but the previous document ends at ${at} of ${out.rows} sentences`);
    }
    at = end[d]!;
  }
  if (at !== out.rows) throw new BundleError(`parquet/documents.parquet is corrupt: its documents hold ${at} of the ${out.rows} sentences`);
  return out;
}

/** Units by (kind, id): leaf and chunk ids 0…n-1, each unit's document and sentences in range. */
export function unitsInOrder(units: ColumnTable, docs: Table, sentenceRows: number): ColumnTable {
  const out = columnsInKeyOrder(units, UNITS, [{ name: 'kind', order: UNIT_ROWS }, 'id']);
  const kind = out.values.kind as string[];
  const { id, doc, sent_start: a, sent_end: b } = out.ints as Record<string, Int32Array>;
  for (let i = 0; i < out.rows; i++) {
    if (!(doc![i]! >= 0 && doc![i]! < docs.rows)) throw new BundleError(`${UNITS} is corrupt: ${kind[i]} ${id![i]} names document ${doc![i]}, of ${docs.rows}`);
    if (!(a![i]! >= 0 && a![i]! < b![i]! && b![i]! <= sentenceRows)) throw new BundleError(`${UNITS} is corrupt: ${kind[i]} ${id![i]} has the sentence range [${a![i]}, ${b![i]}) of ${sentenceRows} sentences`);
  }
  for (const k of ['leaf', 'chunk']) {
    const from = kind.indexOf(k);
    if (from < 0) continue;
    let to = from;
    while (to < out.rows && kind[to] === k) to++;
    checkDense(UNITS, k, id!, from, to);
  }
  return out;
}

/** Vectors by (kind, unit): each listed kind's units 0…n-1 once, every value finite. */
export function checkVectorRows(vectors: ColumnTable, kinds: readonly UnitKind[], dims: number): ColumnTable {
  const out = columnsInKeyOrder(vectors, VECTORS, [{ name: 'kind', order: BUNDLE_KINDS }, 'unit']);
  const kind = out.values.kind as string[];
  for (const k of kinds) {
    const from = kind.indexOf(k);
    if (from < 0) continue;
    let to = from;
    while (to < out.rows && kind[to] === k) to++;
    checkDense(VECTORS, `${k} vector of unit`, out.ints.unit!, from, to);
  }
  const v = out.vectors;
  if (v && v.dims === dims) {
    const bad = firstNonFinite(v.data, dims);
    // NaN or Infinity scores nothing: vector search then silently returned no hits.
    if (bad) throw new BundleError(`${VECTORS} is corrupt: the ${kind[bad[0]]} vector of unit ${out.ints.unit![bad[0]]} holds ${bad[1]}, not a finite number`);
  }
  return out;
}
