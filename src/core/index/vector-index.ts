/** A scored hit from any index. `id` is the unit's index (sentence, leaf or chunk). */
export interface Hit {
  id: number;
  score: number;
}

/** Restricts a search to allowed units (metadata filters apply before ranking). */
export type Allow = (id: number) => boolean;

/** Exact or approximate nearest neighbours by cosine similarity over unit vectors. */
export interface VectorIndex {
  readonly dim: number;
  readonly size: number;
  /** Appends vectors (row-major, `dim` per row) for ids size … size+n-1. */
  add(vectors: Float32Array): void | Promise<void>;
  search(query: Float32Array, k: number, allow?: Allow): Hit[];
  /** The stored, normalised vector of one unit (a view; do not modify). */
  vector(id: number): Float32Array;
  /** Bytes held for the vectors and any index structure. */
  memoryBytes(): number;
}

export function l2normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n > 0 && Math.abs(n - 1) > 1e-6) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** The dot product of two vectors of one dimension (the cosine, for normalised vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
}

/** Rows of an index copied into one row-major array: all of them, or the id ranges [a, b) given, in order. */
export function flattenRows(idx: VectorIndex, ranges: readonly (readonly [number, number])[] = [[0, idx.size]]): Float32Array {
  const count = ranges.reduce((n, [a, b]) => n + Math.max(0, b - a), 0);
  const out = new Float32Array(count * idx.dim);
  let row = 0;
  for (const [a, b] of ranges) for (let id = a; id < b; id++) out.set(idx.vector(id), row++ * idx.dim);
  return out;
}
