import MiniSearch from 'minisearch';
import { analyze, type AnalyzerName } from './analyzer';
import { TopK } from './top-k';
import type { Allow, Hit } from './vector-index';

/**
 * BM25+ parameters (the `bm25plus` variant). MiniSearch scores with BM25+ (k1, b and the
 * lower bound δ) and then multiplies a document's summed term scores by the number of
 * query terms it matched; document length is its count of distinct terms. These are
 * MiniSearch's defaults, set here on purpose (the lab's default before Lucene's BM25).
 */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

/**
 * Lucene's BM25 (BM25Similarity, as Anserini runs it): k1 0.9, b 0.4, document length in
 * tokens, idf = ln(1 + (N − df + 0.5)/(df + 0.5)), a unit's score the plain sum over query
 * terms of idf · tf / (tf + k1 · (1 − b + b · len/avgLen)) (Lucene 8+ drops the constant
 * (k1 + 1) factor; the order is the same). Lengths are kept exact, not Lucene's one-byte norms.
 */
export const LUCENE_BM25_PARAMS = { k: 0.9, b: 0.4 } as const;

/** `bm25plus`: MiniSearch's BM25+ (BM25_PARAMS); `lucene`: Lucene's BM25 (LUCENE_BM25_PARAMS). */
export const BM25_VARIANTS = ['bm25plus', 'lucene'] as const;
export type Bm25Variant = (typeof BM25_VARIANTS)[number];

export function isBm25Variant(v: unknown): v is Bm25Variant {
  return BM25_VARIANTS.includes(v as Bm25Variant);
}

/** How the lexical indexes analyse and score: an index-level choice (changing it rebuilds them, never the vectors). */
export interface LexicalParams {
  analyzer: AnalyzerName;
  bm25: Bm25Variant;
}

/**
 * The default lexical model: Lucene's BM25 over Snowball-stemmed words without stop words
 * (as Anserini and Elasticsearch's language analyzers). It measured best across the shared
 * sets (README, "The lexical choices, measured"); the export's SQL reproduces every
 * analyzer × variant, this one included.
 */
export const DEFAULT_LEXICAL: LexicalParams = { analyzer: 'stem+stop', bm25: 'lucene' };

export function lexicalKey(p: LexicalParams): string {
  return `${p.analyzer}|${p.bm25}`;
}

/** "BM25+ · words", "Lucene BM25 · stem+stop": what is shown beside a BM25 score. */
export function lexicalLabel(p: LexicalParams): string {
  return `${p.bm25 === 'lucene' ? 'Lucene BM25' : 'BM25+'} · ${p.analyzer}`;
}

/** One term's postings: the units holding it, ascending, and its frequency in each. */
export interface TermPostings {
  units: number[];
  tf: number[];
}

/** BM25+ postings loaded from rows: each term's run of rows, and MiniSearch's lengths and mean. */
interface LoadedPostings {
  rows: PostingRows;
  /** Term → its run; run r is rows [starts[r], starts[r + 1]). */
  runs: Map<string, number>;
  starts: Int32Array;
  /** Each unit's number of distinct terms (MiniSearch's field length). */
  distinct: Uint32Array;
  avg: number;
}

/** Postings as table rows (term, unit, tf), each term's rows one run with its units ascending. */
export interface PostingRows {
  term: ArrayLike<string>;
  unit: ArrayLike<number>;
  tf: ArrayLike<number>;
}

/**
 * BM25 over text units, tokenised by an analyzer (analyzer.ts: Intl.Segmenter words, so
 * Chinese is split into words, folded to lower case without accents, optionally stemmed
 * and without stop words). One index per unit kind (sentences, leaves, chunks) and
 * lexical parameters. BM25+ is MiniSearch's; Lucene's BM25 is scored here over the
 * index's own postings, with lengths counted in tokens.
 */
export class LexicalIndex {
  readonly params: LexicalParams;
  /** MiniSearch's BM25+ (only for that variant). */
  private readonly mini: MiniSearch<{ id: number; text: string; lang: string }> | null;
  private count = 0;
  private language = 'en';
  /** The terms of the unit being added, while MiniSearch asks for them. */
  private adding: string[] | null = null;
  /** The index's own postings and lengths in tokens (Lucene scoring, and postings()). */
  private readonly terms = new Map<string, TermPostings>();
  /** BM25+ only: postings read from MiniSearch when asked, dropped when units are added. */
  private derived: Map<string, TermPostings> | null = null;
  /** BM25+ loaded from postings rows, searched over those rows until MiniSearch is needed (see fromPostings). */
  private pending: LoadedPostings | null = null;
  private tokenLengths = new Uint32Array(64);
  private totalTokens = 0;
  /** Per-search accumulators, reused (only touched entries are reset). */
  private scratch = { score: new Float64Array(0), mask: new Uint32Array(0) };

