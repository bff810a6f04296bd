/**
 * Time to the corpus map's first view (PCA) and refined view (UMAP) on synthetic unit
 * vectors: uniform random, or clustered (Gaussian blobs around random centres, closer to
 * real sentence embeddings). Prints a table; asserts nothing.
 * `npm run bench:map [-- --sizes 10000,100000 --dim 384 --kind clustered --max-fit 20000]`
 */
import { parseArgs } from 'node:util';
import { fitPca, projectPca } from '../../src/core/map/pca';
import { UmapMap } from '../../src/core/map/umap';
import { mulberry32 } from '../../src/core/util/random';
import { renderTable } from '../../src/cli/table';

const { values } = parseArgs({
  options: { sizes: { type: 'string' }, dim: { type: 'string' }, kind: { type: 'string' }, 'max-fit': { type: 'string' }, 'no-umap': { type: 'boolean' } },
});
const sizes = (values.sizes ?? '10000,100000').split(',').map(Number);
const dim = Number(values.dim ?? 384);
const kinds = (values.kind ?? 'random,clustered').split(',') as ('random' | 'clustered')[];
const maxFit = Number(values['max-fit'] ?? 20_000);

function normalise(v: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < dim; j++) s += v[i * dim + j]! ** 2;
    const r = 1 / Math.sqrt(s || 1);
    for (let j = 0; j < dim; j++) v[i * dim + j]! *= r;
  }
}

function vectors(n: number, kind: 'random' | 'clustered', seed: number): Float32Array {
  const r = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const v = new Float32Array(n * dim);
  if (kind === 'random') {
    for (let i = 0; i < v.length; i++) v[i] = gauss();
  } else {
    const k = 20;
    const centres = Float32Array.from({ length: k * dim }, () => gauss());
    for (let i = 0; i < n; i++) {
      const c = Math.floor(r() * k);
      for (let j = 0; j < dim; j++) v[i * dim + j] = centres[c * dim + j]! + 0.6 * gauss();
    }
  }
  normalise(v, n);
  return v;
}

const rows: (string | number)[][] = [];
for (const n of sizes) {
  for (const kind of kinds) {
    const data = vectors(n, kind, n + kind.length);
    let t0 = performance.now();
    const model = fitPca(data, n, dim);
    projectPca(model, data, n);
    const pcaMs = performance.now() - t0;
    let umap = { init: NaN, epochs: NaN, place: NaN, total: NaN, fit: 0, nEpochs: 0 };
    if (!values['no-umap']) {
      t0 = performance.now();
      const map = new UmapMap(data, n, dim, { maxFit });
      const nEpochs = map.init();
      const t1 = performance.now();
      while (!map.step(10));
      const t2 = performance.now();
      while (!map.placeRest(2000));
      map.positions();
      const t3 = performance.now();
      umap = { init: t1 - t0, epochs: t2 - t1, place: t3 - t2, total: t3 - t0, fit: map.fitIds.length, nEpochs };
    }
    rows.push([n, kind, dim, pcaMs.toFixed(0), model.iterations, umap.fit, umap.nEpochs, (umap.init / 1000).toFixed(1), (umap.epochs / 1000).toFixed(1), (umap.place / 1000).toFixed(1), (umap.total / 1000).toFixed(1)]);
    console.error(`done ${n} ${kind}`);
  }
}
console.log(renderTable(['sentences', 'vectors', 'dim', 'PCA ms', 'PCA iters', 'UMAP fit on', 'epochs', 'graph s', 'epochs s', 'place rest s', 'UMAP total s'], rows));
