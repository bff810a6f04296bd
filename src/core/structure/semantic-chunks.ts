/**
 * Semantic chunks, as LlamaIndex's SemanticSplitterNodeParser makes them
 * (llama-index-core/node_parser/text/semantic_splitter.py), per document: each sentence is
 * embedded together with `buffer` neighbours on each side (`_build_sentence_groups`'
 * combined_sentence); distance_i = 1 − cosine(e_i, e_{i+1}); the threshold is numpy's
 * default (linear) percentile of the document's distances; a chunk ends after sentence i
 * wherever distance_i > threshold (strictly); a document without distances (one sentence)
 * is one chunk. The pure parts are here; the engine embeds the buffered texts.
 *
 * Where the lab differs: its sentences are its corpus sentences (not nltk's), and a combined
 * text is the document's text from the first to the last sentence of the buffer — the same
 * text LlamaIndex joins, since its sentences keep their trailing whitespace. Contextual
 * headers are not part of it: the breakpoints depend on the model and these parameters only.
 */
export interface SemanticChunkParams {
  /** Neighbours on each side embedded with a sentence (LlamaIndex buffer_size, default 1). */
  buffer: number;
  /** Percentile of the document's distances a break must exceed (breakpoint_percentile_threshold, default 95). */
  percentile: number;
}

export const DEFAULT_SEMANTIC: SemanticChunkParams = { buffer: 1, percentile: 95 };

/** Throws a RangeError naming the field. */
export function validateSemantic(p: SemanticChunkParams): void {
  if (!Number.isInteger(p.buffer) || p.buffer < 0) throw new RangeError(`semantic.buffer must be a whole number of sentences ≥ 0, got ${p.buffer}`);
  if (!Number.isFinite(p.percentile) || p.percentile < 0 || p.percentile > 100) throw new RangeError(`semantic.percentile must be a number in [0, 100], got ${p.percentile}`);
}

/** The sentences [start, end) embedded together for each of `n` sentences: i − buffer … i + buffer, clipped. */
export function bufferedRanges(n: number, buffer: number): [number, number][] {
  return Array.from({ length: n }, (_, i) => [Math.max(0, i - buffer), Math.min(n, i + buffer + 1)]);
}

/**
 * numpy.percentile(values, q) with its default method ('linear'): the sorted values at the
 * virtual index q/100 · (n − 1), interpolated with numpy's `_lerp` (which computes from the
 * upper value when the fraction is ≥ 0.5, so results match it to the last bit).
 */
export function percentileLinear(values: readonly number[], q: number): number {
  if (!values.length) throw new RangeError('percentile of no values');
  const a = [...values].sort((x, y) => x - y);
  const n = a.length;
  const virtual = (q / 100) * (n - 1);
  const lo = Math.min(Math.max(Math.floor(virtual), 0), n - 1);
  const hi = Math.min(lo + 1, n - 1);
  const t = virtual - lo;
  const x = a[lo]!;
  const y = a[hi]!;
  const diff = y - x;
  return t >= 0.5 ? y - diff * (1 - t) : x + diff * t;
}

/** Cosine distance 1 − cos(a, b) of rows i and i + 1, for every neighbouring pair of `n` row-major vectors. */
export function neighbourDistances(vectors: Float32Array, dim: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < n; i++) {
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let k = 0; k < dim; k++) {
      const a = vectors[i * dim + k]!;
      const b = vectors[(i + 1) * dim + k]!;
      ab += a * b;
      aa += a * a;
      bb += b * b;
    }
    const denom = Math.sqrt(aa) * Math.sqrt(bb);
    out.push(1 - (denom > 0 ? ab / denom : 0));
  }
  return out;
}

/**
 * The chunks of one document of `n` sentences from its n − 1 neighbour distances: sentence
 * ranges [start, end) counted from the document's first sentence, tiling [0, n).
 */
export function semanticGroups(n: number, distances: readonly number[], percentile: number): { start: number; end: number }[] {
  if (n === 0) return [];
  if (distances.length !== n - 1) throw new RangeError(`${n} sentences need ${n - 1} distances, got ${distances.length}`);
  if (!distances.length) return [{ start: 0, end: n }];
  const threshold = percentileLinear(distances, percentile);
  const out: { start: number; end: number }[] = [];
  let start = 0;
  distances.forEach((d, i) => {
    if (d > threshold) {
      out.push({ start, end: i + 1 });
      start = i + 1;
    }
  });
  if (start < n) out.push({ start, end: n });
  return out;
}
