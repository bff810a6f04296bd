/**
 * The vector index at 10k, 100k and 1M sentences (issue 17): exact scan (FlatIndex) against
 * the approximate index (BitScanIndex, the `ann` backend) — build time, bytes per vector,
 * top-10 query p50/p95, recall@10 against the exact top 10, unfiltered and with a filter
 * allowing every 3rd id, and answer-in-context of the top 10 sentences. In Node, one size per
 * process (run.ts starts it):
 *   node --max-old-space-size=12000 --import tsx scripts/bench/scale-bench.ts --n 100000 [--queries 100] [--out FILE]
 *
 * Vectors: the test model's 128-dim vectors of 61k distinct real sentences (SQuAD dev
 * contexts + SciFact abstracts, common.ts realSentenceVectors) and queries of real
 * questions (SQuAD questions, SciFact queries), lifted to 384 dims — a MiniLM's width, so
 * time and memory are those of the default model — by one seeded matrix with orthonormal
 * columns (it keeps every dot product). Past the 61k real rows, row i (copy c = ⌊i / 61k⌋ of
 * sentence s = i mod 61k) is normalise(v_s + 0.5·v_t + ε): v_t a seeded random other real
 * sentence, ε seeded uniform noise of standard deviation 0.02 per dimension — blends of real
 * sentences rather than near-clones (clones would make every top 10 one cluster).
 *
 * Answer-in-context here is at the sentence level: a SQuAD question (those among the queries)
 * counts when one of its top 10 sentences contains a gold answer (case-insensitive); blended
 * rows have no text and never count. The delta is approximate minus exact — how much the
 * approximate search loses for the reader, not the whole engine's context blocks.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FlatIndex } from '../../src/core/index/flat-index';
import { BitScanIndex } from '../../src/core/index/bit-scan-index';
import type { Hit, VectorIndex } from '../../src/core/index/vector-index';
import { mulberry32 } from '../../src/core/util/random';
import { percentile, realSentences, realSentenceVectors, round, squadAnswers } from './common';

export interface ScaleRow {
  n: number;
  dim: number;
  queries: number;
  vectors: string;
  exact: IndexStats;
  ann: IndexStats & { recallAt10: number; filteredRecallAt10: number };
  /** Sentence-level answer-in-context of the top 10 (see the top of this file); null without texts. */
  answers: { questions: number; exact: number; ann: number; delta: number } | null;
  /**
   * How the approximate index keeps its rows at this size (float32 below 20,000 vectors, float16
   * from there) and the same index with int8 rows + a scale per row, against the exact scan:
   * bytes per vector, query p50, recall@10, answer-in-context delta and the largest difference
   * of a returned score from its exact float32 cosine.
   */
  rows?: Record<string, { bytesPerVector: number; queryP50Ms: number; recallAt10: number; answerInContextDelta: number | null; maxScoreDiff: number }>;
}

/** Texts to score answer-in-context: the real sentences, and each question's gold answers (null: not a QA question). */
export interface AnswerKey {
  sentences: string[];
  answers: (questionIndex: number) => string[] | null;
}
export interface IndexStats {
  buildMs: number;
  bytesPerVector: number;
  queryP50Ms: number;
  queryP95Ms: number;
  filteredP50Ms: number;
}

export const SCALE_DIM = 384;

export function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

/** A dim × src matrix with orthonormal columns (Gram–Schmidt of seeded Gaussian columns), column-major. */
function lift(src: number, dim: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const m = new Float64Array(src * dim);
  for (let c = 0; c < src; c++) {
    const col = m.subarray(c * dim, (c + 1) * dim);
    for (let i = 0; i < dim; i++) col[i] = gaussian(r);
    for (let p = 0; p < c; p++) {
      const prev = m.subarray(p * dim, (p + 1) * dim);
      let d = 0;
      for (let i = 0; i < dim; i++) d += col[i]! * prev[i]!;
      for (let i = 0; i < dim; i++) col[i]! -= d * prev[i]!;
    }
    let n = 0;
    for (let i = 0; i < dim; i++) n += col[i]! * col[i]!;
    n = Math.sqrt(n);
    for (let i = 0; i < dim; i++) col[i]! /= n;
  }
  return Float32Array.from(m);
}

