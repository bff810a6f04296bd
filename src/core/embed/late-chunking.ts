/**
 * Late chunking (Günther et al. 2024, arXiv 2409.04701; jina-ai/late-chunking): a document's
 * tokens run through the model in long spans, and each unit's vector is the mean of its own
 * token vectors, so a unit is embedded with the text around it ("it" knows what it refers to).
 * Here: where the spans go, which span each unit is pooled from, and the pooling itself — pure
 * arithmetic on token counts and arrays. The model runs in late-embed.ts.
 */
import type { Embedder, LateChunkingSupport } from './embedder';
import type { EmbeddingPreset } from './presets';

/** A token range [start, end) over a document's token stream (its pieces' tokens, concatenated). */
export interface TokenRange {
  start: number;
  end: number;
}

/** Part of a unit read from one span's token vectors: document tokens [start, end). */
export interface UnitPiece extends TokenRange {
  span: number;
}

/**
 * Longest span by default, in tokens, special tokens and prefix included, even for 8,192-token
 * models: an encoder's attention holds heads × L² scores per layer, ~3 GB at L = 8,192 with 12
 * heads — more than a browser tab's WebAssembly memory (4 GB, shared with everything else) —
 * and 200 MB at 2,048. Raise it per run (LateEmbedOptions.spanTokens) where memory allows.
 */
export const DEFAULT_LATE_SPAN_TOKENS = 2048;

/**
 * Default overlap: an eighth of a span's content, floored. A unit up to that long (a sentence,
 * a small chunk) then lies whole inside some span wherever it falls, and spans still advance
 * 7/8 of their length, so a document costs at most 8/7 of its tokens in forward passes.
 */
export function defaultOverlap(spanContent: number): number {
  return Math.floor(spanContent / 8);
}

function wholeAtLeast(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be a whole number ≥ ${min}, got ${v}`);
}

/**
 * Spans of at most `spanContent` tokens covering [0, total): the first starts at 0, each next one
 * `spanContent − overlap` tokens later, the last ends at `total` (and may be shorter). An empty
 * document has none; one that fits has one.
 */
export function planSpans(total: number, spanContent: number, overlap: number): TokenRange[] {
  wholeAtLeast('the document length in tokens', total, 0);
  wholeAtLeast('the span length in tokens', spanContent, 1);
  wholeAtLeast('the overlap in tokens', overlap, 0);
  if (overlap >= spanContent) throw new Error(`the overlap (${overlap} tokens) must be shorter than a span (${spanContent} tokens)`);
  const spans: TokenRange[] = [];
  for (let start = 0; start < total; start += spanContent - overlap) {
    const end = Math.min(total, start + spanContent);
    spans.push({ start, end });
    if (end === total) break;
  }
  return spans;
}

/**
 * The pieces a unit is pooled from. A unit inside one or more spans is read whole from the one
 * where it sits most centrally (the larger of its smaller margins; ties to the earlier span).
 * A unit inside none — longer than the overlap and across a span edge, or longer than a span —
 * is read in pieces: each token from the span that owns it, consecutive spans splitting their
 * overlap in the middle (the earlier keeps ⌊overlap/2⌋). Its mean over all pieces is then the
 * token-count weighted mean of the pieces' means: nothing is cut. An empty unit has no piece
 * (its vector is zero, as an empty text's is).
 */
export function unitPieces(spans: readonly TokenRange[], unit: TokenRange): UnitPiece[] {
  if (unit.end <= unit.start) return [];
  let best = -1;
  let bestMargin = -1;
  spans.forEach((s, i) => {
    if (s.start > unit.start || s.end < unit.end) return;
    const margin = Math.min(unit.start - s.start, s.end - unit.end);
    if (margin > bestMargin) [best, bestMargin] = [i, margin];
  });
  if (best >= 0) return [{ span: best, start: unit.start, end: unit.end }];
  const pieces: UnitPiece[] = [];
  for (let i = 0; i < spans.length; i++) {
    const from = i === 0 ? spans[0]!.start : ownStart(spans, i);
    const to = i + 1 < spans.length ? ownStart(spans, i + 1) : spans[i]!.end;
    const start = Math.max(from, unit.start);
    const end = Math.min(to, unit.end);
    if (end > start) pieces.push({ span: i, start, end });
  }
  return pieces;
}

/** Where span i's own tokens begin: the middle of its overlap with span i − 1. */
function ownStart(spans: readonly TokenRange[], i: number): number {
  const shared = Math.max(0, spans[i - 1]!.end - spans[i]!.start);
  return spans[i]!.start + Math.floor(shared / 2);
}

export interface LatePlan {
  spans: TokenRange[];
  /** Per unit, in order: the pieces it is pooled from. */
  pieces: UnitPiece[][];
  /** Units pooled from more than one span. */
  acrossSpans: number[];
}

/** Spans over a document of `total` tokens and the pieces of each unit (token ranges over it). */
export function planLateChunks(total: number, units: readonly TokenRange[], spanContent: number, overlap = defaultOverlap(spanContent)): LatePlan {
  const spans = planSpans(total, spanContent, overlap);
  units.forEach((u, i) => {
    if (!Number.isInteger(u.start) || !Number.isInteger(u.end) || u.start < 0 || u.end < u.start || u.end > total) {
      throw new Error(`unit ${i} has the token range [${u.start}, ${u.end}), not inside the document's ${total} tokens`);
    }
  });
  const pieces = units.map((u) => unitPieces(spans, u));
  const acrossSpans = pieces.flatMap((p, i) => (p.length > 1 ? [i] : []));
  return { spans, pieces, acrossSpans };
}

