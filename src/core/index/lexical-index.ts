import MiniSearch, { type Options } from 'minisearch';
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

/** Postings as table rows (term, unit, tf), each term's rows one run with its units ascending. */
export interface PostingRows {
  term: ArrayLike<string>;
  unit: ArrayLike<number>;
  tf: ArrayLike<number>;
}


/** MiniSearch over one text field: the BM25+ reference (miniSearch()). */
type Reference = MiniSearch<{ id: number; text: string; lang: string }>;

/**
 * BM25 over text units, tokenised by an analyzer (analyzer.ts: Intl.Segmenter words, so
 * Chinese is split into words, folded to lower case without accents, optionally stemmed
 * and without stop words). One index per unit kind (sentences, leaves, chunks) and
 * lexical parameters. BM25+ is MiniSearch's formula; Lucene's BM25 counts lengths in tokens.
 *
 * The postings are typed arrays, not MiniSearch: MiniSearch keeps a radix tree of Maps with
 * one Map entry per posting and an array per unit. Measured on 100k SQuAD sentences
 * (stem+stop, 1.5M postings): MiniSearch 1,027 bytes per sentence (~69 per posting), plain
 * arrays per term 387; here 132 (~9 per posting, lengths and search scratch included): a
 * posting is an Int32 unit and a Uint16 tf in one CSR table, terms in one Map. BM25+ is scored with
 * MiniSearch's arithmetic, float steps and tie order (tested against a MiniSearch built
 * from the same texts); MiniSearch is kept only as that reference (miniSearch()).
 */
export class LexicalIndex {
  readonly params: LexicalParams;
  private count = 0;
  private language = 'en';
  /** Term → term id; termList[id] is its text. */
  private readonly termIds = new Map<string, number>();
  private readonly termList: string[] = [];
  /** Compacted postings (CSR): term t's rows are [offsets[t], offsets[t + 1]), units ascending. */
  private offsets = new Int32Array(1);
  private units = new Int32Array(0);
  private tfs: Uint16Array | Uint32Array = new Uint16Array(0);
  /** Postings added since the last compaction, in the order added (term id, unit, tf). */
  private log = emptyLog();
  private tokenLengths = new Uint32Array(64);
  /** Each unit's number of distinct terms: MiniSearch's field length (BM25+). */
  private distinct = new Uint32Array(64);
  private totalTokens = 0;
  /** MiniSearch's running mean of the distinct-term lengths, in its floating-point steps. */
  private avgDistinct = 0;
  /** Per-search accumulators, reused (only touched entries are reset). */
  private scratch = { score: new Float64Array(0), matched: new Uint16Array(0) };
  /** MiniSearch over the same postings, built when miniSearch() is asked (the BM25+ reference). */
  private reference: Reference | null = null;

  constructor(params: LexicalParams = DEFAULT_LEXICAL) {
    this.params = { ...params };
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
    const distinct = new Uint32Array(Math.max(64, units));
    let prev = -1;
    let maxTf = 0;
    for (let i = from; i < to; i++) {
      const u = rows.unit[i]!;
      const first = i === from || rows.term[i] !== rows.term[i - 1];
      if (!(u >= 0 && u < units) || (!first && u <= prev)) throw new Error(`postings name unit ${u}, not ascending within 0…${units - 1}`);
      prev = u;
      tokens[u]! += rows.tf[i]!;
      distinct[u]!++;
      if (rows.tf[i]! > maxTf) maxTf = rows.tf[i]!;
    }
    const offsets: number[] = [];
    for (let i = from; i < to; i++) {
      if (i === from || rows.term[i] !== rows.term[i - 1]) {
        const term = rows.term[i]!;
        if (idx.termIds.has(term)) throw new Error(`the postings of "${term}" are not one run`);
        idx.termIds.set(term, idx.termList.length);
        idx.termList.push(term);
        offsets.push(i - from);
      }
    }
    offsets.push(to - from);
    idx.offsets = Int32Array.from(offsets);
    idx.units = new Int32Array(to - from);
    idx.tfs = maxTf > 0xffff ? new Uint32Array(to - from) : new Uint16Array(to - from);
    for (let i = from; i < to; i++) {
      idx.units[i - from] = rows.unit[i]!;
      idx.tfs[i - from] = rows.tf[i]!;
    }
    idx.count = units;
    idx.tokenLengths = tokens;
    idx.distinct = distinct;
    for (let u = 0; u < units; u++) {
      idx.totalTokens += tokens[u]!;
      idx.avgDistinct = (idx.avgDistinct * u + distinct[u]!) / (u + 1);
    }
    return idx;
  }

