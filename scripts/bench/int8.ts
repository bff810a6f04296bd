/**
 * What int8 vectors would cost in recall (issue 6's memory goal): real-shaped sentence
 * vectors from the MiniLM stand-in (or the test model), exact float32 top-10 as truth, then
 * per-vector symmetric int8 (scale = max|x| / 127, float query × int8 rows), alone and with
 * the top 4k re-scored in float32. Prints one table; asserts nothing.
 *   npm run bench:int8 [-- --sentences N]
 */
import { dirname } from 'node:path';
import { TransformersEmbedder } from '../../src/core/embed/transformers-embedder';
import { setupNode } from '../../src/node/setup';
import { bareScan, pickModel, squadArticles, squadQuestions } from './common';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const N = arg('--sentences', 3000);
const NQ = 200;
const K = 10;

const model = pickModel();
// The model folder's parent is the local model path; its own name is the model id.
const id = model.dir.split('/').slice(-1)[0]!;
setupNode({ modelsDir: dirname(model.dir) });
const embedder = await TransformersEmbedder.load({ model: id, dtype: model.dtype });
const sentences = squadArticles()
  .flatMap((a) => a.paragraphs.flatMap((p) => p.split(/(?<=[.!?])\s+/)))
  .slice(0, N);
const questions = squadQuestions().slice(0, NQ);
const t0 = performance.now();
const { vectors } = await embedder.embed(sentences, { batchSize: 32 });
const q = (await embedder.embed(questions, { kind: 'query', batchSize: 32 })).vectors;
const dim = embedder.dim;
console.log(`model: ${model.label}\n${sentences.length} SQuAD sentences, ${questions.length} questions, ${dim} dims, embedded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// Per-vector symmetric int8.
const codes = new Int8Array(vectors.length);
const scales = new Float32Array(sentences.length);
for (let i = 0; i < sentences.length; i++) {
  let max = 0;
  for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(vectors[i * dim + j]!));
  const s = max / 127 || 1;
  scales[i] = s;
  for (let j = 0; j < dim; j++) codes[i * dim + j] = Math.round(vectors[i * dim + j]! / s);
}
const int8Top = (qv: Float32Array, k: number): number[] => {
  const scored: [number, number][] = [];
  for (let i = 0; i < sentences.length; i++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += qv[j]! * codes[i * dim + j]!;
    scored.push([i, dot * scales[i]!]);
  }
  return scored.sort((a, b) => b[1] - a[1]).slice(0, k).map(([i]) => i);
};
const floatScore = (qv: Float32Array, i: number) => {
  let dot = 0;
  for (let j = 0; j < dim; j++) dot += qv[j]! * vectors[i * dim + j]!;
  return dot;
};

let plain = 0;
let rescored = 0;
for (let n = 0; n < questions.length; n++) {
  const qv = q.subarray(n * dim, (n + 1) * dim);
  const truth = new Set(bareScan(vectors, dim, qv, K));
  plain += int8Top(qv, K).filter((i) => truth.has(i)).length;
  const pool = int8Top(qv, 4 * K).sort((a, b) => floatScore(qv, b) - floatScore(qv, a)).slice(0, K);
  rescored += pool.filter((i) => truth.has(i)).length;
}
const total = questions.length * K;
console.log(`\nvectors              bytes/vector  recall@10`);
console.log(`float32 (exact)      ${String(dim * 4).padStart(12)}  1`);
console.log(`int8                 ${String(dim + 4).padStart(12)}  ${(plain / total).toFixed(4)}`);
console.log(`int8 + float rescore ${String(dim + 4).padStart(12)}  ${(rescored / total).toFixed(4)}  (top ${4 * K} re-scored; needs the float32 rows kept elsewhere)`);

