import MiniSearch from 'minisearch';
import { words } from '../segment/words';
import type { Allow, Hit } from './vector-index';

/**
 * BM25 parameters. MiniSearch scores with BM25+ (k1, b and the lower bound δ) and then
 * multiplies a document's summed term scores by the number of query terms it matched;
 * document length is its count of terms. Numbers reported by this project use exactly
 * this variant with these values (MiniSearch's defaults, set here on purpose).
 */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

/**
 * BM25 over text units with MiniSearch, tokenised with Intl.Segmenter words (so Chinese
 * is split into words, not kept as whole clauses) and folded to lower case without
 * accents. One index per unit kind (sentences, leaves, chunks).
 */
export class LexicalIndex {
  private readonly mini: MiniSearch<{ id: number; text: string; lang: string }>;
  private count = 0;
  private language = 'en';
  /** Per-search accumulators, reused (only touched entries are reset). */
  private scratch = { score: new Float64Array(0), mask: new Uint32Array(0) };

  constructor() {
    this.mini = new MiniSearch({
      fields: ['text'],
      idField: 'id',
      storeFields: [],
      // Tokenised with the language of the unit being added (or of the query being run).
      tokenize: (text) => words(text, this.language),
      processTerm: (term) => term,
      searchOptions: { bm25: { ...BM25_PARAMS }, prefix: false, fuzzy: false, combineWith: 'OR' },
    });
  }

  get size(): number {
    return this.count;
  }

  /** Adds units with ids size … size+n-1, each tokenised for its own language. */
  add(texts: string[], languages: string[] | string = 'en'): void {
    texts.forEach((text, i) => {
      this.language = typeof languages === 'string' ? languages : (languages[i] ?? 'en');
      this.mini.add({ id: this.count++, text, lang: this.language });
    });
  }

  /**
   * The top k units by MiniSearch's BM25+ score. MiniSearch's own search() builds a result
   * object with a match map for every unit that matches any query term, then sorts them
   * all: at 100k sentences that is ~190 ms a question, mostly for common words. This reads
   * MiniSearch's postings and keeps only the top k, with the very same scores and order
   * (tested against search()); anything it does not model falls back to search().
   */
  search(query: string, k: number, allow?: Allow, language = 'en'): Hit[] {
    this.language = language;
    if (!query.trim() || k <= 0) return [];
    return this.fastSearch(query, k, allow) ?? this.miniSearch(query, k, allow);
  }

  /** MiniSearch's own search (the reference the fast path must equal). */
  miniSearch(query: string, k: number, allow?: Allow): Hit[] {
    const results = this.mini.search(query, allow ? { filter: (r) => allow(r.id as number) } : {});
    return results.slice(0, k).map((r) => ({ id: r.id as number, score: r.score }));
  }

  private fastSearch(query: string, k: number, allow?: Allow): Hit[] | null {
    const m = this.mini as unknown as MiniSearchInternals;
    const fieldId = m._fieldIds?.text;
    if (fieldId === undefined || !m._index || !m._fieldLength || !m._documentIds || !m._avgFieldLength) return null;
    // As MiniSearch: every query term in order (repeats count twice); quality counts distinct ones.
    const terms = words(query, this.language).filter((t) => !!t);
    const distinct = [...new Set(terms)];
    if (distinct.length > 30) return null; // matched terms are kept as bits of a 32-bit mask
    const { k: k1, b, d } = BM25_PARAMS;
    const total = m._documentCount;
    const avg = m._avgFieldLength[fieldId]!;
    // Dense scratch arrays over MiniSearch's short ids (0, 1, 2, … in insertion order).
    const n = m._nextId ?? 0;
    if (this.scratch.score.length < n) this.scratch = { score: new Float64Array(n * 2), mask: new Uint32Array(n * 2) };
    const { score: acc, mask } = this.scratch;
    const touched: number[] = [];
    try {
      for (const term of terms) {
        const postings = m._index.get(term)?.get(fieldId);
        if (!postings) continue;
        const bit = 1 << distinct.indexOf(term);
        const idf = Math.log(1 + (total - postings.size + 0.5) / (postings.size + 0.5));
        for (const [doc, tf] of postings) {
          // A removed unit or an id past the scratch would need MiniSearch's own bookkeeping.
          const lengths = m._fieldLength.get(doc);
          if (!lengths || doc >= n) return null;
          const s = idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[fieldId]!) / avg)));
          if (mask[doc] === 0) {
            touched.push(doc);
            acc[doc] = s;
          } else acc[doc] = acc[doc]! + s;
          mask[doc] = mask[doc]! | bit;
        }
      }
      // Best first; equal scores keep first-seen order, as MiniSearch's stable sort does.
      const top: Hit[] = [];
      for (const doc of touched) {
        const id = m._documentIds.get(doc) as number;
        if (allow && !allow(id)) continue;
        const score = acc[doc]! * popcount(mask[doc]!);
        if (top.length === k && score <= top[k - 1]!.score) continue;
        let i = top.length < k ? top.length : k - 1;
        while (i > 0 && top[i - 1]!.score < score) i--;
        top.splice(i, 0, { id, score });
        if (top.length > k) top.pop();
      }
      return top;
    } finally {
      for (const doc of touched) mask[doc] = 0;
    }
  }
}

/** The parts of MiniSearch 7's index the fast path reads (checked at run time, tested against search()). */
interface MiniSearchInternals {
  _index?: { get(term: string): Map<number, Map<number, number>> | undefined };
  _fieldIds?: Record<string, number>;
  _fieldLength?: Map<number, number[]>;
  _avgFieldLength?: number[];
  _documentIds?: Map<number, unknown>;
  _documentCount: number;
  _nextId?: number;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}