  /** The terms of a text as this index analyses it. */
  analyze(text: string, language = 'en'): string[] {
    return analyze(text, language, this.params.analyzer);
  }

  /** Adds units with ids size … size+n-1, each tokenised for its own language. */
  add(texts: string[], languages: string[] | string = 'en'): void {
    this.reference = null;
    texts.forEach((text, i) => {
      this.language = typeof languages === 'string' ? languages : (languages[i] ?? 'en');
      this.addUnit(this.analyze(text, this.language));
    });
    // Compacting when the log outgrows the table keeps both small and the work linear overall.
    if (this.log.n > Math.max(1 << 16, this.units.length)) this.compact();
  }

  private addUnit(tokens: string[]): void {
    const id = this.count++;
    if (id >= this.tokenLengths.length) {
      const size = Math.max(64, this.tokenLengths.length * 2);
      this.tokenLengths = grow(this.tokenLengths, size);
      this.distinct = grow(this.distinct, size);
    }
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    this.tokenLengths[id] = tokens.length;
    this.totalTokens += tokens.length;
    // As MiniSearch: the length counts distinct tokens (an empty one too), the mean is updated in its steps.
    this.distinct[id] = tf.size;
    this.avgDistinct = (this.avgDistinct * id + tf.size) / (id + 1);
    const plus = this.params.bm25 === 'bm25plus';
    for (const [term, n] of tf) {
      if (plus && !term) continue; // MiniSearch indexes no empty term
      let t = this.termIds.get(term);
      if (t === undefined) {
        t = this.termList.length;
        this.termIds.set(term, t);
        this.termList.push(term);
      }
      const log = this.log;
      if (log.n === log.term.length) this.log = { term: grow(log.term, log.n * 2), unit: grow(log.unit, log.n * 2), tf: grow(log.tf, log.n * 2), n: log.n };
      this.log.term[this.log.n] = t;
      this.log.unit[this.log.n] = id;
      this.log.tf[this.log.n++] = n;
    }
  }

  /** Merges the log into the CSR table: each term's new units follow its old ones (ids only grow, so runs stay ascending). */
  private compact(): void {
    const log = this.log;
    if (!log.n) return;
    const terms = this.termList.length;
    const old = this.offsets.length - 1;
    const cursor = new Int32Array(terms + 1);
    for (let t = 0; t < old; t++) cursor[t] = this.offsets[t + 1]! - this.offsets[t]!;
    let maxTf = 0;
    for (let i = 0; i < log.n; i++) {
      cursor[log.term[i]!]!++;
      if (log.tf[i]! > maxTf) maxTf = log.tf[i]!;
    }
    const offsets = new Int32Array(terms + 1);
    for (let t = 0; t < terms; t++) offsets[t + 1] = offsets[t]! + cursor[t]!;
    const total = offsets[terms]!;
    const units = new Int32Array(total);
    const tfs = this.tfs instanceof Uint32Array || maxTf > 0xffff ? new Uint32Array(total) : new Uint16Array(total);
    for (let t = 0; t < terms; t++) {
      let at = offsets[t]!;
      if (t < old) {
        for (let i = this.offsets[t]!; i < this.offsets[t + 1]!; i++, at++) {
          units[at] = this.units[i]!;
          tfs[at] = this.tfs[i]!;
        }
      }
      cursor[t] = at;
    }
    for (let i = 0; i < log.n; i++) {
      const at = cursor[log.term[i]!]!++;
      units[at] = log.unit[i]!;
      tfs[at] = log.tf[i]!;
    }
    this.offsets = offsets;
    this.units = units;
    this.tfs = tfs;
    this.log = emptyLog();
  }

