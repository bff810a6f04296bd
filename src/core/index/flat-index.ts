import { TopK } from './top-k';
import { type Allow, type Hit, type VectorIndex, l2normalize } from './vector-index';

/**
 * Exact search: one contiguous Float32Array of L2-normalised rows, scanned with a dot
 * product (= cosine) and a top-k heap. At 100k × 384 this is a ~40 ms scan in a
 * browser worker; it is the reference every approximate index is checked against.
 */
export class FlatIndex implements VectorIndex {
  private data: Float32Array;
  private count = 0;

  constructor(
    readonly dim: number,
    initialCapacity = 1024,
  ) {
    if (!Number.isInteger(dim) || dim < 1) throw new Error(`invalid vector dimension ${dim}`);
    this.data = new Float32Array(dim * Math.max(1, initialCapacity));
  }

  get size(): number {
    return this.count;
  }

  add(vectors: Float32Array): void {
    if (vectors.length % this.dim !== 0) {
      throw new Error(`vector data of length ${vectors.length} is not a multiple of the index dimension ${this.dim}`);
    }
    const n = vectors.length / this.dim;
    const need = (this.count + n) * this.dim;
    if (need > this.data.length) {
      const grown = new Float32Array(Math.max(need, this.data.length * 2));
      grown.set(this.data.subarray(0, this.count * this.dim));
      this.data = grown;
    }
    this.data.set(vectors, this.count * this.dim);
    for (let i = 0; i < n; i++) {
      l2normalize(this.data.subarray((this.count + i) * this.dim, (this.count + i + 1) * this.dim));
    }
    this.count += n;
  }

  /** The stored (normalised) vector of `id`: a view, not a copy. */
  vector(id: number): Float32Array {
    return this.data.subarray(id * this.dim, (id + 1) * this.dim);
  }

  /** All stored rows, row-major (a view until the next add; do not modify). */
  rows(): Float32Array {
    return this.data.subarray(0, this.count * this.dim);
  }

  /** Cosine of the query with one stored vector. */
  score(query: Float32Array, id: number): number {
    const d = this.dim;
    const off = id * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += query[j]! * this.data[off + j]!;
    return s;
  }

  search(query: Float32Array, k: number, allow?: Allow): Hit[] {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} dimensions; the index has ${this.dim}`);
    const q = l2normalize(Float32Array.from(query));
    const top = new TopK(Math.min(k, this.count));
    const d = this.dim;
    const data = this.data;
    for (let i = 0; i < this.count; i++) {
      if (allow && !allow(i)) continue;
      const off = i * d;
      let s = 0;
      for (let j = 0; j < d; j++) s += q[j]! * data[off + j]!;
      if (s >= top.threshold) top.push(i, s);
    }
    return top.result();
  }

  memoryBytes(): number {
    return this.data.byteLength;
  }
}
