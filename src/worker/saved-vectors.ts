/**
 * Vectors kept per document: each document's vectors of each set (unit kind × headers ×
 * model) are one stored record, written as soon as the document's units are embedded and
 * deleted only with the document. A change to the corpus therefore never throws away the
 * other documents' vectors, and a reload at any moment restores every vector made before it.
 * Semantic chunks (the sentence runs the model found) are kept per document the same way.
 *
 * The pure parts (what to write, how records join into a set) are separate from the engine
 * adapters at the end, so they are tested with exact values.
 */
import type { RetrievalEngine } from '../core/engine';
import type { VectorSet } from '../core/index/vector-store';
import { UNIT_KINDS, type StructureParams, type UnitKind } from '../core/retrieve/params';
import { splitKey } from './saved-split';

/** One document's vectors of one set. `data` may hold fewer than `units` rows (a document cut short by a stop). */
export interface DocVectors {
  doc: string;
  /** The set's key (kind|headers|model). */
  key: string;
  dim: number;
  /** The document's units of this kind when it was stored: a record for other units is not used. */
  units: number;
  /** What those units depend on (unitsKey): a record made for other units is not used. */
  tree: string;
  data: Float32Array;
}

/** A document's semantic chunks as sentence runs from its first sentence, [start, end) pairs. */
export interface DocSemantic {
  doc: string;
  /** What the chunks depend on (semanticKey). */
  tree: string;
  runs: Int32Array;
}

/** One document's part of a set to write: units [from, to) of the set, `units` of the document in all. */
export interface VectorWrite {
  doc: string;
  key: string;
  from: number;
  to: number;
  units: number;
}

const kindOf = (key: string) => key.split('|')[0] as UnitKind;

/** The model of a set key "kind|headers|model", with or without a variant's "|ctx" or "|late" after it. */
export function modelOfKey(key: string): string {
  return key.split('|').slice(2).join('|').replace(/(\|ctx)?(\|late)?$/, '');
}

/** Each document's unit ids [start, end) from its unit count (units are in document order). */
export function documentRanges(counts: readonly number[]): [number, number][] {
  let at = 0;
  return counts.map((n) => [at, (at += n)] as [number, number]);
}

/** The key under which `what` of a record was written, for the set of what is stored. */
export const storedKey = (doc: string, key: string, tree: string) => `${doc}\u0000${key}\u0000${tree}`;

/**
 * Which documents of a set of `size` vectors to write: those with more vectors than stored
 * (`stored`: rows written per storedKey). Only whole documents, unless `partial` (the job
 * ended or stopped): a document still embedding would otherwise be written again every slice.
 */
export function vectorWrites(docIds: readonly string[], ranges: readonly [number, number][], key: string, tree: string, size: number, stored: ReadonlyMap<string, number>, partial: boolean): VectorWrite[] {
  const out: VectorWrite[] = [];
  docIds.forEach((doc, d) => {
    const [a, b] = ranges[d]!;
    const have = Math.max(0, Math.min(b, size) - a);
    if (have === 0 && b > a) return;
    if (have < b - a && !partial) return;
    if (have <= (stored.get(storedKey(doc, key, tree)) ?? -1)) return;
    out.push({ doc, key, from: a, to: a + have, units: b - a });
  });
  return out;
}

/**
 * A set's vectors joined from its documents' records, in corpus order: documents are taken
 * while each has all of its vectors; one with only some ends the set after them (vectors are
 * made in unit order, so a set is always a prefix). Null when the first document has none.
 */
export function joinDocVectors(docIds: readonly string[], ranges: readonly [number, number][], records: ReadonlyMap<string, DocVectors>, key: string, tree: string, dim: number): Float32Array | null {
  const parts: Float32Array[] = [];
  let rows = 0;
  for (const [d, doc] of docIds.entries()) {
    const [a, b] = ranges[d]!;
    const r = records.get(`${doc}\u0000${key}`);
    if (!r || r.tree !== tree || r.units !== b - a || r.dim !== dim || r.data.length % dim !== 0) break;
    const n = Math.min(b - a, r.data.length / dim);
    parts.push(r.data.length === n * dim ? r.data : r.data.subarray(0, n * dim));
    rows += n;
    if (n < b - a) break;
  }
  if (rows === 0) return null;
  const data = new Float32Array(rows * dim);
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  return data;
}

/** The semantic chunks to adopt: each document's stored runs, in order, while they were made the same way. */
export function joinSemantic(docIds: readonly string[], records: ReadonlyMap<string, DocSemantic>, tree: string, from: number): { start: number; end: number }[][] {
  const out: { start: number; end: number }[][] = [];
  for (let d = from; d < docIds.length; d++) {
    const r = records.get(docIds[d]!);
    if (!r || r.tree !== tree) break;
    const runs: { start: number; end: number }[] = [];
    for (let i = 0; i + 1 < r.runs.length; i += 2) runs.push({ start: r.runs[i]!, end: r.runs[i + 1]! });
    out.push(runs);
  }
  return out;
}

