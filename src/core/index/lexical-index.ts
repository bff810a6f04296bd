import { analyze, analyzeEach, WordMemo } from './analyzer';
import type { Allow, Hit } from './vector-index';
import { DEFAULT_LEXICAL, lexicalKey, type LexicalParams } from './lexical-params';
import { emptyLog, grow, PostingTable, tfColumn } from './posting-table';
import { unitPostings, type UnitPostings } from './unit-postings';
import { luceneSearch, plusSearch, type PostingsView } from './bm25-scoring';
import { referenceIndex, type Reference } from './minisearch-reference';

export { BM25_PARAMS, BM25_VARIANTS, DEFAULT_LEXICAL, isBm25Variant, lexicalKey, lexicalLabel, LUCENE_BM25_PARAMS, type Bm25Variant, type LexicalParams } from './lexical-params';

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

/**
 * Terms and their ids, shared by the lexical indexes of one analyzer (the unit kinds index the
 * same words): one Map entry and one string per term instead of one per kind. Ids only grow; an
 * index keeps rows for the ids it has seen, and a term it has no rows for matches nothing there.
 */
/** Parts' postings are transposed this many units at a time when runs of them are summed (addRuns). */
const SUM_WINDOW = 1 << 18;

export class TermDictionary {
  readonly ids = new Map<string, number>();
  readonly list: string[] = [];
}

/**
 * BM25 over text units, tokenised by an analyzer (analyzer.ts: Intl.Segmenter words, so
 * Chinese is split into words, folded to lower case without accents, optionally stemmed
 * and without stop words). One index per unit kind (sentences, leaves, chunks) and
 * lexical parameters. BM25+ is MiniSearch's formula; Lucene's BM25 counts lengths in tokens.
 *
 * The postings are typed arrays, not MiniSearch: MiniSearch keeps a radix tree of Maps with
 * one Map entry per posting and an array per unit. Measured on 100k SQuAD sentences
 * (stem+stop, 1.5M postings): MiniSearch 1,027 bytes per sentence (~69 per posting), plain
 * arrays per term 387, one CSR table of an Int32 unit and a Uint16 tf a posting 106; here 78
 * (128k sentences, lengths and the term dictionary included): a posting is one Uint32, unit
 * and tf packed (PostingTable), and every unit kind's index shares one dictionary
 * (TermDictionary), so the leaf, chunk and packed indexes hold 52–58. BM25+ is scored with
 * MiniSearch's arithmetic, float steps and tie order (tested against a MiniSearch built
 * from the same texts); MiniSearch is kept only as that reference (miniSearch()).
 */
export class LexicalIndex {
  readonly params: LexicalParams;
  private count = 0;
  private language = 'en';
  /** Term → term id; termList[id] is its text. Shared with other indexes of the same analyzer when given (TermDictionary). */
  private readonly termIds: Map<string, number>;
  private readonly termList: string[];
  /** Compacted postings (CSR): term t's rows are [offsets[t], offsets[t + 1]) of the table, units ascending. */
  private offsets = new Int32Array(1);
  private table = PostingTable.sized(0, 0, 0);
  /** Postings added since the last compaction, in the order added (term id, unit, tf). */
  private log = emptyLog();
  private tokenLengths = new Uint32Array(64);
  /** Each unit's number of distinct terms: MiniSearch's field length (BM25+). */
  private distinct = new Uint32Array(64);
  private totalTokens = 0;
  /** MiniSearch's running mean of the distinct-term lengths, in its floating-point steps. */
  private avgDistinct = 0;
  /** MiniSearch over the same postings, built when miniSearch() is asked (the BM25+ reference). */
  private reference: Reference | null = null;

  /** `terms`: a dictionary shared with the other indexes over the same analyzer (each kind's index then keeps only its postings). */
  constructor(params: LexicalParams = DEFAULT_LEXICAL, terms: TermDictionary = new TermDictionary()) {
    this.params = { ...params };
    this.termIds = terms.ids;
    this.termList = terms.list;
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
    const terms = new TermDictionary();
    const offsets: number[] = [];
    for (let i = from; i < to; i++) {
      if (i === from || rows.term[i] !== rows.term[i - 1]) {
        const term = rows.term[i]!;
        if (terms.ids.has(term)) throw new Error(`the postings of "${term}" are not one run`);
        terms.ids.set(term, terms.list.length);
        terms.list.push(term);
        offsets.push(i);
      }
    }
    offsets.push(to);
    return LexicalIndex.fromTermRuns(params, units, terms, Int32Array.from(offsets), rows.unit, rows.tf);
  }