  /** Term → the units holding it (ascending) with its frequency: what an export or another engine scores from (terms in no set order). */
  postings(): ReadonlyMap<string, Readonly<TermPostings>> {
    this.compact();
    // Plain arrays, made when asked (an export asks once): the index itself keeps only the typed table.
    const out = new Map<string, TermPostings>();
    for (let t = 0; t < this.termList.length; t++) {
      const a = this.offsets[t]!;
      const b = this.offsets[t + 1]!;
      if (a < b) out.set(this.termList[t]!, { units: Array.from(this.units.subarray(a, b)), tf: Array.from(this.tfs.subarray(a, b)) });
    }
    return out;
  }

  /** Each unit's length in tokens (what Lucene's BM25 normalises by). */
  lengths(): Uint32Array {
    return this.tokenLengths.subarray(0, this.count);
  }

  /**
   * The top k units by the index's BM25 variant, best first. BM25+ gives MiniSearch's
   * search() scores and order exactly (ties in first-seen order) but keeps only the top k
   * instead of a result object per matching unit; Lucene's ties go to the smaller id.
   */
  search(query: string, k: number, allow?: Allow, language = 'en'): Hit[] {
    this.language = language;
    if (!query.trim() || k <= 0) return [];
    this.compact();
    const terms = this.analyze(query, language);
    if (this.params.bm25 === 'lucene') return this.luceneSearch(terms, k, allow);
    // As MiniSearch: every query term in order (repeats count twice), empty ones dropped.
    return this.plusSearch(
      terms.filter((t) => !!t),
      k,
      allow,
    );
  }

  /** MiniSearch's own search over the same postings and lengths (the reference BM25+ must equal). */
  miniSearch(query: string, k: number, allow?: Allow): Hit[] {
    if (this.params.bm25 !== 'bm25plus') throw new Error('miniSearch is the BM25+ reference; this index scores with Lucene BM25');
    this.reference ??= this.referenceIndex();
    const results = this.reference.search(query, allow ? { filter: (r) => allow(r.id as number) } : {});
    return results.slice(0, k).map((r) => ({ id: r.id as number, score: r.score }));
  }

  /** A MiniSearch filled from the postings: its document table through loadJS, its term index directly. */
  private referenceIndex(): Reference {
    this.compact();
    const options: Options<{ id: number; text: string; lang: string }> = {
      fields: ['text'],
      idField: 'id',
      storeFields: [],
      tokenize: (text: string) => analyze(text, this.language, this.params.analyzer),
      processTerm: (term: string) => term,
      searchOptions: { bm25: { ...BM25_PARAMS }, prefix: false, fuzzy: false, combineWith: 'OR' },
    };
    const units = this.count;
    const documentIds: Record<number, number> = {};
    const fieldLength: Record<number, number[]> = {};
    for (let u = 0; u < units; u++) {
      documentIds[u] = u;
      fieldLength[u] = [this.distinct[u]!];
    }
    const mini = MiniSearch.loadJS(
      { documentCount: units, nextId: units, documentIds, fieldIds: { text: 0 }, fieldLength, averageFieldLength: [this.avgDistinct], storedFields: {}, dirtCount: 0, index: [], serializationVersion: 2 },
      options,
    ) as Reference;
    const index = (mini as unknown as { _index?: { set(term: string, data: Map<number, Map<number, number>>): void } })._index;
    if (!index?.set) throw new Error('MiniSearch internals changed: postings cannot be loaded');
    for (let t = 0; t < this.termList.length; t++) {
      const docs = new Map<number, number>();
      for (let i = this.offsets[t]!; i < this.offsets[t + 1]!; i++) docs.set(this.units[i]!, this.tfs[i]!);
      if (docs.size) index.set(this.termList[t]!, new Map([[0, docs]]));
    }
    return mini;
  }