function liftRow(out: Float32Array, off: number, R: Float32Array, v: Float32Array, vo: number, src: number, dim: number, w: number): void {
  for (let c = 0; c < src; c++) {
    const x = v[vo + c]! * w;
    if (x === 0) continue;
    const co = c * dim;
    for (let i = 0; i < dim; i++) out[off + i]! += x * R[co + i]!;
  }
}

/** The real vectors scaleVectors starts from (common.ts realSentenceVectors; a file of them elsewhere). */
export type RealVectors = Awaited<ReturnType<typeof realSentenceVectors>>;

/** n corpus rows and the query rows, as described at the top of this file. */
/** Which questions are the queries: every (count / queries)th, over SQuAD and SciFact alike. */
function questionIndexes(count: number, queries: number): number[] {
  const stride = Math.max(1, Math.floor(count / queries));
  return Array.from({ length: queries }, (_, i) => (i * stride) % count);
}

export function scaleVectors(real: RealVectors, n: number, queries: number): { data: Float32Array; queries: Float32Array; picked: number[]; description: string } {
  const src = real.dim;
  const dim = SCALE_DIM;
  const R = lift(src, dim, 4242);
  const base = new Float32Array(real.count * dim);
  for (let s = 0; s < real.count; s++) liftRow(base, s * dim, R, real.vectors, s * src, src, dim, 1);
  const data = new Float32Array(n * dim);
  const r = mulberry32(1717);
  // Uniform noise on [−a, a] has standard deviation a/√3: 0.02 per dimension.
  const a = 0.02 * Math.sqrt(3);
  for (let i = 0; i < n; i++) {
    const off = i * dim;
    const so = (i % real.count) * dim;
    if (i < real.count) {
      data.set(base.subarray(so, so + dim), off);
      continue;
    }
    const to = Math.floor(r() * real.count) * dim;
    let norm = 0;
    for (let j = 0; j < dim; j++) {
      const x = base[so + j]! + 0.5 * base[to + j]! + a * (2 * r() - 1);
      data[off + j] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm);
    for (let j = 0; j < dim; j++) data[off + j]! /= norm;
  }
  // Questions spread over the whole list (SQuAD first, SciFact last): every qth one.
  const q = new Float32Array(queries * dim);
  const picked = questionIndexes(real.questionCount, queries);
  picked.forEach((qi, i) => liftRow(q, i * dim, R, real.questions, qi * src, src, dim, 1));
  return {
    data,
    queries: q,
    picked,
    description: `test-model vectors of ${real.count.toLocaleString('en')} real sentences (SQuAD + SciFact), lifted 128→384 dims; rows past them are seeded blends v_s + 0.5·v_t + uniform noise (sd 0.02 per dim), normalised`,
  };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function timeQueries(idx: VectorIndex, queries: Float32Array, dim: number, allow?: (id: number) => boolean): { p50: number; p95: number; hits: Hit[][] } {
  const nq = queries.length / dim;
  const times: number[] = [];
  const hits: Hit[][] = [];
  for (let i = 0; i < nq; i++) {
    const q = queries.subarray(i * dim, (i + 1) * dim);
    const t = performance.now();
    hits.push(idx.search(q, 10, allow));
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), hits };
}

function recall(truth: Hit[][], got: Hit[][]): number {
  let found = 0;
  let total = 0;
  truth.forEach((t, i) => {
    const g = new Set(got[i]!.map((h) => h.id));
    for (const h of t) if (g.has(h.id)) found++;
    total += t.length;
  });
  return total ? found / total : 1;
}

function answerInContext(key: AnswerKey, picked: number[], hits: Hit[][]): { questions: number; rate: number } {
  let questions = 0;
  let found = 0;
  picked.forEach((qi, i) => {
    const gold = key.answers(qi)?.map((a) => a.toLowerCase());
    if (!gold?.length) return;
    questions++;
    if (hits[i]!.some((h) => h.id < key.sentences.length && gold.some((a) => key.sentences[h.id]!.toLowerCase().includes(a)))) found++;
  });
  return { questions, rate: questions ? found / questions : NaN };
}

