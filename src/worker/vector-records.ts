/**
 * How vectors lie in IndexedDB (persistence.ts opens the database and calls these inside its
 * transactions):
 *
 * - 'docVectors': one document's vectors of one set, keyed [doc, set key, part], written as the
 *   embedding job makes them (saved-vectors.ts) and indexed by the set's model.
 * - 'vectorPacks': an imported bundle's vectors, many documents of one set a record (up to
 *   32 MB), keyed [set key, units key, pack id], indexed by model and by the documents they
 *   hold. A 100k-sentence import is a few dozen records instead of thousands (each record costs
 *   IndexedDB a write of its own: the import's storage took twice as long per document). A
 *   pack's rows are a Blob: Chromium writes a Blob as it is, where a Float32Array of 32 MB is
 *   serialised, wrapped and copied again on its way to disk and back (half the import's storage
 *   time); packs written before that hold a Float32Array, and both are read.
 *
 * A document's record in 'docVectors' wins over its part of a pack. Removing a document (or
 * dropping its vectors) writes the packs that hold it again without it (their other rows are
 * Blob slices: nothing is read), so nothing else is lost; a document embedded again for other
 * units makes packs of the set made for other units useless, and they go.
 */
import type { IDBPTransaction } from 'idb';
import { modelOfKey, type DocVectors } from './saved-vectors';

/**
 * Floats per stored record. Chromium refuses an IndexedDB value over 127 MiB ("The serialized
 * keys and/or value are too large"): 100k sentence vectors of 384 dimensions are 154 MB, so a
 * set (or a document's vectors, or a pack) is stored in parts of 32 MB.
 */
export const PART_FLOATS = 8 << 20;

/** A whole vector set (version 2's 'vectors' store). */
export interface SavedVectors {
  key: string;
  dim: number;
  data: Float32Array;
}

/** A stored record of a vector set: the set's first part (with the number of parts), or a later one. Records of version 1 are whole sets. */
export interface VectorPart extends SavedVectors {
  part?: number;
  parts?: number;
}

/** The vector sets stored as parts, joined again; a set missing a part is left out. */
export function joinVectorParts(records: VectorPart[]): SavedVectors[] {
  const out: SavedVectors[] = [];
  for (const first of records) {
    if (first.part !== undefined) continue;
    const n = first.parts ?? 1;
    if (n === 1) {
      out.push({ key: first.key, dim: first.dim, data: first.data });
      continue;
    }
    const rest = records.filter((r) => r.key === first.key && r.part !== undefined).sort((a, b) => a.part! - b.part!);
    if (rest.length !== n - 1 || rest.some((r, i) => r.part !== i + 1)) continue;
    const data = new Float32Array(first.data.length + rest.reduce((k, r) => k + r.data.length, 0));
    let at = 0;
    for (const r of [first, ...rest]) {
      data.set(r.data, at);
      at += r.data.length;
    }
    out.push({ key: first.key, dim: first.dim, data });
  }
  return out;
}

/** A document's vector record as stored: its first part (with the number of parts), or a later one, and the model of its set (indexed). */
export interface DocVectorPart extends DocVectors {
  part?: number;
  parts?: number;
  model?: string;
}

/** A document's vectors as the records they are stored in, keyed [doc, set key, part]. */
export function docVectorParts(r: DocVectors): [[string, string, number], DocVectorPart][] {
  const parts = Math.max(1, Math.ceil(r.data.length / PART_FLOATS));
  const model = modelOfKey(r.key);
  return Array.from({ length: parts }, (_, i) => {
    const data = parts === 1 ? r.data : r.data.slice(i * PART_FLOATS, Math.min(r.data.length, (i + 1) * PART_FLOATS));
    return [[r.doc, r.key, i], i === 0 ? { ...r, data, parts, model } : { ...r, data, part: i, model }];
  });
}

/** Documents' vector records joined from their parts; a record missing a part is left out. */
export function joinDocVectorParts(records: DocVectorPart[]): DocVectors[] {
  const byRecord = new Map<string, DocVectorPart[]>();
  for (const r of records) {
    const id = `${r.doc}\u0000${r.key}`;
    const list = byRecord.get(id);
    if (list) list.push(r);
    else byRecord.set(id, [r]);
  }
  const out: DocVectors[] = [];
  for (const list of byRecord.values()) {
    const first = list.find((r) => r.part === undefined);
    if (!first) continue;
    const { part: _p, parts = 1, model: _m, ...record } = first;
    if (parts === 1) {
      out.push(record);
      continue;
    }
    const rest = list.filter((r) => r.part !== undefined).sort((a, b) => a.part! - b.part!);
    if (rest.length !== parts - 1 || rest.some((r, i) => r.part !== i + 1)) continue;
    out.push({ ...record, data: joinVectorParts([{ key: '', dim: first.dim, data: first.data, parts }, ...rest.map((r) => ({ key: '', dim: r.dim, data: r.data, part: r.part! }))])[0]!.data });
  }
  return out;
}

