/**
 * A saved corpus's BM25 indexes as postings: a query over the corpus adopts them instead of
 * analysing every unit's text again — segmenting words, folding, stemming, for each unit kind —
 * which was most of its start. Taken only when made the same way (the worker's lexicalStoreKey:
 * split, chunk tree, headers, analyzer and its revision, BM25 variant, unit count) from the same
 * documents and contexts (a digest of them, so a corpus whose text was edited is analysed
 * again); a damaged kind is built again from the text, with a note.
 *
 * Every kind indexes the same words, so the terms are stored once; each kind's postings are one
 * stream of variable-length integers (per term: its row count, then per row the gap from the
 * previous unit and the frequency), about 1.5 bytes a posting where typed columns take 8: the
 * file is read and parsed on every query.
 */
import { createHash } from 'node:crypto';
import type { RetrievalEngine } from '../core/engine';
import { LexicalIndex, TermDictionary } from '../core/index/lexical-index';
import type { UnitKind } from '../core/retrieve/params';
import { lexicalStoreKey } from '../worker/saved-lexical';

/**
 * The unit kinds whose postings are saved: those a query builds from the corpus alone. Semantic
 * chunks are left out: the embedder cuts them, and a query with another model cuts others that
 * may be as many.
 */
export const POSTINGS_KINDS: readonly UnitKind[] = ['sentence', 'leaf', 'chunk', 'packed'];

/** Raised when the encoding below changes: postings saved another way are built again. */
const POSTINGS_FORMAT = 1;

export interface SavedPostings {
  format: number;
  /** postingsSource of the documents and contexts whose units these are. */
  source: string;
  /** Every kind's terms: a kind's stream gives each of them a row count, in this order. */
  terms: string[];
  kinds: {
    kind: UnitKind;
    /** lexicalStoreKey of the engine and kind they were taken from. */
    key: string;
    units: number;
    /** Rows in all (checked when read). */
    rows: number;
    /** Base64 of the varint stream: per term, its row count, then per row (gap − 1) · 2 + (tf > 1), and tf − 2 when tf > 1. */
    data: string;
  }[];
}

/** A digest of what the units' text is made of: the saved documents and contexts, as written to the file. */
export function postingsSource(docs: unknown, contexts: unknown): string {
  return createHash('sha256').update(JSON.stringify(docs)).update('\0').update(JSON.stringify(contexts ?? null)).digest('base64');
}

class VarintWriter {
  private bytes = new Uint8Array(1 << 16);
  private n = 0;