  constructor(params: LexicalParams = DEFAULT_LEXICAL) {
    this.params = { ...params };
    this.mini =
      params.bm25 === 'bm25plus'
        ? new MiniSearch({
            fields: ['text'],
            idField: 'id',
            storeFields: [],
            // A unit being added hands over its terms (analysed once for both postings); a query is analysed in its language.
            tokenize: (text) => this.adding ?? analyze(text, this.language, this.params.analyzer),
            processTerm: (term) => term,
            searchOptions: { bm25: { ...BM25_PARAMS }, prefix: false, fuzzy: false, combineWith: 'OR' },
          })
        : null;
  }

  get size(): number {
    return this.count;
  }

  /**
   * An index of `units` units from their postings (a bundle's postings table, rows
   * [from, to)) instead of analysing their text again: the same index add() builds from the
   * texts whose analysed terms these are, searched with the same scores and ties. Each
   * term's rows are one run, its units ascending (as postings() gives them). A unit's token
   * length is the sum of its term frequencies; BM25+'s length (MiniSearch's: distinct terms)
   * is its number of terms. Throws on a unit out of range or out of order.
   */
  static fromPostings(params: LexicalParams, units: number, rows: PostingRows, from = 0, to = rows.unit.length): LexicalIndex {
    const idx = new LexicalIndex(params);
    const tokens = new Uint32Array(Math.max(64, units));
    const distinct = new Uint32Array(units);
    let prev = -1;
    for (let i = from; i < to; i++) {
      const u = rows.unit[i]!;
      const first = i === from || rows.term[i] !== rows.term[i - 1];
      if (!(u >= 0 && u < units) || (!first && u <= prev)) throw new Error(`postings name unit ${u}, not ascending within 0…${units - 1}`);
      prev = u;
      tokens[u]! += rows.tf[i]!;
      distinct[u]!++;
    }
    idx.count = units;
    idx.tokenLengths = tokens;
    for (let u = 0; u < units; u++) idx.totalTokens += tokens[u]!;
    const typed = ArrayBuffer.isView(rows.unit) && ArrayBuffer.isView(rows.tf);
    const runs = new Map<string, number>();
    const starts: number[] = [];
    for (let i = from; i < to; i++) {
      if (i === from || rows.term[i] !== rows.term[i - 1]) {
        const term = rows.term[i]!;
        if (runs.has(term)) throw new Error(`the postings of "${term}" are not one run`);
        runs.set(term, starts.length);
        starts.push(i);
      }
    }
    starts.push(to);
    if (!idx.mini) {
      // Lucene scores over `terms`: each term's postings as views of the rows (copied on a later add).
      for (const [term, r] of runs) {
        const a = starts[r]!;
        const b = starts[r + 1]!;
        idx.terms.set(term, typed ? { units: (rows.unit as Int32Array).subarray(a, b) as unknown as number[], tf: (rows.tf as Int32Array).subarray(a, b) as unknown as number[] } : { units: Array.from({ length: b - a }, (_, i) => rows.unit[a + i]!), tf: Array.from({ length: b - a }, (_, i) => rows.tf[a + i]!) });
      }
      return idx;
    }
    let avg = 0;
    // MiniSearch's running mean of lengths, in its floating-point steps.
    for (let u = 0; u < units; u++) avg = (avg * u + distinct[u]!) / (u + 1);
    // BM25+ is searched over the rows as MiniSearch would score them; MiniSearch itself is
    // filled only when needed (a later add, a query of over 30 terms, postings()).
    idx.pending = { rows, runs, starts: Int32Array.from(starts), distinct, avg };
    return idx;
  }

  /** Fills MiniSearch from the loaded postings (its document table through loadJS, its term index directly). */
  private materialize(): void {
    const p = this.pending;
    if (!p) return;
    const units = this.count;
    const documentIds: Record<number, number> = {};
    const fieldLength: Record<number, number[]> = {};
    for (let u = 0; u < units; u++) {
      documentIds[u] = u;
      fieldLength[u] = [p.distinct[u]!];
    }
    const options = (this.mini as unknown as { _options: ConstructorParameters<typeof MiniSearch>[0] })._options;
    const loaded = MiniSearch.loadJS(
      { documentCount: units, nextId: units, documentIds, fieldIds: { text: 0 }, fieldLength, averageFieldLength: [p.avg], storedFields: {}, dirtCount: 0, index: [], serializationVersion: 2 },
      options,
    ) as MiniSearch<{ id: number; text: string; lang: string }>;
    const index = (loaded as unknown as MiniSearchInternals)._index as unknown as { set(term: string, data: Map<number, Map<number, number>>): void } | undefined;
    if (!index?.set) throw new Error('MiniSearch internals changed: postings cannot be loaded');
    for (const [term, r] of p.runs) {
      const docs = new Map<number, number>();
      for (let i = p.starts[r]!; i < p.starts[r + 1]!; i++) docs.set(p.rows.unit[i]!, p.rows.tf[i]!);
      index.set(term, new Map([[0, docs]]));
    }
    (this as unknown as { mini: typeof loaded }).mini = loaded;
    this.pending = null;
  }

