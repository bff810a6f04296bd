import { type CompactKind, type CompactRows, compactRows } from './compact-rows';
import { FlatIndex } from './flat-index';
import { TopK } from './top-k';
import { type Allow, type Hit, type VectorIndex, l2normalize } from './vector-index';

export interface BitScanOptions {
  /** Below this many vectors every search is FlatIndex's exact scan (the 'auto' backend); 0: codes from the start. */
  exactBelow?: number;
  /** Candidates re-scored exactly per query: max(rescore, rescorePerK × k). */
  rescore?: number;
  rescorePerK?: number;
  /**
   * From this many vectors (and never below exactBelow) the rows are kept compact instead of
   * float32; the exact scan below it keeps float32 rows, so small corpora score exactly as FlatIndex.
   */
  compactFrom?: number;
  /** How compact rows are stored: float16 (the default) or int8 with a scale per row. */
  rows?: CompactKind;
}

/**
 * Where rows become float16 (the same size as the `auto` backend's switch). Measured on the
 * scale bench's real-sentence vectors (scripts/bench/scale-bench.ts `rows`; 384 dims, 100k
 * rows, 100 questions, 2 loaded cores): float16 rows 820 bytes a vector with the codes (float32:
 * 1,588), recall@10 0.999, answer-in-context unchanged, re-scored cosines within 5e-5 of
 * float32's (4.2e-5 the largest at 30k); int8 + a scale per row 440 bytes but recall@10 0.993
 * and scores off by up to 1.2e-3. Float16 keeps the ranking; int8 would not pay for it.
 */
export const COMPACT_FROM = 20_000;

/**
 * Short-list length measured on test-model vectors of real sentences (scripts/bench/scale-bench.ts,
 * 2 cores): recall@10 at 1M rows was 0.975 / 0.989 / 0.998 / 0.999 with 200 / 400 / 800 / 1,600
 * re-scored, 0.999 with this default; re-scoring 1,000 rows costs ~1 ms against 45–130 ms for
 * the code scan itself.
 */
export const BIT_SCAN_DEFAULTS = { rescore: 1000, rescorePerK: 50 } as const;

/**
 * Quantisation of a residual u = (x_j − μ_j) / w_j (w_j its mean absolute value): with 1 bit
 * its sign, reconstructed as ±1 (= ±w_j); with 2 bits the Lloyd–Max levels of a Gaussian
 * (cuts at 0 and ±0.98σ, levels ±0.45σ and ±1.51σ; σ = 1.25·w for a Gaussian).
 */
const CUTS: Record<number, readonly number[]> = { 1: [0], 2: [-1.225, 0, 1.225] };
const LEVELS: Record<number, readonly number[]> = { 1: [-1, 1], 2: [-1.89, -0.565, 0.565, 1.89] };

/**
 * Approximate search by a scan of 1-bit codes with exact re-scoring of a short list.
 *
 * Each vector gets one bit per dimension — the sign of (x − μ), μ the mean vector — plus one
 * float, its mean |x − μ|: 52 bytes at 384 dimensions beside the 1,536 of its float32 row. A
 * query scores every code through 256-entry tables, one per code byte (Σ ±q_j·w_j for the 8
 * dimensions of that byte, w_j the dimension's mean |x − μ|): 48 lookups instead of 384
 * multiply-adds, and no pointer chasing. The best `rescore` ids by that estimate are then
 * scored on their rows: below COMPACT_FROM the float32 rows, so the scores returned are
 * FlatIndex's exact cosines and only which ids are looked at is approximate; from there the
 * rows are float16 (half the bytes), and a re-scored cosine differs from float32's by < 1e-4.
 *
 * Why this and not HNSW or IVF (measured on the scale bench's vectors, 2 cores): on sentence
 * vectors whose neighbours are only weakly similar (test-model top-10 cosine ≈ 0.33 against
 * 0.06 between random rows), an IVF of √n spherical k-means cells reached recall@10 0.87 at
 * 100k only when scanning 40 % of the rows (build 15 s); the `hnsw` package (M 16, efC 200)
 * took 376 s to build 20k rows and reached 0.944 at ef 400. The code scan builds in one pass
 * (~1 s per 100k rows), keeps every row reachable, and applies a filter exactly: disallowed
 * ids are skipped in the scan, so a filtered search is as good as an unfiltered one and needs
 * no fallback. Its cost stays linear: at 1M rows the scan loop takes 44–51 ms on an idle core
 * (micro-benchmark), 125–230 ms on 2 cores loaded by other jobs — half the byte-at-a-time float
 * loop it replaced, timed in the same process — against 1.0–2.2 s for the exact scan.
 *
 * Codes are computed lazily on the first search; μ and w are taken from the rows present
 * then, and recomputed (all codes re-encoded) whenever the index has doubled since.
 */
