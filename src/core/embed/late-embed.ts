/**
 * Runs late chunking (late-chunking.ts) with a model that gives token vectors: each document's
 * text is cut at its units' edges and tokenized piece by piece, its spans run through the model
 * (the model's own special tokens around each, the passage prefix once at the start), and each
 * unit's vector is the mean of its token vectors, then finished as plain vectors are (Matryoshka
 * cut, normalisation). Spans of all documents are batched by length; a unit's sum grows as its
 * spans finish, so memory stays at one vector per unit however long a document is.
 */
import { yieldToEventLoop } from '../util/yield';
import { EmbeddingCancelled, type LateDocument, type LateEmbedOptions, type LateEmbedResult } from './embedder';
import { addRows, defaultOverlap, planLateChunks, pieceCuts, unitTokenRanges, type UnitPiece } from './late-chunking';

/** What late chunking needs from a model; TransformersEmbedder gives it. */
export interface TokenModel {
  /** Token ids of each text, without special tokens. */
  tokenize(texts: string[]): number[][];
  /** The model's leading special tokens with the passage prefix after them, and its trailing special tokens. */
  head: readonly number[];
  tail: readonly number[];
  /** Longest input in tokens, special tokens included. */
  maxTokens: number;
  /** Size of the token vectors (before any Matryoshka cut). */
  dim: number;
  /** Token vectors of a batch of full inputs: [batch, seq, dim] row-major, rows past an input's length are padding. */
  tokenVectors(inputs: number[][]): Promise<{ data: Float32Array; seq: number; dim: number }>;
  /** Turns unit means ([n, dim]) into the stored vectors (Matryoshka cut, layer norm, normalisation). */
  finish(means: Float32Array, dim: number): Float32Array;
}

/**
 * Spans per forward pass are bounded by their attention size: the scores an encoder holds per
 * layer grow with batch × length², so a batch stays within 4 × 512² (four 512-token spans, one of
 * 1,024; a longer span always runs alone).
 */
const BATCH_ATTENTION = 4 * 512 * 512;

interface SpanJob {
  doc: number;
  /** Content token ids of the span (no special tokens). */
  ids: number[];
  /** Pieces read from this span: [global unit index, document token start, end), with the span's start. */
  reads: { unit: number; start: number; end: number }[];
  spanStart: number;
}

export async function lateEmbedWith(model: TokenModel, documents: LateDocument[], options: LateEmbedOptions & { spanTokens: number }): Promise<LateEmbedResult> {
  const frame = model.head.length + model.tail.length;
  const spanTokens = Math.min(options.spanTokens, model.maxTokens);
  const content = spanTokens - frame;
  if (!(content >= 1)) throw new Error(`a span of ${spanTokens} tokens leaves no room for text after ${frame} special and prefix tokens`);
  const overlap = options.overlap ?? defaultOverlap(content);
  const jobs: SpanJob[] = [];
  const acrossSpans: number[] = [];
  const unitCounts: number[] = [];
  let unitBase = 0;
  documents.forEach((doc, d) => {
    const cuts = pieceCuts(doc.text.length, doc.units);
    const texts = cuts.slice(0, -1).map((c, i) => doc.text.slice(c, cuts[i + 1]));
    const ids = texts.length ? model.tokenize(texts) : [];
    const { total, ranges } = unitTokenRanges(cuts, ids.map((x) => x.length), doc.units);
    const stream = ids.flat();
    const plan = planLateChunks(total, ranges, content, overlap);
    const spanJobs: SpanJob[] = plan.spans.map((s) => ({ doc: d, ids: stream.slice(s.start, s.end), reads: [], spanStart: s.start }));
    plan.pieces.forEach((pieces: UnitPiece[], u) => {
      for (const p of pieces) spanJobs[p.span]!.reads.push({ unit: unitBase + u, start: p.start, end: p.end });
      unitCounts[unitBase + u] = pieces.reduce((n, p) => n + p.end - p.start, 0);
    });
    acrossSpans.push(...plan.acrossSpans.map((u) => unitBase + u));
    jobs.push(...spanJobs);
    unitBase += doc.units.length;
  });
  // Longest first within similar lengths: each batch pads to spans of about its own length.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b]!.ids.length - jobs[a]!.ids.length || a - b);
  const dim = model.dim;
  const sums = new Float32Array(unitBase * dim);
  let done = 0;
  for (let i = 0; i < order.length; ) {
    if (options.signal?.aborted) throw new EmbeddingCancelled();
    const batch: SpanJob[] = [];
    const longest = jobs[order[i]!]!.ids.length + frame;
    while (i < order.length && (batch.length === 0 || (batch.length + 1) * longest * longest <= BATCH_ATTENTION)) batch.push(jobs[order[i++]!]!);
    const out = await model.tokenVectors(batch.map((j) => [...model.head, ...j.ids, ...model.tail]));
    if (out.dim !== dim) throw new Error(`the model gave ${out.dim}-dimensional token vectors, expected ${dim}`);
    batch.forEach((job, b) => {
      // Row of document token t in this batch entry: past the head, counted from the span's start.
      const rows = out.data.subarray(b * out.seq * dim, (b + 1) * out.seq * dim);
      const shift = model.head.length - job.spanStart;
      for (const r of job.reads) addRows(sums.subarray(r.unit * dim, (r.unit + 1) * dim), rows, dim, r.start + shift, r.end + shift);
    });
    done += batch.length;
    options.onProgress?.(done, jobs.length);
    await yieldToEventLoop();
  }
  // A unit without tokens keeps a zero sum: its vector is zero, as an empty text's is.
  for (let u = 0; u < unitBase; u++) {
    const n = unitCounts[u]!;
    if (n > 0) for (let d = 0; d < dim; d++) sums[u * dim + d]! /= n;
  }
  return { vectors: model.finish(sums, dim), spans: jobs.length, acrossSpans };
}