  /**
   * An index of `units` units from postings stored by term (a saved corpus's): term t of `terms`
   * has rows [offsets[t], offsets[t + 1]) of `unit` and `tf`, units ascending — the rows may start
   * past 0 (offsets[0]); a term with no rows, or past the offsets, matches nothing here. `terms`
   * may be shared with other indexes over the same analyzer. The same index fromPostings makes.
   * Throws on offsets that do not run forward or a unit out of range or out of order.
   */
  static fromTermRuns(params: LexicalParams, units: number, terms: TermDictionary, offsets: Int32Array, unit: ArrayLike<number>, tf: ArrayLike<number>): LexicalIndex {
    const idx = new LexicalIndex(params, terms);
    const tokens = new Uint32Array(Math.max(64, units));
    const distinct = new Uint32Array(Math.max(64, units));
    const runs = offsets.length - 1;
    if (runs < 0 || runs > terms.list.length) throw new Error(`${runs} runs of postings for ${terms.list.length} terms`);
    const from = offsets[0]!;
    const to = offsets[runs]!;
    if (!(from >= 0 && to <= unit.length && to <= tf.length)) throw new Error(`postings rows ${from}…${to} past the ${Math.min(unit.length, tf.length)} given`);
    let maxTf = 0;
    for (let t = 0; t < runs; t++) {
      const a = offsets[t]!;
      const b = offsets[t + 1]!;
      if (b < a) throw new Error(`the postings of "${terms.list[t]}" end before they start`);
      let prev = -1;
      for (let i = a; i < b; i++) {
        const u = unit[i]!;
        if (!(u >= 0 && u < units) || u <= prev) throw new Error(`postings name unit ${u}, not ascending within 0…${units - 1}`);
        prev = u;
        tokens[u]! += tf[i]!;
        distinct[u]!++;
        if (tf[i]! > maxTf) maxTf = tf[i]!;
      }
    }
    idx.offsets = Int32Array.from(offsets, (o) => o - from);
    idx.table = PostingTable.sized(to - from, units, maxTf);
    for (let i = from; i < to; i++) idx.table.set(i - from, unit[i]!, tf[i]!);
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
    const languageOf = typeof languages === 'string' ? () => languages : (i: number) => languages[i] ?? 'en';
    analyzeEach(texts, languageOf, this.params.analyzer, new WordMemo(), (i, terms) => {
      this.language = languageOf(i);
      this.addUnit(terms);
    });
    // Compacting when the log outgrows the table keeps both small and the work linear overall.
    if (this.log.n > Math.max(1 << 16, this.table.length)) this.compact();
  }

  private addUnit(tokens: string[]): void {
    const plus = this.params.bm25 === 'bm25plus';
    // Term frequencies by term id in the shared scratch (no Map a unit), distinct ids in first-seen order.
    let distinct = 0;
    let empty = false;
    for (const term of tokens) {
      if (plus && !term) {
        empty = true; // MiniSearch indexes no empty term, but counts it in the length
        continue;
      }
      let t = this.termIds.get(term);
      if (t === undefined) {
        t = this.termList.length;
        this.termIds.set(term, t);
        this.termList.push(term);
      }
      distinct = countTerm(t, 1, distinct);
    }
    this.appendCounted(distinct, distinct + (empty ? 1 : 0), tokens.length);
  }

  /** Whether this index and `other` use one term dictionary and the same lexical parameters (addRuns can sum other's units into this one). */
  canSum(other: LexicalIndex): boolean {
    return other.termList === this.termList && lexicalKey(other.params) === lexicalKey(this.params);
  }