/**
 * Where to cut a document's text so that its pieces, tokenized one by one and concatenated,
 * give every unit a token range: at 0, the end, and every unit's start and end (sorted, once
 * each). Tokenizing by pieces rather than mapping characters to tokens is what the design notes
 * ask for; overlapping units (packed or naive chunks with overlap) share pieces, and text outside
 * every unit is kept, so the model reads the document as it is. Throws on a span outside the text.
 */
export function pieceCuts(textLength: number, units: readonly TokenRange[]): number[] {
  const cuts = new Set([0, textLength]);
  units.forEach((u, i) => {
    if (!Number.isInteger(u.start) || !Number.isInteger(u.end) || u.start < 0 || u.end < u.start || u.end > textLength) {
      throw new Error(`unit ${i} has the character span [${u.start}, ${u.end}), not inside its document's ${textLength} characters`);
    }
    cuts.add(u.start).add(u.end);
  });
  return [...cuts].sort((a, b) => a - b);
}

/** Each unit's token range, from the cuts and the token count of each piece between consecutive cuts. */
export function unitTokenRanges(cuts: readonly number[], pieceTokens: readonly number[], units: readonly TokenRange[]): { total: number; ranges: TokenRange[] } {
  if (pieceTokens.length !== cuts.length - 1) throw new Error(`${pieceTokens.length} token counts for ${cuts.length - 1} pieces`);
  const at = new Map<number, number>();
  let total = 0;
  cuts.forEach((c, i) => {
    at.set(c, total);
    if (i < pieceTokens.length) total += pieceTokens[i]!;
  });
  return { total, ranges: units.map((u) => ({ start: at.get(u.start)!, end: at.get(u.end)! })) };
}

/** Adds token vectors [from, to) of `rows` (row-major, `dim` floats per token) into `sum`. */
export function addRows(sum: Float32Array, rows: Float32Array, dim: number, from: number, to: number): void {
  for (let t = from; t < to; t++) {
    const o = t * dim;
    for (let d = 0; d < dim; d++) sum[d]! += rows[o + d]!;
  }
}

/** L2-normalises in place; a zero (or non-finite) vector becomes zeros rather than NaN. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let s = 0;
  for (let d = 0; d < v.length; d++) s += v[d]! * v[d]!;
  if (!(s > 0) || !Number.isFinite(s)) return v.fill(0);
  const inv = 1 / Math.sqrt(s);
  for (let d = 0; d < v.length; d++) v[d]! *= inv;
  return v;
}

/** The mean of token vectors [start, end) of `tokenVectors` (row-major, `dim` per token), L2-normalised; an empty range gives zeros. */
export function poolRange(tokenVectors: Float32Array, dim: number, start: number, end: number): Float32Array {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end * dim > tokenVectors.length) {
    throw new Error(`token range [${start}, ${end}) is not inside ${tokenVectors.length / dim} token vectors`);
  }
  const sum = new Float32Array(dim);
  addRows(sum, tokenVectors, dim, start, end);
  // The mean's direction is the sum's: dividing first only matters for the rounding.
  if (end > start) for (let d = 0; d < dim; d++) sum[d]! /= end - start;
  return normalizeInPlace(sum);
}

/**
 * Late chunking for a transformer preset: available for token-pooling models (mean, CLS, last),
 * recommended for the long-context ones; not for static models (a token's vector ignores the
 * others: the vectors would be the plain ones) nor a model whose vectors come out of dense
 * layers inside its graph (its token outputs are not in the vectors' space).
 */
export function transformerLateSupport(p: EmbeddingPreset, maxTokens: number): LateChunkingSupport {
  if (p.architecture === 'static') return { available: false, reason: `late chunking is not available for ${p.id}: it is a static model, each token's vector ignores the text around it, so late-chunked vectors would be its plain vectors` };
  if (p.pooling === 'model') return { available: false, reason: `late chunking is not available for ${p.id}: its vectors come out of layers after the token outputs inside the model (pooling 'model'), so pooled token outputs are not its vectors` };
  const note = p.pooling === 'mean' ? undefined : `${p.id} was trained to use its ${p.pooling === 'cls' ? 'first ([CLS])' : 'last'} token, not a mean of tokens: measure before trusting late chunking with it`;
  return { available: true, spanTokens: Math.min(maxTokens, DEFAULT_LATE_SPAN_TOKENS), recommended: p.lateChunking === 'recommended', ...(note ? { note } : {}) };
}

/** What an embedder says about late chunking; one without a word on it gives no token vectors. */
export function lateChunkingOf(embedder: Embedder | null): LateChunkingSupport {
  if (!embedder) return { available: false, reason: 'late chunking needs an embedding model: none is loaded' };
  if (embedder.lateChunking) return embedder.lateChunking;
  return { available: false, reason: `late chunking is not available for ${embedder.model}: it gives one vector per text and no token vectors` };
}
