/**
 * Pooling, Matryoshka truncation and normalisation on plain arrays. transformers.js' pipeline
 * pools 'mean' and 'cls', but its 'last_token' takes the last position, which is padding for
 * every shorter text in a right-padded batch; these work from the attention mask instead, so
 * every pooling reads the same mask and is tested with exact values.
 */
import type { Pooling } from './presets';

/**
 * One vector per row of `hidden` ([batch, seq, dim] row-major) with `mask` ([batch, seq], 1 for a
 * real token): the mean of real tokens, the first token, or the last real token (left or right
 * padding alike). A row with no real token gives zeros.
 */
export function poolTokens(hidden: Float32Array, mask: ArrayLike<number | bigint>, batch: number, seq: number, dim: number, pooling: Exclude<Pooling, 'model'>): Float32Array {
  const out = new Float32Array(batch * dim);
  for (let b = 0; b < batch; b++) {
    const o = out.subarray(b * dim, (b + 1) * dim);
    if (pooling === 'cls') {
      o.set(hidden.subarray(b * seq * dim, b * seq * dim + dim));
      continue;
    }
    if (pooling === 'last') {
      let last = -1;
      for (let t = 0; t < seq; t++) if (Number(mask[b * seq + t]) !== 0) last = t;
      if (last >= 0) o.set(hidden.subarray((b * seq + last) * dim, (b * seq + last + 1) * dim));
      continue;
    }
    let n = 0;
    for (let t = 0; t < seq; t++) {
      if (Number(mask[b * seq + t]) === 0) continue;
      n++;
      const h = hidden.subarray((b * seq + t) * dim, (b * seq + t + 1) * dim);
      for (let d = 0; d < dim; d++) o[d]! += h[d]!;
    }
    if (n > 0) for (let d = 0; d < dim; d++) o[d]! /= n;
  }
  return out;
}

/**
 * Rows of `dim` floats cut to their first `keep` dimensions (Matryoshka), optionally after a
 * layer norm over the full row (nomic-embed-text-v1.5), then L2-normalised. A zero row (no
 * meaningful token) stays zero rather than becoming NaN.
 */
export function finishVectors(rows: Float32Array, dim: number, keep = dim, options: { layerNorm?: boolean; normalize?: boolean } = {}): Float32Array {
  const n = rows.length / dim;
  const out = new Float32Array(n * keep);
  for (let i = 0; i < n; i++) {
    const src = rows.subarray(i * dim, (i + 1) * dim);
    const dst = out.subarray(i * keep, (i + 1) * keep);
    if (options.layerNorm) {
      let mean = 0;
      for (let d = 0; d < dim; d++) mean += src[d]!;
      mean /= dim;
      let v = 0;
      for (let d = 0; d < dim; d++) v += (src[d]! - mean) ** 2;
      const inv = 1 / Math.sqrt(v / dim + 1e-5);
      for (let d = 0; d < keep; d++) dst[d] = (src[d]! - mean) * inv;
    } else dst.set(src.subarray(0, keep));
    if (options.normalize === false) continue;
    let s = 0;
    for (let d = 0; d < keep; d++) s += dst[d]! * dst[d]!;
    if (!(s > 0) || !Number.isFinite(s)) {
      dst.fill(0);
      continue;
    }
    const inv = 1 / Math.sqrt(s);
    for (let d = 0; d < keep; d++) dst[d]! *= inv;
  }
  return out;
}
