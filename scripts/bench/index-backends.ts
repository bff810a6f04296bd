/**
 * FlatIndex (exact scan) against VoyIndex (voy-search k-d tree) on the same random unit
 * vectors: build time, query latency, heap growth and recall@10 against the exact top 10.
 * Prints a table; asserts nothing. `npm run bench:index [-- --sizes 1000,10000 --dim 384]`
 */
import { parseArgs } from 'node:util';
import { FlatIndex } from '../../src/core/index/flat-index';
import type { VectorIndex } from '../../src/core/index/vector-index';
import { VoyIndex } from '../../src/core/index/voy-index';
import { mulberry32 } from '../../src/core/util/random';
import { renderTable } from '../../src/cli/table';
import { setupNode } from '../../src/node/setup';

const { values } = parseArgs({ options: { sizes: { type: 'string' }, dim: { type: 'string' }, queries: { type: 'string' } } });
const sizes = (values.sizes ?? '1000,10000,50000').split(',').map(Number);
const dim = Number(values.dim ?? 384);
const nq = Number(values.queries ?? 50);

function vectors(n: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const v = new Float32Array(n * dim);
  for (let i = 0; i < v.length; i++) v[i] = r() * 2 - 1;
  return v;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

setupNode();
const rows: (string | number)[][] = [];
for (const n of sizes) {
  const data = vectors(n, n);
  const queries = vectors(nq, 7);
  const exact = new FlatIndex(dim, n);
  exact.add(data);
  const truth = Array.from({ length: nq }, (_, q) => new Set(exact.search(queries.subarray(q * dim, (q + 1) * dim), 10).map((h) => h.id)));
  for (const name of ['flat', 'voy'] as const) {
    const t0 = performance.now();
    const idx: VectorIndex = name === 'flat' ? new FlatIndex(dim, n) : await VoyIndex.create(dim);
    await idx.add(data);
    const build = performance.now() - t0;
    const mem = idx.memoryBytes() / 1048576;
    const times: number[] = [];
    let found = 0;
    for (let q = 0; q < nq; q++) {
      const qv = queries.subarray(q * dim, (q + 1) * dim);
      const t = performance.now();
      const hits = idx.search(qv, 10);
      times.push(performance.now() - t);
      found += hits.filter((h) => truth[q]!.has(h.id)).length;
    }
    rows.push([n, name, Number(build.toFixed(1)), Number(percentile(times, 0.5).toFixed(2)), Number(percentile(times, 0.95).toFixed(2)), Number(mem.toFixed(1)), Number((found / (nq * 10)).toFixed(3))]);
  }
}
console.log(`vector index backends · ${dim} dims · ${nq} queries · Node ${process.version} · memory = the index's own vectors (+ voy's wasm memory)`);
console.log(renderTable(['vectors', 'backend', 'build ms', 'query p50 ms', 'query p95 ms', 'memory MB', 'recall@10'], rows));