  private scratchFor(n: number): { score: Float64Array; matched: Uint16Array } {
    if (this.scratch.score.length < n) {
      const size = Math.ceil(n * 1.25);
      this.scratch = { score: new Float64Array(size), matched: new Uint16Array(size) };
    }
    return this.scratch;
  }

  /**
   * MiniSearch's BM25+ over the postings: per query term in query order, idf · (δ + tf·(k1+1)
   * / (tf + k1·(1 − b + b·len/avg))) summed in that order, then × the distinct query terms matched.
   */
  private plusSearch(terms: string[], k: number, allow?: Allow): Hit[] {
    const n = this.count;
    if (!n) return [];
    const { score: acc, matched } = this.scratchFor(n);
    const { offsets, units, tfs, distinct } = this;
    const avg = this.avgDistinct;
    const touched: number[] = [];
    try {
      for (let q = 0; q < terms.length; q++) {
        const t = this.termIds.get(terms[q]!);
        if (t === undefined) continue;
        const from = offsets[t]!;
        const to = offsets[t + 1]!;
        // A repeated query term adds its score again but is one matched term (its units were all touched before).
        const first = terms.indexOf(terms[q]!) === q;
        const idf = Math.log(1 + (n - (to - from) + 0.5) / (to - from + 0.5));
        for (let i = from; i < to; i++) {
          const doc = units[i]!;
          const s = bm25PlusTerm(idf, tfs[i]!, distinct[doc]!, avg);
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
      for (const doc of touched) matched[doc] = 0;
    }
  }

  /** Lucene's BM25 over the postings: every query term occurrence adds its score (a repeated term counts twice, as Anserini's boosts). */
  private luceneSearch(terms: string[], k: number, allow?: Allow): Hit[] {
    const { k: k1, b } = LUCENE_BM25_PARAMS;
    const n = this.count;
    if (!n) return [];
    const avg = this.totalTokens / n;
    const { score: acc, matched } = this.scratchFor(n);
    const { offsets, units, tfs, tokenLengths } = this;
    const touched: number[] = [];
    for (const term of terms) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const from = offsets[t]!;
      const to = offsets[t + 1]!;
      const idf = Math.log(1 + (n - (to - from) + 0.5) / (to - from + 0.5));
      for (let i = from; i < to; i++) {
        const u = units[i]!;
        const tf = tfs[i]!;
        const s = (idf * tf) / (tf + k1 * (1 - b + (b * tokenLengths[u]!) / avg));
        if (matched[u] === 0) {
          matched[u] = 1;
          touched.push(u);
          acc[u] = s;
        } else acc[u] = acc[u]! + s;
      }
    }
    const top = new TopK(k, true);
    for (const u of touched) {
      matched[u] = 0;
      if (!allow || allow(u)) top.push(u, acc[u]!);
    }
    return top.result();
  }
}

function emptyLog(): { term: Int32Array; unit: Int32Array; tf: Uint32Array; n: number } {
  return { term: new Int32Array(1024), unit: new Int32Array(1024), tf: new Uint32Array(1024), n: 0 };
}

function grow<T extends Int32Array | Uint32Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  return out;
}

/** One query term's BM25+ contribution to a unit (MiniSearch's formula, BM25_PARAMS). */
function bm25PlusTerm(idf: number, tf: number, length: number, avgLength: number): number {
  const { k: k1, b, d } = BM25_PARAMS;
  return idf * (d + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgLength)));
}

/**
 * The k best units of a BM25+ search: summed term scores times the number of distinct query
 * terms matched. Best first; equal scores keep first-seen order, as MiniSearch's stable sort does.
 */
function bestByMatchedTerms(touched: readonly number[], acc: Float64Array, matched: Uint16Array, k: number, allow?: Allow): Hit[] {
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