  /**
   * Adds n units, each a run of units already in `parts` (an index over the same analyzer and
   * BM25 variant, sharing this index's dictionary) or, where `run` gives null, the terms
   * `terms(i)` gives. A run [start, end) gets its parts' summed frequencies: the postings add()
   * makes from the parts' joined texts when the joins break no word (LexicalIndexes checks
   * that), without analysing again. Parts' postings are read `window` units at a time.
   */
  addRuns(parts: LexicalIndex, n: number, run: (i: number) => { start: number; end: number } | null, terms: (i: number) => string[], window = SUM_WINDOW): void {
    if (!this.canSum(parts)) throw new Error('runs come from an index of another term dictionary or lexical choice');
    this.reference = null;
    // Each unit's run, asked once ([start, end), or start −1 where the unit is analysed): their postings bound the log's growth.
    const starts = new Int32Array(n);
    const ends = new Int32Array(n);
    let bound = 0;
    for (let i = 0; i < n; i++) {
      const r = run(i);
      if (!r) {
        starts[i] = -1;
        continue;
      }
      const { start: a, end: b } = r;
      if (!(a >= 0 && b <= parts.count && a < b)) throw new Error(`run ${a}…${b} outside the ${parts.count} units`);
      starts[i] = a;
      ends[i] = b;
      for (let u = a; u < b; u++) bound += parts.distinct[u]!;
    }
    // Made once: doubling a log of millions of postings allocated (and dropped) as much again, and each
    // large allocation of array buffers starts a full garbage collection (1M sentences: ~20 in the BM25 build).
    this.reserve(bound);
    const transposed = parts.transposer();
    let byUnit: UnitPostings | null = null;
    for (let i = 0; i < n; i++) {
      const a = starts[i]!;
      if (a < 0) {
        this.addUnit(terms(i));
        continue;
      }
      const b = ends[i]!;
      if (!byUnit || a < byUnit.from || b > byUnit.from + byUnit.offsets.length - 1) byUnit = transposed(a, Math.min(parts.count, Math.max(b, a + window)));
      let distinct = 0;
      let tokens = 0;
      let empty = false;
      for (let u = a; u < b; u++) {
        const o = u - byUnit.from;
        for (let k = byUnit.offsets[o]!; k < byUnit.offsets[o + 1]!; k++) distinct = countTerm(byUnit.term[k]!, byUnit.tf[k]!, distinct);
        tokens += parts.tokenLengths[u]!;
        // BM25+: a part whose length counts one more than its postings held an empty token.
        if (parts.distinct[u]! > byUnit.offsets[o + 1]! - byUnit.offsets[o]!) empty = true;
      }
      this.appendCounted(distinct, distinct + (empty ? 1 : 0), tokens);
    }
    if (this.log.n > Math.max(1 << 16, this.table.length)) this.compact();
  }

  /** This index's postings by unit, window by window (unit-postings.ts). */
  private transposer(): (from: number, to: number) => UnitPostings {
    this.compact();
    return unitPostings(this.offsets, this.table);
  }

  /** Room in the log for `extra` more postings, made at once rather than by doubling. */
  private reserve(extra: number): void {
    const log = this.log;
    const need = log.n + extra;
    if (need <= log.term.length) return;
    // At least doubled, so that many small additions still grow it in amortised constant time.
    const size = Math.max(need, 2 * log.term.length);
    this.log = { term: grow(log.term, size), unit: grow(log.unit, size), tf: grow(log.tf, size), n: log.n };
  }

