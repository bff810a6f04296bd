/**
 * Principal component analysis to two dimensions by subspace (block power) iteration, in
 * plain TypeScript: the instant first view of the corpus map. The covariance matrix is
 * never formed: each iteration multiplies by Xᵀ(X·V) over the centred rows, so the cost
 * is O(iterations × rows × dim). For large sets the components are fitted on an evenly
 * spaced subsample (`maxFit` rows); every row is then projected exactly.
 *
 * Sign convention: each component's entry of largest magnitude is positive (the first such
 * entry on ties), so the same data always gives the same picture, never a mirrored one.
 */
import { mulberry32 } from '../util/random';

export interface PcaModel {
  dim: number;
  /** Mean of the fitted rows (length dim). */
  mean: Float64Array;
  /** The two unit components, row-major: component c is components[c*dim .. (c+1)*dim). */
  components: Float64Array;
  /** Variance along each component (descending). */
  variances: [number, number];
  /** Rows the components were fitted on (all of them unless subsampled). */
  fitted: number;
  iterations: number;
}

export interface PcaOptions {
  /** Fit on at most this many evenly spaced rows (default 10,000). */
  maxFit?: number;
  /** Iteration cap (default 60). */
  maxIterations?: number;
  /** Stop when the subspace moves less than this (default 1e-8). */
  tolerance?: number;
  seed?: number;
}

/** Evenly spaced row ids: all of 0..n-1 when n ≤ max. */
export function evenSample(n: number, max: number): Int32Array {
  if (n <= max) return Int32Array.from({ length: n }, (_, i) => i);
  const out = new Int32Array(max);
  for (let i = 0; i < max; i++) out[i] = Math.floor((i * n) / max);
  return out;
}

/** Fits the first two principal components of `n` rows of `dim` values. */
export function fitPca(data: Float32Array, n: number, dim: number, options: PcaOptions = {}): PcaModel {
  if (data.length < n * dim) throw new Error(`pca: ${data.length} values for ${n} rows of ${dim}`);
  const rows = evenSample(n, options.maxFit ?? 10_000);
  const m = rows.length;
  const mean = new Float64Array(dim);
  for (let r = 0; r < m; r++) {
    const o = rows[r]! * dim;
    for (let j = 0; j < dim; j++) mean[j]! += data[o + j]!;
  }
  if (m) for (let j = 0; j < dim; j++) mean[j]! /= m;
  const components = new Float64Array(2 * dim);
  if (m < 2 || dim === 0) {
    if (dim > 0) components[0] = 1;
    if (dim > 1) components[dim + 1] = 1;
    return { dim, mean, components, variances: [0, 0], fitted: m, iterations: 0 };
  }
  const k = Math.min(2, dim);
  // V: k unit vectors in dim space, seeded.
  const rnd = mulberry32(options.seed ?? 1);
  let V: Float64Array = new Float64Array(k * dim);
  for (let i = 0; i < V.length; i++) V[i] = rnd() * 2 - 1;
  orthonormalize(V, k, dim);
  const maxIt = options.maxIterations ?? 60;
  const tol = options.tolerance ?? 1e-8;
  const proj = new Float64Array(k);
  let it = 0;
  for (; it < maxIt; it++) {
    const W = covTimes(data, rows, dim, mean, V, k, proj);
    orthonormalize(W, k, dim);
    // Convergence: 1 − |<v_c, w_c>| after alignment of the subspace, summed.
    let moved = 0;
    for (let c = 0; c < k; c++) {
      let d = 0;
      for (let j = 0; j < dim; j++) d += V[c * dim + j]! * W[c * dim + j]!;
      moved += 1 - Math.abs(d);
    }
    V = W;
    if (moved < tol) {
      it++;
      break;
    }
  }
  // Rayleigh–Ritz: the 2×2 matrix T = Vᵀ C V, diagonalised, orders and rotates the pair.
  const CV = covTimes(data, rows, dim, mean, V, k, proj);
  let variances: [number, number] = [0, 0];
  if (k === 2) {
    const t00 = dotAt(V, 0, CV, 0, dim);
    const t11 = dotAt(V, dim, CV, dim, dim);
    const t01 = (dotAt(V, 0, CV, dim, dim) + dotAt(V, dim, CV, 0, dim)) / 2;
    const tr = (t00 + t11) / 2;
    const disc = Math.sqrt(((t00 - t11) / 2) ** 2 + t01 * t01);
    const l1 = tr + disc;
    const l2 = tr - disc;
    // Eigenvector of T for l1.
    let a: number;
    let b: number;
    if (Math.abs(t01) > 1e-300) {
      a = l1 - t11;
      b = t01;
    } else if (t00 >= t11) {
      a = 1;
      b = 0;
    } else {
      a = 0;
      b = 1;
    }
    const nrm = Math.hypot(a, b);
    a /= nrm;
    b /= nrm;
    for (let j = 0; j < dim; j++) {
      const v0 = V[j]!;
      const v1 = V[dim + j]!;
      components[j] = a * v0 + b * v1;
      components[dim + j] = -b * v0 + a * v1;
    }
    variances = [Math.max(0, l1), Math.max(0, l2)];
  } else {
    components.set(V.subarray(0, dim));
    variances = [Math.max(0, dotAt(V, 0, CV, 0, dim)), 0];
  }
  for (let c = 0; c < 2; c++) fixSign(components, c * dim, dim);
  return { dim, mean, components, variances, fitted: m, iterations: it };
}

