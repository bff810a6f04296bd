/**
 * Placing a vector that was not part of a projection's fit (the query; sentences left out
 * of a subsampled UMAP fit): at the similarity-weighted mean of the map positions of its k
 * nearest fitted vectors. Vectors are unit length (the embedder normalises), so the dot
 * product is the cosine. Weights are max(cos, 0) + 1e-6, so an orthogonal neighbour still
 * counts a little and the result is always defined.
 */
import { TopK } from '../index/top-k';

/** Dot product of row i of `data` with q. */
export function rowDot(data: Float32Array, i: number, dim: number, q: Float32Array, qo = 0): number {
  const o = i * dim;
  let s = 0;
  for (let j = 0; j < dim; j++) s += data[o + j]! * q[qo + j]!;
  return s;
}

/**
 * The k rows (of `among`, or of all n rows) most similar to q, best first, with their
 * cosines. Ties keep the smaller row id first.
 */
export function nearestRows(data: Float32Array, dim: number, q: Float32Array, k: number, among: ArrayLike<number> | number, qo = 0): { ids: number[]; sims: number[] } {
  const n = typeof among === 'number' ? among : among.length;
  const top = new TopK(Math.min(k, n), true);
  for (let r = 0; r < n; r++) {
    const id = typeof among === 'number' ? r : among[r]!;
    const s = rowDot(data, id, dim, q, qo);
    if (s >= top.threshold) top.push(id, s);
  }
  const best = top.result();
  return { ids: best.map((h) => h.id), sims: best.map((h) => h.score) };
}

/** Weighted mean of the neighbours' positions (xy: 2 values per row id). */
export function weightedPosition(xy: Float32Array, ids: number[], sims: number[]): [number, number] {
  let x = 0;
  let y = 0;
  let w = 0;
  for (let i = 0; i < ids.length; i++) {
    const wi = Math.max(0, sims[i]!) + 1e-6;
    x += wi * xy[2 * ids[i]!]!;
    y += wi * xy[2 * ids[i]! + 1]!;
    w += wi;
  }
  return w > 0 ? [x / w, y / w] : [0, 0];
}

/**
 * Where a new vector q lands on a map: the weighted mean of its k nearest rows' positions
 * (rows limited to `among` when given, e.g. the fitted subsample).
 */
export function placeByNeighbours(data: Float32Array, dim: number, xy: Float32Array, q: Float32Array, k: number, among: ArrayLike<number> | number): { xy: [number, number]; neighbours: number[] } {
  const { ids, sims } = nearestRows(data, dim, q, k, among);
  return { xy: weightedPosition(xy, ids, sims), neighbours: ids };
}

/** Cosine of q with every row (unit vectors: the dot product), for hover and tests. */
export function cosineToAll(data: Float32Array, n: number, dim: number, q: Float32Array): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rowDot(data, i, dim, q);
  return out;
}