export function scaleRow(real: RealVectors, n: number, nq: number, say: (s: string) => void = () => undefined, key?: AnswerKey): ScaleRow {
  const dim = SCALE_DIM;
  let { data, queries, picked, description } = scaleVectors(real, n, nq);
  say(`${n} vectors ready`);
  const every3rd = (id: number) => id % 3 === 0;

  gc();
  let t = performance.now();
  let flat: FlatIndex | null = new FlatIndex(dim, n);
  flat.add(data);
  const flatBuild = performance.now() - t;
  const exact = timeQueries(flat, queries, dim);
  const exactF = timeQueries(flat, queries, dim, every3rd);
  say(`exact: p50 ${exact.p50.toFixed(1)} ms`);
  const flatBytes = flat.memoryBytes();
  flat = null; // at 1M: 1.5 GB less while the approximate index is built
  gc();

  t = performance.now();
  const bits = new BitScanIndex(dim);
  bits.add(data);
  // Codes are made on the first search: time it as part of the build.
  bits.search(queries.subarray(0, dim), 10);
  const annBuild = performance.now() - t;
  say(`ann built in ${(annBuild / 1000).toFixed(1)} s (${bits.rowFormat} rows)`);
  const rows: NonNullable<ScaleRow['rows']> = {};
  const maxDiff = (got: Hit[][]) => {
    let m = 0;
    got.forEach((hs, i) => {
      const truth = new Map(exact.hits[i]!.map((h) => [h.id, h.score]));
      for (const h of hs) if (truth.has(h.id)) m = Math.max(m, Math.abs(h.score - truth.get(h.id)!));
    });
    return m;
  };
  const rowStats = (idx: BitScanIndex, r: ReturnType<typeof timeQueries>) => {
    const a = key ? answerInContext(key, picked, r.hits) : null;
    const e = key ? answerInContext(key, picked, exact.hits) : null;
    return { bytesPerVector: idx.memoryBytes() / n, queryP50Ms: r.p50, recallAt10: recall(exact.hits, r.hits), answerInContextDelta: a && e ? a.rate - e.rate : null, maxScoreDiff: maxDiff(r.hits) };
  };
  if (bits.rowFormat !== 'float32') {
    const int8 = new BitScanIndex(dim, { rows: 'int8' });
    int8.add(data);
    int8.search(queries.subarray(0, dim), 10);
    rows.int8 = rowStats(int8, timeQueries(int8, queries, dim));
    say(`int8 rows: recall@10 ${rows.int8.recallAt10.toFixed(3)}, max score diff ${rows.int8.maxScoreDiff.toExponential(2)}`);
  }
  data = new Float32Array(0);
  const ann = timeQueries(bits, queries, dim);
  const annF = timeQueries(bits, queries, dim, every3rd);
  const exactAnswers = key ? answerInContext(key, picked, exact.hits) : null;
  const annAnswers = key ? answerInContext(key, picked, ann.hits) : null;
  const row: ScaleRow = {
    n,
    dim,
    queries: nq,
    vectors: description,
    exact: { buildMs: flatBuild, bytesPerVector: flatBytes / n, queryP50Ms: exact.p50, queryP95Ms: exact.p95, filteredP50Ms: exactF.p50 },
    ann: {
      buildMs: annBuild,
      bytesPerVector: bits.memoryBytes() / n,
      queryP50Ms: ann.p50,
      queryP95Ms: ann.p95,
      filteredP50Ms: annF.p50,
      recallAt10: recall(exact.hits, ann.hits),
      filteredRecallAt10: recall(exactF.hits, annF.hits),
    },
    answers: exactAnswers && annAnswers ? { questions: exactAnswers.questions, exact: exactAnswers.rate, ann: annAnswers.rate, delta: annAnswers.rate - exactAnswers.rate } : null,
    rows: { [bits.rowFormat]: rowStats(bits, ann), ...rows },
  };
  say(`ann: p50 ${ann.p50.toFixed(1)} ms, recall@10 ${row.ann.recallAt10.toFixed(3)}, filtered ${row.ann.filteredRecallAt10.toFixed(3)}`);
  return row;
}

if (process.argv[1]?.endsWith('scale-bench.ts')) {
  const { values } = parseArgs({ options: { n: { type: 'string' }, queries: { type: 'string' }, out: { type: 'string' } } });
  const { sentences } = realSentences();
  const answers = squadAnswers();
  const key: AnswerKey = { sentences, answers: (qi) => (qi < answers.length ? answers[qi]! : null) };
  const row = scaleRow(await realSentenceVectors(), Number(values.n ?? 10000), Number(values.queries ?? 100), (s) => process.stderr.write(`[scale ${values.n}] ${s}\n`), key);
  const json = JSON.stringify(row, (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? round(v, 4) : v));
  if (values.out) writeFileSync(values.out, json);
  else console.log(json);
}