export class BitScanIndex implements VectorIndex {
  /** float32 rows while the index is small; null once the rows are compact. */
  private flat: FlatIndex | null;
  private compact: CompactRows | null = null;
  private readonly options: Required<BitScanOptions>;
  private readonly bits: 1 | 2;
  /** 32-bit code words per row: the code's bytes, 4 to a word (low byte first), padded to whole words. */
  private readonly words: number;
  private mean: Float32Array;
  /** Per dimension: mean |x − μ| (scales the query's table entries). */
  private spread: Float32Array;
  /**
   * Row i's code is words [i·words, (i+1)·words). Kept as words, not bytes, so the scan reads
   * 4 code bytes a load; they are packed with shifts (byte b of a word = bits 8b…8b+7), so
   * the layout does not depend on the platform's byte order.
   */
  private codes = new Uint32Array(0);
  private scale = new Float32Array(0);
  private encoded = 0;
  private statsAt = 0;

  constructor(
    readonly dim: number,
    options: BitScanOptions = {},
  ) {
    this.flat = new FlatIndex(dim);
    this.options = { exactBelow: 0, compactFrom: COMPACT_FROM, rows: 'float16', ...BIT_SCAN_DEFAULTS, ...options };
    // At least 256 bits per code: 1 bit per dimension from 256 dimensions, 2 below (a 128-dim
    // model's 128 sign bits left recall@10 at 0.90 where 2 bits reached 0.98+).
    this.bits = dim >= 256 ? 1 : 2;
    this.words = Math.ceil((dim * this.bits) / 32);
    this.mean = new Float32Array(dim);
    this.spread = new Float32Array(dim);
  }

  get size(): number {
    return this.flat ? this.flat.size : this.compact!.size;
  }

  /** How the rows are held now: float32, float16 or int8. */
  get rowFormat(): 'float32' | CompactKind {
    return this.compact ? this.compact.kind : 'float32';
  }

  /** Whether searches at the current size use the codes (else the exact scan). */
  get approximate(): boolean {
    return this.size >= Math.max(1, this.options.exactBelow) && this.size > this.options.rescore;
  }

  add(vectors: Float32Array): void {
    const d = this.dim;
    if (vectors.length % d !== 0) throw new Error(`vector data of length ${vectors.length} is not a multiple of the index dimension ${d}`);
    const total = this.size + vectors.length / d;
    const flat = this.flat;
    if (flat && total < Math.max(this.options.compactFrom, this.options.exactBelow)) return flat.add(vectors);
    if (!this.compact) this.compact = compactRows(this.options.rows, d, total);
    const rows = this.compact;
    rows.reserve(total);
    if (flat) {
      // The float32 rows (already normalised) move into the compact store, then are dropped.
      for (let i = 0; i < flat.size; i++) rows.push(flat.vector(i));
      this.flat = null;
    }
    const row = new Float32Array(d);
    for (let o = 0; o < vectors.length; o += d) {
      row.set(vectors.subarray(o, o + d));
      rows.push(l2normalize(row));
    }
  }

  /** The stored normalised row: a view of float32 rows, or a new array decoded from compact ones. */
  vector(id: number): Float32Array {
    return this.flat ? this.flat.vector(id) : this.compact!.decode(id);
  }

