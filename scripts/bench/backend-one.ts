/**
 * One vector index backend at one size, in its own process (run.ts kills it past its time
 * cap): build time, query p50/p95, memory (the index's own count, and heap + external growth
 * after gc) and recall@10 against the exact top 10 of a bare scan.
 *   node --expose-gc --import tsx scripts/bench/backend-one.ts --n 10000 --backend voy
 * Vectors uniform in [-1, 1], normalised by the index.
 */
import { parseArgs } from 'node:util';
import { FlatIndex } from '../../src/core/index/flat-index';
import type { VectorIndex } from '../../src/core/index/vector-index';
import { VoyIndex } from '../../src/core/index/voy-index';
import { mulberry32 } from '../../src/core/util/random';
import { setupNode } from '../../src/node/setup';
import { bareScan, percentile } from './common';

const { values } = parseArgs({ options: { n: { type: 'string' }, backend: { type: 'string' }, dim: { type: 'string' }, queries: { type: 'string' } } });
const n = Number(values.n ?? 1000);
const dim = Number(values.dim ?? 384);
const nq = Number(values.queries ?? 50);
const backend = values.backend === 'voy' ? 'voy' : 'flat';
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function vectors(count: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const v = new Float32Array(count * dim);
  for (let i = 0; i < v.length; i++) v[i] = r() * 2 - 1;
  return v;
}
function normalised(v: Float32Array): Float32Array {
  const out = Float32Array.from(v);
  for (let row = 0; row < out.length / dim; row++) {
    const x = out.subarray(row * dim, (row + 1) * dim);
    const norm = Math.sqrt(x.reduce((s, a) => s + a * a, 0));
    for (let j = 0; j < dim; j++) x[j]! /= norm;
  }
  return out;
}
const used = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

setupNode();
const data = vectors(n, n);
const queries = vectors(nq, 7);
const unit = normalised(data);
const truth = Array.from({ length: nq }, (_, q) => new Set(bareScan(unit, dim, normalised(queries.subarray(q * dim, (q + 1) * dim)), 10)));
const m0 = used();
const t0 = performance.now();
let idx: VectorIndex | null = backend === 'flat' ? new FlatIndex(dim) : await VoyIndex.create(dim);
await idx.add(data);
const buildMs = performance.now() - t0;
const measured = used() - m0;
const times: number[] = [];
let found = 0;
for (let q = 0; q < nq; q++) {
  const qv = queries.subarray(q * dim, (q + 1) * dim);
  const t = performance.now();
  const hits = idx.search(qv, 10);
  times.push(performance.now() - t);
  found += hits.filter((h) => truth[q]!.has(h.id)).length;
}
console.log(JSON.stringify({ n, backend, buildMs, queryP50Ms: percentile(times, 0.5), queryP95Ms: percentile(times, 0.95), indexBytes: idx.memoryBytes(), measuredBytes: measured, recallAt10: found / (nq * 10) }));
idx = null;