  /** fastSearch over loaded postings rows: the very same arithmetic, order and ties. */
  private pendingSearch(query: string, k: number, allow?: Allow): Hit[] | null {
    const p = this.pending!;
    const terms = this.analyze(query, this.language).filter((t) => !!t);
    const distinct = [...new Set(terms)];
    if (distinct.length > 30) return null;
    const n = this.count;
    if (this.scratch.score.length < n) this.scratch = { score: new Float64Array(n * 2), mask: new Uint32Array(n * 2) };
    const { score: acc, mask } = this.scratch;
    const touched: number[] = [];
    try {
      for (const term of terms) {
        const r = p.runs.get(term);
        if (r === undefined) continue;
        const from = p.starts[r]!;
        const to = p.starts[r + 1]!;
        const bit = 1 << distinct.indexOf(term);
        const idf = Math.log(1 + (n - (to - from) + 0.5) / (to - from + 0.5));
        for (let i = from; i < to; i++) {
          const doc = p.rows.unit[i]!;
          const tf = p.rows.tf[i]!;
          const s = bm25PlusTerm(idf, tf, p.distinct[doc]!, p.avg);
          if (mask[doc] === 0) {
            touched.push(doc);
            acc[doc] = s;
          } else acc[doc] = acc[doc]! + s;
          mask[doc] = mask[doc]! | bit;
        }
      }
      return bestByMatchedTerms(touched, acc, mask, k, (doc) => doc, allow);
    } finally {
      for (const doc of touched) mask[doc] = 0;
    }
  }

  /** The terms of a text as this index analyses it. */
  analyze(text: string, language = 'en'): string[] {
    return analyze(text, language, this.params.analyzer);
  }

  /** Adds units with ids size … size+n-1, each tokenised for its own language. */
  add(texts: string[], languages: string[] | string = 'en'): void {
    this.materialize();
    texts.forEach((text, i) => {
      this.language = typeof languages === 'string' ? languages : (languages[i] ?? 'en');
      const id = this.count++;
      const tokens = this.analyze(text, this.language);
      this.adding = tokens;
      try {
        this.mini?.add({ id, text, lang: this.language });
      } finally {
        this.adding = null;
      }
      this.addPostings(id, tokens);
    });
    this.derived = null;
  }