  /** Appends the unit counted in unitScratch (its `distinct` term ids and their frequencies) and leaves the scratch zero. */
  private appendCounted(distinct: number, size: number, tokenLength: number): void {
    const id = this.count++;
    if (id >= this.tokenLengths.length) {
      const grown = Math.max(64, this.tokenLengths.length * 2);
      this.tokenLengths = grow(this.tokenLengths, grown);
      this.distinct = grow(this.distinct, grown);
    }
    this.tokenLengths[id] = tokenLength;
    this.totalTokens += tokenLength;
    // As MiniSearch: the length counts distinct tokens (an empty one too), the mean is updated in its steps.
    this.distinct[id] = size;
    this.avgDistinct = (this.avgDistinct * id + size) / (id + 1);
    const unitTerms = unitScratch.terms;
    const tf = unitScratch.tf;
    for (let k = 0; k < distinct; k++) {
      const t = unitTerms[k]!;
      const log = this.log;
      if (log.n === log.term.length) this.log = { term: grow(log.term, log.n * 2), unit: grow(log.unit, log.n * 2), tf: grow(log.tf, log.n * 2), n: log.n };
      this.log.term[this.log.n] = t;
      this.log.unit[this.log.n] = id;
      this.log.tf[this.log.n++] = tf[t]!;
      tf[t] = 0;
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
    const before = this.table;
    const table = PostingTable.sized(total, this.count, maxTf, before);
    for (let t = 0; t < terms; t++) {
      let at = offsets[t]!;
      if (t < old) for (let i = this.offsets[t]!; i < this.offsets[t + 1]!; i++, at++) table.set(at, before.unit(i), before.tf(i));
      cursor[t] = at;
    }
    for (let i = 0; i < log.n; i++) table.set(cursor[log.term[i]!]!++, log.unit[i]!, log.tf[i]!);
    this.offsets = offsets;
    this.table = table;
    this.log = emptyLog();
  }

  /** Term → the units holding it (ascending) with its frequency: what an export or another engine scores from (terms in no set order). */
  postings(): ReadonlyMap<string, Readonly<TermPostings>> {
    this.compact();
    // Plain arrays, made when asked (an export asks once): the index itself keeps only the typed table.
    const out = new Map<string, TermPostings>();
    for (let t = 0; t < this.offsets.length - 1; t++) {
      const a = this.offsets[t]!;
      const b = this.offsets[t + 1]!;
      if (a < b) {
        const p: TermPostings = { units: new Array<number>(b - a), tf: new Array<number>(b - a) };
        for (let i = a; i < b; i++) {
          p.units[i - a] = this.table.unit(i);
          p.tf[i - a] = this.table.tf(i);
        }
        out.set(this.termList[t]!, p);
      }
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
    if (this.params.bm25 === 'lucene') return luceneSearch(this.view(), terms, k, allow);
    // As MiniSearch: every query term in order (repeats count twice), empty ones dropped.
    return plusSearch(
      this.view(),
      terms.filter((t) => !!t),
      k,
      allow,
    );
  }

  /** What a search reads: the compacted postings and the lengths, as they are now. */
  private view(): PostingsView {
    return { count: this.count, offsets: this.offsets, table: this.table, termIds: this.termIds, distinct: this.distinct, avgDistinct: this.avgDistinct, tokenLengths: this.tokenLengths, totalTokens: this.totalTokens };
  }

  /** MiniSearch's own search over the same postings and lengths (the reference BM25+ must equal). */
  miniSearch(query: string, k: number, allow?: Allow): Hit[] {
    if (this.params.bm25 !== 'bm25plus') throw new Error('miniSearch is the BM25+ reference; this index scores with Lucene BM25');
    this.compact();
    this.reference ??= referenceIndex(this.view(), this.termList, (text) => analyze(text, this.language, this.params.analyzer));
    const results = this.reference.search(query, allow ? { filter: (r) => allow(r.id as number) } : {});
    return results.slice(0, k).map((r) => ({ id: r.id as number, score: r.score }));
  }
}

/** Per-unit term counts while a unit is added, shared by every index (add() runs to its end synchronously and leaves them zero). */
const unitScratch = { tf: new Uint32Array(1024), terms: new Int32Array(256) };

/** Counts `n` of term t into unitScratch; returns the unit's distinct terms so far (t appended when new). */
function countTerm(t: number, n: number, distinct: number): number {
  if (t >= unitScratch.tf.length) unitScratch.tf = grow(unitScratch.tf, Math.max(2 * unitScratch.tf.length, t + 1));
  if (unitScratch.tf[t] === 0) {
    if (distinct === unitScratch.terms.length) unitScratch.terms = grow(unitScratch.terms, 2 * unitScratch.terms.length);
    unitScratch.terms[distinct++] = t;
  }
  unitScratch.tf[t]! += n;
  return distinct;
}


