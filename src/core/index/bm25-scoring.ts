/**
 * The lexical index's two searches over its postings — BM25+ in MiniSearch's arithmetic and
 * float steps, Lucene's BM25 — with the scratch they share: pure functions of a PostingsView.
 */
import { BM25_PARAMS, LUCENE_BM25_PARAMS } from './lexical-params';
import { grow, type PostingTable } from './posting-table';
import { TopK } from './top-k';
import type { Allow, Hit } from './vector-index';

/** What a search reads of a LexicalIndex: its compacted postings (CSR by term id) and the units' lengths. */
export interface PostingsView {
  count: number;
  offsets: Int32Array;
  table: PostingTable;
  termIds: ReadonlyMap<string, number>;
  /** Each unit's distinct terms: MiniSearch's field length (BM25+). */
  distinct: Uint32Array;
  avgDistinct: number;
  /** Each unit's tokens (Lucene's length). */
  tokenLengths: Uint32Array;
  totalTokens: number;
}

/** Per-search accumulators shared by every index (a search runs to its end synchronously and resets what it touched): one pair for the largest index, not one per kind. */
let scratch = { score: new Float64Array(0), matched: new Uint16Array(0) };

/** The units a Lucene search touched, shared by every index (a search runs to its end synchronously). */
let touchedScratch = new Int32Array(1024);

/** One query term's BM25+ contribution to a unit (MiniSearch's formula, BM25_PARAMS). */
export function bm25PlusTerm(idf: number, tf: number, length: number, avgLength: number): number {
  const { k: k1, b, d } = BM25_PARAMS;
  return idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength)));
}

/**
 * The k best units of a BM25+ search: summed term scores times the number of distinct query
 * terms matched. Best first; equal scores keep first-seen order, as MiniSearch's stable sort does.
 */
export function bestByMatchedTerms(touched: readonly number[], acc: Float64Array, matched: Uint16Array, k: number, allow?: Allow): Hit[] {
  const top: Hit[] = [];
  for (const doc of touched) {
    if (allow && !allow(doc)) continue;
    const score = acc[doc]! * matched[doc]!;
    if (top.length === k && score <= top[k - 1]!.score) continue;
    let i = top.length < k ? top.length : k - 1;
    while (i > 0 && top[i - 1]!.score < score) i--;
    top.splice(i, 0, { id: doc, score });
    if (top.length > k) top.pop();
  }
  return top;
}

function scratchFor(n: number): { score: Float64Array; matched: Uint16Array } {
  if (scratch.score.length < n) {
    const size = Math.ceil(n * 1.25);
    scratch = { score: new Float64Array(size), matched: new Uint16Array(size) };
  }
  return scratch;
}

/**
 * MiniSearch's BM25+ over the postings: per query term in query order, idf · (δ + tf·(k1+1)
 * / (tf + k1·(1 − b + b·len/avg))) summed in that order, then × the distinct query terms matched.
 */
export function plusSearch(index: PostingsView, terms: string[], k: number, allow?: Allow): Hit[] {
  const n = index.count;
  if (!n) return [];
  const { score: acc, matched } = scratchFor(n);
  const { offsets, distinct } = index;
  const { packed, units, tfs } = index.table;
  const avg = index.avgDistinct;
  const touched: number[] = [];
  try {
    for (let q = 0; q < terms.length; q++) {
      const t = index.termIds.get(terms[q]!);
      // A shared dictionary may know terms this index has no rows for (yet).
      if (t === undefined || t >= offsets.length - 1) continue;
      const from = offsets[t]!;
      const to = offsets[t + 1]!;
      // A repeated query term adds its score again but is one matched term (its units were all touched before).
      const first = terms.indexOf(terms[q]!) === q;
      const idf = Math.log(1 + (n - (to - from) + 0.5) / (to - from + 0.5));
      for (let i = from; i < to; i++) {
        let doc: number;
        let tf: number;
        if (packed) {
          const r = packed[i]!;
          doc = r >>> 8;
          tf = r & 0xff;
        } else {
          doc = units![i]!;
          tf = tfs![i]!;
        }
        const s = bm25PlusTerm(idf, tf, distinct[doc]!, avg);
        if (!first) acc[doc] = acc[doc]! + s;
        else {
          if (matched[doc] === 0) {
            touched.push(doc);
            acc[doc] = s;
          } else acc[doc] = acc[doc]! + s;
          matched[doc] = matched[doc]! + 1;
        }
      }
    }
    return bestByMatchedTerms(touched, acc, matched, k, allow);
  } finally {
    // Left clean for the next search of any index (luceneSearch reads a 0 sum as untouched).
    for (const doc of touched) {
      matched[doc] = 0;
      acc[doc] = 0;
    }
  }
}

/**
 * Lucene's BM25 over the postings: every query term occurrence adds its score (a repeated term
 * counts twice, as Anserini's boosts). A score is never 0 (idf > 0, tf ≥ 1), so a unit's sum
 * being 0 says it is untouched: no second array is read per posting — at a million sentences a
 * posting's reads are cache misses, and this search was most of a hybrid column's extra time.
 */
export function luceneSearch(index: PostingsView, terms: string[], k: number, allow?: Allow): Hit[] {
  const { k: k1, b } = LUCENE_BM25_PARAMS;
  const n = index.count;
  if (!n) return [];
  const avg = index.totalTokens / n;
  const { score: acc } = scratchFor(n);
  const { offsets, tokenLengths } = index;
  const { packed, units, tfs } = index.table;
  let touched = touchedScratch;
  let count = 0;
  try {
    for (const term of terms) {
      const t = index.termIds.get(term);
      if (t === undefined || t >= offsets.length - 1) continue;
      const from = offsets[t]!;
      const to = offsets[t + 1]!;
      const idf = Math.log(1 + (n - (to - from) + 0.5) / (to - from + 0.5));
      if (count + (to - from) > touched.length) touched = touchedScratch = grow(touched, Math.max(2 * touched.length, count + (to - from)));
      for (let i = from; i < to; i++) {
        let u: number;
        let tf: number;
        if (packed) {
          const r = packed[i]!;
          u = r >>> 8;
          tf = r & 0xff;
        } else {
          u = units![i]!;
          tf = tfs![i]!;
        }
        const s = (idf * tf) / (tf + k1 * (1 - b + (b * tokenLengths[u]!) / avg));
        const sum = acc[u]!;
        if (sum === 0) {
          touched[count++] = u;
          acc[u] = s;
        } else acc[u] = sum + s;
      }
    }
    const top = new TopK(k, true);
    for (let j = 0; j < count; j++) {
      const u = touched[j]!;
      if (!allow || allow(u)) top.push(u, acc[u]!);
    }
    return top.result();
  } finally {
    // The scratch is shared by every index: left clean even when a filter throws.
    for (let j = 0; j < count; j++) acc[touched[j]!] = 0;
  }
}