  put(v: number): void {
    if (this.n + 5 > this.bytes.length) {
      const more = new Uint8Array(this.bytes.length * 2);
      more.set(this.bytes);
      this.bytes = more;
    }
    while (v >= 0x80) {
      this.bytes[this.n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.n++] = v;
  }

  base64(): string {
    return Buffer.from(this.bytes.buffer, 0, this.n).toString('base64');
  }
}

/**
 * The engine's BM25 postings of each kind it has units of (building the indexes that are not
 * built yet), or null when it has none. A kind whose postings do not give back its token
 * lengths (a unit with a term in no postings, as an empty one under BM25+) is left out: built
 * from the text when a query needs it.
 */
export function savedPostings(engine: RetrievalEngine, source: string): SavedPostings | null {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const kinds: { kind: UnitKind; key: string; units: number; postings: ReturnType<LexicalIndex['postings']> }[] = [];
  for (const kind of POSTINGS_KINDS) {
    if (!engine.unitCount(kind)) continue;
    const idx = engine.lexicalIndex(kind);
    const postings = idx.postings();
    const sum = new Float64Array(idx.size);
    for (const p of postings.values()) for (let i = 0; i < p.units.length; i++) sum[p.units[i]!]! += p.tf[i]!;
    const lengths = idx.lengths();
    if (sum.some((s, u) => s !== lengths[u])) continue;
    for (const term of postings.keys()) if (!ids.has(term)) ids.set(term, terms.push(term) - 1);
    kinds.push({ kind, key: lexicalStoreKey(engine, kind), units: idx.size, postings });
  }
  if (!kinds.length) return null;
  return {
    format: POSTINGS_FORMAT,
    source,
    terms,
    kinds: kinds.map(({ kind, key, units, postings }) => {
      const out = new VarintWriter();
      let rows = 0;
      for (const term of terms) {
        const p = postings.get(term);
        out.put(p ? p.units.length : 0);
        if (!p) continue;
        rows += p.units.length;
        let prev = -1;
        for (let i = 0; i < p.units.length; i++) {
          const tf = p.tf[i]!;
          out.put((p.units[i]! - prev - 1) * 2 + (tf > 1 ? 1 : 0));
          if (tf > 1) out.put(tf - 2);
          prev = p.units[i]!;
        }
      }
      return { kind, key, units, rows, data: out.base64() };
    }),
  };
}

/** A kind's stream as term runs and columns; null when it is not one (cut short, too long, a unit out of range). */
function readStream(data: unknown, terms: number, units: number, rows: unknown): { offsets: Int32Array; unit: Int32Array; tf: Uint32Array } | null {
  if (typeof data !== 'string' || !Number.isInteger(rows) || (rows as number) < 0) return null;
  const bytes = Buffer.from(data, 'base64');
  const end = bytes.length;
  const offsets = new Int32Array(terms + 1);
  const unit = new Int32Array(rows as number);
  const tf = new Uint32Array(rows as number);
  let at = 0;
  let row = 0;
  // Varints read inline (a closure a value costs a third of the read); a value may take 5 bytes, no more.
  let v = 0;
  let t = 0;
  let left = -1; // rows left of term t; -1: its count comes next
  let prev = -1;
  let wantTf = false;
  while (t < terms) {
    v = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= end || shift > 28) return null;
      const b = bytes[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
    }
    if (wantTf) {
      tf[row++] = v + 2;
      wantTf = false;
    } else if (left < 0) {
      if (row + v > unit.length) return null;
      left = v;
      prev = -1;
    } else {
      const u = prev + 1 + Math.floor(v / 2);
      if (u >= units) return null;
      unit[row] = prev = u;
      left--;
      if (v % 2) wantTf = true;
      else tf[row++] = 1;
    }
    if (left === 0 && !wantTf) {
      offsets[++t] = row;
      left = -1;
    }
  }
  return at === end && row === unit.length ? { offsets, unit, tf } : null;
}

/**
 * Puts the saved postings that fit the engine into it (`source`: the corpus's postingsSource,
 * asked only when some kind's postings fit). Returns the kinds taken and one note per kind whose
 * postings were made for this corpus but are damaged or were made from other text (built again
 * from the text). Postings made another way (another analyzer or BM25 variant, other units,
 * another format) are passed over without a note: the query asked for something else.
 */
export function adoptSavedPostings(engine: RetrievalEngine, saved: unknown, source: () => string): { taken: UnitKind[]; notes: string[] } {
  const taken: UnitKind[] = [];
  const notes: string[] = [];
  const s = saved as Partial<SavedPostings> | undefined;
  if (!s || typeof s !== 'object' || s.format !== POSTINGS_FORMAT || !Array.isArray(s.kinds)) return { taken, notes };
  const fitting = s.kinds.filter((k) => k && (POSTINGS_KINDS as readonly unknown[]).includes(k.kind) && k.key === lexicalStoreKey(engine, k.kind) && k.units === engine.unitCount(k.kind));
  if (!fitting.length) return { taken, notes };
  const damaged = (kind: UnitKind) => notes.push(`the saved BM25 postings of the ${kind} units are damaged: built again from the text`);
  if (s.source !== source()) {
    for (const k of fitting) notes.push(`the saved BM25 postings of the ${k.kind} units were made from other text than the corpus's documents: built again from the text`);
    return { taken, notes };
  }
  // One dictionary for every kind taken, as the engine's own indexes share one.
  const terms = new TermDictionary();
  for (const t of Array.isArray(s.terms) ? s.terms : [null]) {
    if (typeof t !== 'string' || terms.ids.has(t)) {
      for (const k of fitting) damaged(k.kind);
      return { taken, notes };
    }
    terms.ids.set(t, terms.list.length);
    terms.list.push(t);
  }
  for (const k of fitting) {
    if (taken.includes(k.kind)) continue;
    const stream = readStream(k.data, terms.list.length, k.units, k.rows);
    try {
      if (stream && engine.adoptLexicalIndex(k.kind, LexicalIndex.fromTermRuns(engine.structure.lexical, k.units, terms, stream.offsets, stream.unit, stream.tf))) {
        taken.push(k.kind);
        continue;
      }
    } catch {
      // Reported below: built from the text on first use, as without saved postings.
    }
    damaged(k.kind);
  }
  return { taken, notes };
}
