import { dot, type VectorIndex } from '../index/vector-index';

/**
 * How coherent a block over sentences [start, end) is (seed: the information content of a
 * window): the mean cosine of its sentences with the query, and the mean pairwise cosine
 * among them, from the sentence vectors. Null without vectors for all its sentences. Pairs
 * are sampled evenly above 40 sentences so a long parent stays cheap.
 */
export function blockCoherence(sentences: VectorIndex, query: Float32Array, start: number, end: number): { toQuery: number; internal: number | null } | null {
  if (end > sentences.size) return null;
  const step = Math.max(1, Math.ceil((end - start) / 40));
  const ids: number[] = [];
  for (let i = start; i < end; i += step) ids.push(i);
  // Each vector read once: a compact index decodes a fresh copy on every vector() call.
  const vs = ids.map((i) => sentences.vector(i));
  const toQuery = vs.reduce((s, v) => s + dot(query, v), 0) / vs.length;
  if (vs.length < 2) return { toQuery, internal: null };
  let sum = 0;
  let n = 0;
  for (let a = 0; a < vs.length; a++) for (let b = a + 1; b < vs.length; b++) (sum += dot(vs[a]!, vs[b]!)), n++;
  return { toQuery, internal: sum / n };
}