/** Many documents' vectors of one set (made for the same units), their rows one after another in `data`. */
export interface VectorPack {
  model: string;
  key: string;
  tree: string;
  dim: number;
  /** In the order of their rows: each document, its units of the kind, and the rows it has here. */
  docs: { doc: string; units: number; rows: number }[];
  /** The documents again, as the multi-entry index 'doc' reads them. */
  docIds: string[];
  data: Float32Array;
}

/** A pack as stored: its rows as a Blob of float32s, or (written before Blobs) a Float32Array. */
export type StoredPack = Omit<VectorPack, 'data'> & { data: Blob | Float32Array };

/**
 * Records grouped into runs of at most PART_FLOATS floats, by set and units key, in the order
 * given (corpus order); a record too big for a pack of its own is left to be stored alone.
 */
function packRuns(records: readonly DocVectors[]): { runs: DocVectors[][]; alone: DocVectors[] } {
  const groups = new Map<string, DocVectors[]>();
  const alone: DocVectors[] = [];
  for (const r of records) {
    if (r.data.length > PART_FLOATS) {
      alone.push(r);
      continue;
    }
    const id = `${r.key}\u0000${r.tree}\u0000${r.dim}`;
    const g = groups.get(id);
    if (g) g.push(r);
    else groups.set(id, [r]);
  }
  const runs: DocVectors[][] = [];
  for (const group of groups.values()) {
    let run: DocVectors[] = [];
    let floats = 0;
    for (const r of group) {
      if (floats + r.data.length > PART_FLOATS && run.length) {
        runs.push(run);
        run = [];
        floats = 0;
      }
      run.push(r);
      floats += r.data.length;
    }
    if (run.length) runs.push(run);
  }
  return { runs, alone };
}

/** A run's pack, but its rows (made by `rows` from the records' data). */
function packOf<D>(run: readonly DocVectors[], data: D): Omit<VectorPack, 'data'> & { data: D } {
  const { key, tree, dim } = run[0]!;
  const docs = run.map((r) => ({ doc: r.doc, units: r.units, rows: r.data.length / dim }));
  return { model: modelOfKey(key), key, tree, dim, docs, docIds: docs.map((d) => d.doc), data };
}

/** Records as packs (see packRuns), each pack's rows one Float32Array. */
export function packRecords(records: readonly DocVectors[]): { packs: VectorPack[]; alone: DocVectors[] } {
  const { runs, alone } = packRuns(records);
  return { packs: runs.map((run) => packOf(run, concatFloats(run.map((r) => r.data)))), alone };
}

/**
 * Records as packs to store: each pack's rows a Blob made straight from the records' data (views
 * are fine: a Blob takes only the bytes a view shows), with no Float32Array of the pack between.
 */
export function storedPacks(records: readonly DocVectors[]): { packs: StoredPack[]; alone: DocVectors[] } {
  const { runs, alone } = packRuns(records);
  return { packs: runs.map((run) => packOf(run, new Blob(run.map((r) => bytesOf(r.data))))), alone };
}

