/**
 * A BM25 index kept across reloads as its postings (LexicalIndex.fromPostings rebuilds it
 * without analysing any text): a term list and three typed arrays per unit kind. Analysing
 * 100k sentences, their leaves and naive chunks again takes tens of seconds; rebuilding from
 * postings, about one. Stored when an import brings its postings; any later change of the
 * corpus drops them (their unit ids would no longer hold).
 */
import type { RetrievalEngine } from '../core/engine';
import { LexicalIndex, lexicalKey } from '../core/index/lexical-index';
import type { UnitKind } from '../core/retrieve/params';
import { headerKey } from '../core/structure/headers';
import { splitKey } from './saved-split';

export interface SavedLexical {
  /** lexicalStoreKey of the engine and kind it was taken from. */
  key: string;
  kind: UnitKind;
  units: number;
  terms: string[];
  /** Term t's postings are rows [offsets[t], offsets[t + 1]), units ascending. */
  offsets: Int32Array;
  unit: Int32Array;
  tf: Uint32Array;
}

/**
 * Raised when the analyzer makes other terms from the same text, so stored postings are built
 * again from text (seconds) instead of missing the terms a question is analysed into now. Not in
 * the split's key: that would also drop every stored vector. 2: BM25 terms keep the marks that
 * spell Hindi, Thai and Japanese words; Turkish and Azeri lower-case in their locale; Greek,
 * Arabic, Hindi and ten more languages are stemmed; Greek final ς folds to σ; the Arabic tatweel
 * is dropped. 3: Korean particles stripped; Romanian ș ț stemmed as ş ţ; Turkish and Azeri
 * words cut at the apostrophe; stop words for 30 more languages (Japanese, Korean, Thai,
 * Vietnamese, Chinese, Polish, Czech, Hebrew, Persian, …), Vietnamese ones matched unfolded.
 */
const ANALYZER_REVISION = 3;

/** What a kind's BM25 index depends on: the units (split, chunk tree, headers), the analyzer (and its revision) and variant, and their number. */
export function lexicalStoreKey(engine: RetrievalEngine, kind: UnitKind): string {
  const s = engine.structure;
  return JSON.stringify([splitKey(engine), s.chunkLevels, s.sectionLevel, headerKey(s.headers), lexicalKey(s.lexical), ANALYZER_REVISION, kind, engine.unitCount(kind)]);
}

/**
 * The engine's BM25 index of `kind` as postings (the index must be built: pass only kinds
 * that are). Null when the postings do not give back its lengths (a unit with a term that
 * is in no postings, as an empty one under BM25+): such an index is built from text instead.
 */
export function packLexical(engine: RetrievalEngine, kind: UnitKind): SavedLexical | null {
  const idx = engine.lexicalIndex(kind);
  const postings = idx.postings();
  const lengths = idx.lengths();
  let n = 0;
  for (const p of postings.values()) n += p.units.length;
  const terms: string[] = [];
  const offsets = new Int32Array(postings.size + 1);
  const unit = new Int32Array(n);
  const tf = new Uint32Array(n);
  const sum = new Float64Array(idx.size);
  let at = 0;
  for (const [term, p] of postings) {
    offsets[terms.length] = at;
    terms.push(term);
    for (let i = 0; i < p.units.length; i++, at++) {
      unit[at] = p.units[i]!;
      tf[at] = p.tf[i]!;
      sum[p.units[i]!]! += p.tf[i]!;
    }
  }
  offsets[terms.length] = at;
  for (let u = 0; u < idx.size; u++) if (sum[u] !== lengths[u]) return null;
  return { key: lexicalStoreKey(engine, kind), kind, units: idx.size, terms, offsets, unit, tf };
}

/**
 * An index as stored: its postings' unit and tf columns as Blobs (Chromium writes a Blob as it
 * is, where a typed array of megabytes is serialised, wrapped and copied again), and its terms
 * as a Blob of their JSON (tens of thousands of strings, each serialised on its own otherwise);
 * or, as stored before, typed arrays and a list; both are read.
 */
export type StoredLexical = Omit<SavedLexical, 'terms' | 'unit' | 'tf'> & { terms: string[] | Blob; unit: Int32Array | Blob; tf: Uint32Array | Blob };

/** The index to store: its terms and two long columns as Blobs. */
export function storedLexical(l: SavedLexical): StoredLexical {
  return { ...l, terms: new Blob([JSON.stringify(l.terms)]), unit: new Blob([l.unit as Int32Array<ArrayBuffer>]), tf: new Blob([l.tf as Uint32Array<ArrayBuffer>]) };
}

async function readTerms(terms: string[] | Blob): Promise<string[] | null> {
  if (!(terms instanceof Blob)) return terms;
  const list: unknown = JSON.parse(await terms.text());
  return Array.isArray(list) && list.every((t) => typeof t === 'string') ? list : null;
}

/** A stored index with its columns in memory; null when a Blob cannot be read or the columns do not match its offsets (it is built from the text then). */
export async function readStoredLexical(s: StoredLexical): Promise<SavedLexical | null> {
  try {
    const [terms, unit, tf] = await Promise.all([readTerms(s.terms), s.unit instanceof Blob ? s.unit.arrayBuffer().then((b) => new Int32Array(b)) : s.unit, s.tf instanceof Blob ? s.tf.arrayBuffer().then((b) => new Uint32Array(b)) : s.tf]);
    if (!terms) return null;
    const n = s.offsets[terms.length];
    if (s.offsets.length !== terms.length + 1 || unit.length !== n || tf.length !== n) return null;
    return { ...s, terms, unit, tf };
  } catch {
    return null;
  }
}

/** Puts the stored indexes that fit the engine into it (by lexicalStoreKey); returns the kinds taken. */
export function adoptStoredLexical(engine: RetrievalEngine, saved: readonly SavedLexical[]): UnitKind[] {
  const taken: UnitKind[] = [];
  for (const s of saved) {
    if (s.key !== lexicalStoreKey(engine, s.kind) || s.units !== engine.unitCount(s.kind)) continue;
    const term = new Array<string>(s.unit.length);
    for (let t = 0; t < s.terms.length; t++) term.fill(s.terms[t]!, s.offsets[t]!, s.offsets[t + 1]!);
    try {
      if (engine.adoptLexicalIndex(s.kind, LexicalIndex.fromPostings(engine.structure.lexical, s.units, { term, unit: s.unit, tf: s.tf }))) taken.push(s.kind);
    } catch {
      // A damaged record: the index is built from the text on first use, as without it.
    }
  }
  return taken;
}