/** What a kind's units depend on besides the documents: the split and, except for sentences, the chunk settings. */
export function unitsKey(split: string, structure: StructureParams, kind: UnitKind): string {
  if (kind === 'sentence') return split;
  return JSON.stringify([split, structure.chunkLevels, structure.sectionLevel, structure.naive, structure.packed, structure.semantic]);
}

// ---- engine adapters ---------------------------------------------------------------------

/** Unit id ranges per document of a kind in `engine`. */
function engineRanges(engine: RetrievalEngine, kind: UnitKind): [number, number][] {
  return documentRanges(engine.documentCoverage([kind]).map((c) => c.total));
}

/** What the engine's semantic chunks depend on: the split, the model that found them and the semantic settings. */
export function semanticKey(engine: RetrievalEngine): string {
  return JSON.stringify([splitKey(engine), engine.embedder?.model ?? null, engine.structure.semantic]);
}

/**
 * The records to write for `engine` (see vectorWrites), with their vectors copied out; with
 * `views`, views into the index's rows where it keeps them in one array (FlatIndex), valid until
 * its next add: only for a write that copies them at once (an import's packs are Blobs made from
 * them; a typed array put as it is would be cloned with its whole buffer).
 */
export function engineVectorWrites(engine: RetrievalEngine, stored: ReadonlyMap<string, number>, partial: boolean, views = false): DocVectors[] {
  const docIds = engine.corpus.docs.map((d) => d.id);
  const split = splitKey(engine);
  const out: DocVectors[] = [];
  for (const key of engine.vectors.keys()) {
    const kind = kindOf(key);
    const idx = engine.vectors.get(key);
    if (!idx || !UNIT_KINDS.includes(kind)) continue;
    const tree = unitsKey(split, engine.structure, kind);
    const writes = vectorWrites(docIds, engineRanges(engine, kind), key, tree, idx.size, stored, partial);
    if (!writes.length) continue;
    const rows = views ? rowsOf(idx) : null;
    for (const w of writes) {
      const data = rows ? rows.subarray(w.from * idx.dim, w.to * idx.dim) : engine.vectors.snapshot([key], () => [[w.from, w.to]])[0]!.data;
      out.push({ doc: w.doc, key, dim: idx.dim, units: w.units, tree, data });
    }
  }
  return out;
}

/** An index's rows as one row-major view, when it keeps them so (FlatIndex.rows). */
function rowsOf(idx: object): Float32Array | null {
  const rows = (idx as { rows?: () => unknown }).rows?.();
  return rows instanceof Float32Array ? rows : null;
}

/** Semantic chunks of documents that have them and are not stored yet (`stored`: document ids). */
export function engineSemanticWrites(engine: RetrievalEngine, stored: ReadonlySet<string>): DocSemantic[] {
  const tree = semanticKey(engine);
  return engine.semanticChunks().flatMap((runs, d) => {
    const doc = engine.corpus.docs[d]!.id;
    if (stored.has(storedKey(doc, 'semantic', tree))) return [];
    return [{ doc, tree, runs: Int32Array.from(runs.flatMap((r) => [r.start, r.end])) }];
  });
}

/**
 * Puts stored semantic chunks and vectors into `engine` (which has its model): chunks first,
 * since semantic units exist only once they are found. Returns the number of vectors restored.
 */
export async function restoreDocVectors(engine: RetrievalEngine, vectors: readonly DocVectors[], semantic: readonly DocSemantic[]): Promise<number> {
  const embedder = engine.embedder;
  if (!embedder) return 0;
  const docIds = engine.corpus.docs.map((d) => d.id);
  const runs = joinSemantic(docIds, new Map(semantic.map((s) => [s.doc, s])), semanticKey(engine), engine.semanticCoverage().done);
  if (runs.length) {
    try {
      engine.adoptSemanticChunks([...engine.semanticChunks(), ...runs]);
    } catch {
      // Stored runs that no longer tile their document: they are found again.
    }
  }
  const byKey = new Map<string, Map<string, DocVectors>>();
  for (const r of vectors) {
    // Late-chunked sets end in "|late" after the model.
    if (!r.key.replace(/\|late$/, '').endsWith(`|${embedder.model}`)) continue;
    let m = byKey.get(r.key);
    if (!m) byKey.set(r.key, (m = new Map()));
    m.set(`${r.doc}\u0000${r.key}`, r);
  }
  const split = splitKey(engine);
  const sets: VectorSet[] = [];
  for (const [key, records] of byKey) {
    const kind = kindOf(key);
    if (!UNIT_KINDS.includes(kind)) continue;
    const data = joinDocVectors(docIds, engineRanges(engine, kind), records, key, unitsKey(split, engine.structure, kind), embedder.dim);
    if (data) sets.push({ key, dim: embedder.dim, data });
  }
  if (sets.length) await engine.restoreVectorSets(sets);
  return sets.reduce((n, s) => n + s.data.length / s.dim, 0);
}