  private addPostings(id: number, tokens: string[]): void {
    if (id >= this.tokenLengths.length) {
      const grown = new Uint32Array(Math.max(64, this.tokenLengths.length * 2));
      grown.set(this.tokenLengths);
      this.tokenLengths = grown;
    }
    this.tokenLengths[id] = tokens.length;
    this.totalTokens += tokens.length;
    // BM25+ scores from MiniSearch's own postings: a second copy would cost ~40 % more memory.
    if (this.mini) return;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.terms.get(t);
      if (!p) this.terms.set(t, (p = { units: [], tf: [] }));
      else if (!Array.isArray(p.units)) {
        // Postings loaded as views of a table's rows (fromPostings) become arrays of their own to grow.
        p.units = Array.from(p.units);
        p.tf = Array.from(p.tf);
      }
      p.units.push(id);
      p.tf.push(n);
    }
  }

  /** Term → the units holding it (ascending) with its frequency: what an export or another engine scores from (terms in no set order). */
  postings(): ReadonlyMap<string, Readonly<TermPostings>> {
    this.materialize();
    if (!this.mini) return this.terms;
    // Read from MiniSearch's index on demand (an export asks once).
    if (!this.derived) this.derived = this.postingsFromMiniSearch();
    return this.derived;
  }

  private postingsFromMiniSearch(): Map<string, TermPostings> {
    const m = this.mini as unknown as MiniSearchInternals;
    const fieldId = m._fieldIds?.text;
    const out = new Map<string, TermPostings>();
    if (fieldId === undefined || !m._index?.[Symbol.iterator] || !m._documentIds) throw new Error('MiniSearch internals changed: postings cannot be read');
    const entries: [string, TermPostings][] = [];
    for (const [term, fields] of m._index as Iterable<[string, Map<number, Map<number, number>>]>) {
      const docs = fields.get(fieldId);
      if (!docs?.size) continue;
      const pairs = [...docs].map(([short, tf]) => [m._documentIds!.get(short) as number, tf] as const).sort((a, b) => a[0] - b[0]);
      entries.push([term, { units: pairs.map((p) => p[0]), tf: pairs.map((p) => p[1]) }]);
    }
    for (const [term, p] of entries) out.set(term, p);
    return out;
  }

  /** Each unit's length in tokens (what Lucene's BM25 normalises by). */
  lengths(): Uint32Array {
    return this.tokenLengths.subarray(0, this.count);
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
    if (!this.mini) return this.luceneSearch(this.analyze(query, language), k, allow);
    if (this.pending) {
      const hits = this.pendingSearch(query, k, allow);
      if (hits) return hits;
    }
    return this.fastSearch(query, k, allow) ?? this.miniSearch(query, k, allow);
  }

  /** MiniSearch's own search (the reference the fast path must equal; BM25+ only). */
  miniSearch(query: string, k: number, allow?: Allow): Hit[] {
    if (!this.mini) throw new Error('miniSearch is the BM25+ reference; this index scores with Lucene BM25');
    this.materialize();
    const results = this.mini.search(query, allow ? { filter: (r) => allow(r.id as number) } : {});
    return results.slice(0, k).map((r) => ({ id: r.id as number, score: r.score }));
  }

  /** Lucene's BM25 over the index's postings: every query term occurrence adds its score (a repeated term counts twice, as Anserini's boosts). */
  private luceneSearch(terms: string[], k: number, allow?: Allow): Hit[] {
    const { k: k1, b } = LUCENE_BM25_PARAMS;
    const n = this.count;
    if (!n) return [];
    const avg = this.totalTokens / n;
    if (this.scratch.score.length < n) this.scratch = { score: new Float64Array(n * 2), mask: new Uint32Array(n * 2) };
    const { score: acc, mask } = this.scratch;
    const touched: number[] = [];
    for (const term of terms) {
      const p = this.terms.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.units.length + 0.5) / (p.units.length + 0.5));
      for (let i = 0; i < p.units.length; i++) {
        const u = p.units[i]!;
        const tf = p.tf[i]!;
        const s = (idf * tf) / (tf + k1 * (1 - b + (b * this.tokenLengths[u]!) / avg));
        if (mask[u] === 0) {
          mask[u] = 1;
          touched.push(u);
          acc[u] = s;
        } else acc[u] = acc[u]! + s;
      }
    }
    const top = new TopK(k, true);
    for (const u of touched) {
      mask[u] = 0;
      if (!allow || allow(u)) top.push(u, acc[u]!);
    }
    return top.result();
  }

  private fastSearch(query: string, k: number, allow?: Allow): Hit[] | null {
    const m = this.mini as unknown as MiniSearchInternals;
    const fieldId = m._fieldIds?.text;
    if (fieldId === undefined || !m._index || !m._fieldLength || !m._documentIds || !m._avgFieldLength) return null;
    // As MiniSearch: every query term in order (repeats count twice); quality counts distinct ones.
    const terms = this.analyze(query, this.language).filter((t) => !!t);
    const distinct = [...new Set(terms)];
    if (distinct.length > 30) return null; // matched terms are kept as bits of a 32-bit mask
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
          const s = bm25PlusTerm(idf, tf, lengths[fieldId]!, avg);
          if (mask[doc] === 0) {
            touched.push(doc);
            acc[doc] = s;
          } else acc[doc] = acc[doc]! + s;
          mask[doc] = mask[doc]! | bit;
        }
      }
      const ids = m._documentIds;
      return bestByMatchedTerms(touched, acc, mask, k, (doc) => ids.get(doc) as number, allow);
    } finally {
      for (const doc of touched) mask[doc] = 0;
    }
  }
}

/** One query term's BM25+ contribution to a unit (MiniSearch's formula, BM25_PARAMS). */
function bm25PlusTerm(idf: number, tf: number, length: number, avgLength: number): number {
  const { k: k1, b, d } = BM25_PARAMS;
  return idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength)));
}

/**
 * The k best units of a BM25+ search: summed term scores times the number of distinct query
 * terms matched (bits of `mask`). Best first; equal scores keep first-seen order, as
 * MiniSearch's stable sort does.
 */
function bestByMatchedTerms(touched: readonly number[], acc: Float64Array, mask: Uint32Array, k: number, idOf: (doc: number) => number, allow?: Allow): Hit[] {
  const top: Hit[] = [];
  for (const doc of touched) {
    const id = idOf(doc);
    if (allow && !allow(id)) continue;
    const score = acc[doc]! * popcount(mask[doc]!);
    if (top.length === k && score <= top[k - 1]!.score) continue;
    let i = top.length < k ? top.length : k - 1;
    while (i > 0 && top[i - 1]!.score < score) i--;
    top.splice(i, 0, { id, score });
    if (top.length > k) top.pop();
  }
  return top;
}

/** The parts of MiniSearch 7's index the fast path reads (checked at run time, tested against search()). */
interface MiniSearchInternals {
  _index?: { get(term: string): Map<number, Map<number, number>> | undefined; [Symbol.iterator]?: unknown };
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