  search(query: Float32Array, k: number, allow?: Allow): Hit[] {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} dimensions; the index has ${this.dim}`);
    if (this.flat && (!this.approximate || k <= 0)) return this.flat.search(query, k, allow);
    if (k <= 0) return [];
    this.prepare();
    const n = this.size;
    const q = l2normalize(Float32Array.from(query));
    const shortList = new TopK(Math.min(n, Math.max(this.options.rescore, this.options.rescorePerK * k, k)));
    const table = this.tables(q);
    if (allow) this.scanAllowed(table, shortList, allow);
    else this.scan(table, shortList);
    const top = new TopK(Math.min(k, n));
    const flat = this.flat;
    const compact = this.compact;
    for (const { id } of shortList.result()) top.push(id, flat ? flat.score(q, id) : compact!.dot(q, id));
    return top.result();
  }

  /**
   * Every row's estimate into the short list. The estimate of row i is (Σ over its code bytes
   * of the Int16 table entries) × scale[i]: an integer sum, then one float multiply — the
   * tables' common factor does not change the order, so it is left out. Two rows an
   * iteration (their lookups interleave); the threshold is re-read only after a push.
   * Measured at 1M rows × 48 code bytes (Node, 2 loaded cores): 88–94 ms with one byte and
   * one Float32 lookup at a time, 44–51 ms like this.
   */
  private scan(table: Int16Array, shortList: TopK): void {
    const n = this.size;
    const W = this.words;
    const end = W * 1024;
    const codes = this.codes;
    const scale = this.scale;
    let threshold = shortList.threshold;
    let i = 0;
    for (; i + 1 < n; i += 2) {
      let a = i * W;
      let b = a + W;
      let s = 0;
      let r = 0;
      for (let t = 0; t < end; t += 1024) {
        const x = codes[a++]!;
        const y = codes[b++]!;
        s = (s + table[t + (x & 255)]! + table[t + 256 + ((x >>> 8) & 255)]! + table[t + 512 + ((x >>> 16) & 255)]! + table[t + 768 + (x >>> 24)]!) | 0;
        r = (r + table[t + (y & 255)]! + table[t + 256 + ((y >>> 8) & 255)]! + table[t + 512 + ((y >>> 16) & 255)]! + table[t + 768 + (y >>> 24)]!) | 0;
      }
      const e1 = s * scale[i]!;
      const e2 = r * scale[i + 1]!;
      if (e1 >= threshold) {
        shortList.push(i, e1);
        threshold = shortList.threshold;
      }
      if (e2 >= threshold) {
        shortList.push(i + 1, e2);
        threshold = shortList.threshold;
      }
    }
    if (i < n) this.scanAllowed(table, shortList, () => true, i);
  }

  /** scan() for the allowed rows only (from row `from`): disallowed rows are skipped, so a filter is exact. */
  private scanAllowed(table: Int16Array, shortList: TopK, allow: Allow, from = 0): void {
    const n = this.size;
    const W = this.words;
    const end = W * 1024;
    const codes = this.codes;
    const scale = this.scale;
    for (let i = from; i < n; i++) {
      if (!allow(i)) continue;
      let a = i * W;
      let s = 0;
      for (let t = 0; t < end; t += 1024) {
        const x = codes[a++]!;
        s = (s + table[t + (x & 255)]! + table[t + 256 + ((x >>> 8) & 255)]! + table[t + 512 + ((x >>> 16) & 255)]! + table[t + 768 + (x >>> 24)]!) | 0;
      }
      const e = s * scale[i]!;
      if (e >= shortList.threshold) shortList.push(i, e);
    }
  }

  /**
   * Table b, entry v: Σ over the dimensions of code byte b of q_j·w_j·level(field j of v),
   * rounded to Int16 after scaling the largest |entry| to 32,767: integer sums are faster than
   * float ones, and the rounding (≤ 1/65,534 of the largest entry per lookup) only moves
   * estimates that are re-scored exactly anyway. Padding bytes (past the last dimension) get 0.
   */
  private tables(q: Float32Array): Int16Array {
    const B = this.words * 4;
    const bits = this.bits;
    const per = 8 / bits;
    const mask = (1 << bits) - 1;
    const levels = LEVELS[bits]!;
    const out = new Float32Array(B * 256);
    const qw = new Float32Array(per);
    let max = 0;
    for (let b = 0; b < B; b++) {
      for (let f = 0; f < per; f++) {
        const j = b * per + f;
        qw[f] = j < this.dim ? q[j]! * this.spread[j]! : 0;
      }
      const t = b * 256;
      for (let v = 0; v < 256; v++) {
        let s = 0;
        for (let f = 0; f < per; f++) s += qw[f]! * levels[(v >> (f * bits)) & mask]!;
        out[t + v] = s;
        max = Math.max(max, Math.abs(s));
      }
    }
    const k = max > 0 ? 32767 / max : 0;
    const int = new Int16Array(out.length);
    for (let i = 0; i < out.length; i++) int[i] = Math.round(out[i]! * k);
    return int;
  }

  /** (Re)computes μ and w when the index has doubled since, and encodes rows not yet encoded. */
  private prepare(): void {
    const n = this.size;
    const d = this.dim;
    const scratch = new Float32Array(d);
    // Row i as float32: a view of the float32 rows, or decoded into one scratch row.
    const rowOf = this.flat ? (i: number) => this.flat!.vector(i) : (i: number) => this.compact!.decode(i, scratch);
    if (n >= 2 * this.statsAt) {
      const mean = new Float64Array(d);
      for (let i = 0; i < n; i++) {
        const row = rowOf(i);
        for (let j = 0; j < d; j++) mean[j]! += row[j]!;
      }
      for (let j = 0; j < d; j++) this.mean[j] = mean[j]! / n;
      const spread = new Float64Array(d);
      for (let i = 0; i < n; i++) {
        const row = rowOf(i);
        for (let j = 0; j < d; j++) spread[j]! += Math.abs(row[j]! - this.mean[j]!);
      }
      for (let j = 0; j < d; j++) this.spread[j] = spread[j]! / n || 1e-9;
      this.statsAt = n;
      this.encoded = 0;
    }
    if (this.encoded === n) return;
    const W = this.words;
    if (this.scale.length < n) {
      const cap = Math.max(n, this.scale.length * 2);
      const codes = new Uint32Array(cap * W);
      codes.set(this.codes.subarray(0, this.encoded * W));
      const scale = new Float32Array(cap);
      scale.set(this.scale.subarray(0, this.encoded));
      this.codes = codes;
      this.scale = scale;
    }
    if (this.bits === 1) return this.encodeSigns(rowOf, n);
    const { mean, spread, codes, scale, bits } = this;
    const per = 8 / bits;
    const levels = LEVELS[bits]!;
    const cuts = CUTS[bits]!;
    for (let i = this.encoded; i < n; i++) {
      const row = rowOf(i);
      // Per-row scale α: the least-squares fit of (x − μ) by α·w·level.
      let num = 0;
      let den = 0;
      let word = 0;
      for (let b = 0; b < 4 * W; b++) {
        let byte = 0;
        for (let f = 0; f < per; f++) {
          const j = b * per + f;
          if (j >= d) break;
          const r = row[j]! - mean[j]!;
          const u = r / spread[j]!;
          let c = 0;
          while (c < cuts.length && u > cuts[c]!) c++;
          byte |= c << (f * bits);
          const rec = levels[c]! * spread[j]!;
          num += r * rec;
          den += rec * rec;
        }
        word |= byte << (8 * (b & 3));
        if ((b & 3) === 3) {
          codes[i * W + (b >> 2)] = word; // Uint32Array storage takes the sign bit as bit 31
          word = 0;
        }
      }
      scale[i] = den > 0 ? num / den : 0;
    }
    this.encoded = n;
  }

  /**
   * The 1-bit case of prepare()'s encoding, without its division and level lookups per value
   * (the first search at 1M sentences: 21.1 → 17.3 s in Node): with levels ±1 the bit is r > 0 (u = r / w_j keeps r's sign), α's
   * numerator gains |r|·w_j and its denominator Σ w_j² is the same for every row — the same
   * codes and scales, bit for bit, as the general loop (tested).
   */
  private encodeSigns(rowOf: (i: number) => Float32Array, n: number): void {
    const { mean, spread, codes, scale } = this;
    const W = this.words;
    const d = this.dim;
    let den = 0;
    for (let j = 0; j < d; j++) den += spread[j]! * spread[j]!;
    for (let i = this.encoded; i < n; i++) {
      const row = rowOf(i);
      let num = 0;
      for (let w = 0; w < W; w++) {
        let word = 0;
        const end = Math.min(d, 32 * w + 32);
        for (let j = 32 * w; j < end; j++) {
          const r = row[j]! - mean[j]!;
          if (r > 0) word |= 1 << (j & 31);
          num += Math.abs(r) * spread[j]!;
        }
        codes[i * W + w] = word;
      }
      scale[i] = den > 0 ? num / den : 0;
    }
    this.encoded = n;
  }

  /** The rows (float32 or compact) plus the codes, per-row scales, μ and w. */
  memoryBytes(): number {
    return (this.flat ? this.flat.memoryBytes() : this.compact!.bytes()) + this.codes.byteLength + this.scale.byteLength + this.mean.byteLength + this.spread.byteLength;
  }
}