/** Projects every row onto the two components: xy[2i], xy[2i+1]. */
export function projectPca(model: PcaModel, data: Float32Array, n: number): Float32Array {
  const { dim, mean, components } = model;
  const xy = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const o = i * dim;
    let x = 0;
    let y = 0;
    for (let j = 0; j < dim; j++) {
      const v = data[o + j]! - mean[j]!;
      x += v * components[j]!;
      y += v * components[dim + j]!;
    }
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
  }
  return xy;
}

/** The exact PCA position of one more vector (the query). */
export function projectPcaPoint(model: PcaModel, v: Float32Array): [number, number] {
  const { dim, mean, components } = model;
  let x = 0;
  let y = 0;
  for (let j = 0; j < dim; j++) {
    const d = v[j]! - mean[j]!;
    x += d * components[j]!;
    y += d * components[dim + j]!;
  }
  return [x, y];
}

/**
 * C·V for the centred sample rows, C = XcᵀXc / (m − 1), without forming C or copying rows:
 * p = (x − μ)·v per row, then W += p·x, and since Σp = 0 exactly in real arithmetic,
 * μ·Σp is subtracted to keep the result exact in floating point too.
 */
function covTimes(data: Float32Array, rows: Int32Array, dim: number, mean: Float64Array, V: Float64Array, k: number, _proj: Float64Array): Float64Array {
  const W = new Float64Array(k * dim);
  const m = rows.length;
  const mv0 = dotAt(mean, 0, V, 0, dim);
  const mv1 = k > 1 ? dotAt(mean, 0, V, dim, dim) : 0;
  let sum0 = 0;
  let sum1 = 0;
  for (let r = 0; r < m; r++) {
    const o = rows[r]! * dim;
    let s0 = 0;
    let s1 = 0;
    if (k > 1) {
      for (let j = 0; j < dim; j++) {
        const x = data[o + j]!;
        s0 += x * V[j]!;
        s1 += x * V[dim + j]!;
      }
    } else {
      for (let j = 0; j < dim; j++) s0 += data[o + j]! * V[j]!;
    }
    const p0 = s0 - mv0;
    const p1 = s1 - mv1;
    sum0 += p0;
    sum1 += p1;
    if (k > 1) {
      for (let j = 0; j < dim; j++) {
        const x = data[o + j]!;
        W[j]! += p0 * x;
        W[dim + j]! += p1 * x;
      }
    } else {
      for (let j = 0; j < dim; j++) W[j]! += p0 * data[o + j]!;
    }
  }
  for (let j = 0; j < dim; j++) {
    W[j]! -= sum0 * mean[j]!;
    if (k > 1) W[dim + j]! -= sum1 * mean[j]!;
  }
  const scale = 1 / Math.max(1, m - 1);
  for (let i = 0; i < W.length; i++) W[i]! *= scale;
  return W;
}

function dotAt(a: Float64Array, ao: number, b: Float64Array, bo: number, dim: number): number {
  let s = 0;
  for (let j = 0; j < dim; j++) s += a[ao + j]! * b[bo + j]!;
  return s;
}

/** Gram–Schmidt in place; a vector that collapses is replaced by a unit axis orthogonal to the others. */
function orthonormalize(V: Float64Array, k: number, dim: number): void {
  for (let c = 0; c < k; c++) {
    const o = c * dim;
    for (let p = 0; p < c; p++) {
      const d = dotAt(V, o, V, p * dim, dim);
      for (let j = 0; j < dim; j++) V[o + j]! -= d * V[p * dim + j]!;
    }
    let n = Math.sqrt(dotAt(V, o, V, o, dim));
    if (n < 1e-12) {
      // Degenerate (rank-deficient data): any direction orthogonal to the previous ones.
      for (let axis = 0; axis < dim && n < 1e-12; axis++) {
        V.fill(0, o, o + dim);
        V[o + axis] = 1;
        for (let p = 0; p < c; p++) {
          const d = dotAt(V, o, V, p * dim, dim);
          for (let j = 0; j < dim; j++) V[o + j]! -= d * V[p * dim + j]!;
        }
        n = Math.sqrt(dotAt(V, o, V, o, dim));
      }
    }
    for (let j = 0; j < dim; j++) V[o + j]! /= n;
  }
}

function fixSign(C: Float64Array, o: number, dim: number): void {
  let best = 0;
  for (let j = 1; j < dim; j++) if (Math.abs(C[o + j]!) > Math.abs(C[o + best]!) + 1e-12) best = j;
  if (C[o + best]! < 0) for (let j = 0; j < dim; j++) C[o + j] = -C[o + j]!;
}