const concatFloats = (parts: readonly Float32Array[]): Float32Array => {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** The bytes a Float32Array shows, as a Blob part (TypeScript's BlobPart wants an ArrayBuffer-backed view). */
const bytesOf = (data: Float32Array): BlobPart => data as Float32Array<ArrayBuffer>;

/** A stored pack with its rows in memory; null when its Blob cannot be read or holds other than its documents' rows (its vectors are made again). */
export async function readPack(p: StoredPack): Promise<VectorPack | null> {
  let data: Float32Array;
  if (p.data instanceof Blob) {
    try {
      data = new Float32Array(await p.data.arrayBuffer());
    } catch {
      return null;
    }
  } else data = p.data;
  if (data.length !== p.docs.reduce((n, d) => n + d.rows, 0) * p.dim) return null;
  return { ...p, data };
}

/**
 * The pack without the documents `gone`: its other rows as slices of its Blob (or of its
 * Float32Array), nothing read or decoded; null when none of its documents stays.
 */
export function packWithout(p: StoredPack, gone: ReadonlySet<string>): StoredPack | null {
  const docs: VectorPack['docs'] = [];
  const parts: BlobPart[] = [];
  let at = 0;
  for (const d of p.docs) {
    const from = at;
    at += d.rows * p.dim;
    if (gone.has(d.doc)) continue;
    docs.push(d);
    parts.push(p.data instanceof Blob ? p.data.slice(from * 4, at * 4) : bytesOf(p.data.subarray(from, at)));
  }
  if (!docs.length) return null;
  return { model: p.model, key: p.key, tree: p.tree, dim: p.dim, docs, docIds: docs.map((d) => d.doc), data: new Blob(parts) };
}

/** A pack's documents as records (their rows are views into the pack's data, not copies). */
export function unpack(p: VectorPack): DocVectors[] {
  let at = 0;
  return p.docs.map((d) => {
    const data = p.data.subarray(at, (at += d.rows * p.dim));
    return { doc: d.doc, key: p.key, dim: p.dim, units: d.units, tree: p.tree, data };
  });
}

/** The records of one model: each document's own record, else its part of a pack. */
export function mergeRecords(own: readonly DocVectors[], packs: readonly VectorPack[]): DocVectors[] {
  const have = new Set(own.map((r) => `${r.doc}\u0000${r.key}`));
  return [...own, ...packs.flatMap(unpack).filter((r) => !have.has(`${r.doc}\u0000${r.key}`))];
}

// ---- in a transaction --------------------------------------------------------------------

type Tx = IDBPTransaction<unknown, string[], 'readwrite'>;

/** A request queued in a transaction: its failure is the transaction's (awaited as tx.done), not an unhandled rejection. */
export const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);

/** Every record of a document in 'docVectors' (array keys sort after strings and numbers). */
const docRange = (doc: string) => IDBKeyRange.bound([doc], [doc, []]);

let packCount = 0;
/** A pack id unique to this page and time, so packs of two imports never share a key. */
const packId = () => `${Date.now().toString(36)}.${(packCount++).toString(36)}`;

/** Creates the stores' indexes (version 4) on a database whose 'docVectors' exists. */
export function createVectorIndexes(tx: IDBPTransaction<unknown, string[], 'versionchange'>, db: { createObjectStore: (name: string) => unknown }): void {
  tx.objectStore('docVectors').createIndex('model', 'model');
  db.createObjectStore('vectorPacks');
  const packs = tx.objectStore('vectorPacks');
  packs.createIndex('model', 'model');
  packs.createIndex('doc', 'docIds', { multiEntry: true });
}

/**
 * Writes records as they are made: each replaces the document's earlier record of the set, and
 * packs of the set made for other units are deleted (the units changed: they are of no more use).
 */
export function putDocVectors(tx: Tx, records: readonly DocVectors[]): void {
  const store = tx.objectStore('docVectors');
  const packs = tx.objectStore('vectorPacks');
  const sets = new Map<string, string>();
  for (const r of records) {
    // An earlier record may have had more parts.
    quiet(store.delete(IDBKeyRange.bound([r.doc, r.key, 0], [r.doc, r.key, Infinity])));
    for (const [key, part] of docVectorParts(r)) quiet(store.put(part, key));
    sets.set(r.key, r.tree);
  }
  for (const [key, tree] of sets) {
    // Packs keyed [key, other tree, id]: before [key, tree] and after [key, tree, any id].
    quiet(packs.delete(IDBKeyRange.bound([key], [key, tree], false, true)));
    quiet(packs.delete(IDBKeyRange.bound([key, tree, []], [key, []], true, true)));
  }
}

/** Writes an import's records as packs (those too big for one alone, as records of their own). */
export function putPackedVectors(tx: Tx, records: readonly DocVectors[]): void {
  const { packs, alone } = storedPacks(records);
  for (const p of packs) quiet(tx.objectStore('vectorPacks').put(p, [p.key, p.tree, packId()]));
  if (alone.length) putDocVectors(tx, alone);
}

/**
 * Deletes the vectors of documents: their own records, and their part of any pack (a pack
 * holding one of them is written again without them, under a new id, then deleted).
 */
export function dropDocVectors(tx: Tx, docIds: Iterable<string>): void {
  const gone = new Set(docIds);
  if (!gone.size) return;
  const own = tx.objectStore('docVectors');
  const packs = tx.objectStore('vectorPacks');
  for (const doc of gone) quiet(own.delete(docRange(doc)));
  quiet(
    (async () => {
      const keys = new Map<string, IDBValidKey>();
      for (const doc of gone) for (const k of await packs.index('doc').getAllKeys(doc)) keys.set(JSON.stringify(k), k);
      for (const k of keys.values()) {
        const p = (await packs.get(k)) as StoredPack | undefined;
        if (!p) continue;
        quiet(packs.delete(k));
        const kept = packWithout(p, gone);
        if (kept) quiet(packs.put(kept, [kept.key, kept.tree, packId()]));
      }
    })(),
  );
}

/** One model's records: each document's own, else its part of a pack. */
export async function readDocVectors(tx: IDBPTransaction<unknown, string[], 'readonly'>, model: string): Promise<DocVectors[]> {
  const [own, stored] = await Promise.all([tx.objectStore('docVectors').index('model').getAll(model), tx.objectStore('vectorPacks').index('model').getAll(model)]);
  // The packs' Blobs are read after the transaction's requests (a Blob outlives its transaction).
  const packs = (await Promise.all((stored as StoredPack[]).map(readPack))).filter((p): p is VectorPack => p !== null);
  return mergeRecords(joinDocVectorParts(own as DocVectorPart[]), packs);
}
