import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random';
import { evenSample, fitPca, projectPca, projectPcaPoint } from './pca';
import { nearestRows, placeByNeighbours, weightedPosition } from './place';
import { runUmap, UmapMap } from './umap';

const rows = (xs: number[][]) => Float32Array.from(xs.flat());

describe('PCA by power iteration', () => {
  it('points on a line: the first component is the line, the second carries no variance', () => {
    // x = t·(3, 4)/5 + (1, 1, 1): a line in 3-D through (1,1,1).
    const ts = [-2, -1, 0, 1, 2];
    const data = rows(ts.map((t) => [1 + (3 * t) / 5, 1 + (4 * t) / 5, 1]));
    const m = fitPca(data, 5, 3);
    expect(m.components[0]).toBeCloseTo(0.6, 6);
    expect(m.components[1]).toBeCloseTo(0.8, 6);
    expect(m.components[2]).toBeCloseTo(0, 6);
    expect(m.variances[0]).toBeCloseTo(2.5, 6); // Σt²/(n−1) = 10/4
    expect(m.variances[1]).toBeCloseTo(0, 6);
    const xy = projectPca(m, data, 5);
    expect(Array.from({ length: 5 }, (_, i) => xy[2 * i]!)).toEqual(ts.map((t) => expect.closeTo(t, 5)));
    for (let i = 0; i < 5; i++) expect(xy[2 * i + 1]).toBeCloseTo(0, 5);
  });

  it('orders components by variance and fixes the sign (largest entry positive)', () => {
    // Spread 3 along z, 1 along x, 0 along y; written so a random start could land either way.
    const data = rows([
      [-1, 0, 0],
      [1, 0, 0],
      [0, 0, -3],
      [0, 0, 3],
    ]);
    const m = fitPca(data, 4, 3);
    expect(Array.from(m.components.subarray(0, 3))).toEqual([expect.closeTo(0, 6), expect.closeTo(0, 6), expect.closeTo(1, 6)]);
    expect(Array.from(m.components.subarray(3, 6))).toEqual([expect.closeTo(1, 6), expect.closeTo(0, 6), expect.closeTo(0, 6)]);
    expect(m.variances[0]).toBeCloseTo(6, 6); // 18/3
    expect(m.variances[1]).toBeCloseTo(2 / 3, 6);
    // The same picture whatever the seed.
    for (const seed of [2, 3, 99]) expect(Array.from(fitPca(data, 4, 3, { seed }).components)).toEqual(Array.from(m.components).map((v) => expect.closeTo(v, 6)));
  });

  it('projects a new point exactly like the rows', () => {
    const r = mulberry32(5);
    const n = 50;
    const dim = 8;
    const data = Float32Array.from({ length: n * dim }, () => r() * 2 - 1);
    const m = fitPca(data, n, dim);
    const xy = projectPca(m, data, n);
    const [x, y] = projectPcaPoint(m, data.subarray(7 * dim, 8 * dim));
    expect(x).toBeCloseTo(xy[14]!, 5);
    expect(y).toBeCloseTo(xy[15]!, 5);
    // Components are orthonormal.
    let dot = 0;
    let n0 = 0;
    for (let j = 0; j < dim; j++) (dot += m.components[j]! * m.components[dim + j]!), (n0 += m.components[j]! ** 2);
    expect(dot).toBeCloseTo(0, 6);
    expect(n0).toBeCloseTo(1, 6);
    expect(m.variances[0]).toBeGreaterThanOrEqual(m.variances[1]);
  });

  it('subsamples the fit evenly and still projects every row', () => {
    expect(Array.from(evenSample(10, 4))).toEqual([0, 2, 5, 7]);
    const ts = Array.from({ length: 100 }, (_, i) => i - 50);
    const m = fitPca(rows(ts.map((t) => [t, 2 * t])), 100, 2, { maxFit: 10 });
    expect(m.fitted).toBe(10);
    expect(m.components[0]).toBeCloseTo(1 / Math.sqrt(5), 6);
    expect(projectPca(m, rows(ts.map((t) => [t, 2 * t])), 100)).toHaveLength(200);
  });
});

describe('placing the query', () => {
  const unit = (a: number) => [Math.cos(a), Math.sin(a)];
  const data = rows([unit(0), unit(0.1), unit(Math.PI / 2), unit(Math.PI)]);
  const xy = Float32Array.from([0, 0, 2, 0, 10, 10, -5, -5]);

  it('finds the k most similar rows, best first', () => {
    const q = Float32Array.from(unit(0.06));
    expect(nearestRows(data, 2, q, 2, 4).ids).toEqual([1, 0]);
    expect(nearestRows(data, 2, q, 2, [0, 2, 3]).ids).toEqual([0, 2]);
  });

  it('is the similarity-weighted mean of the neighbours’ positions', () => {
    const [x, y] = weightedPosition(xy, [0, 1], [1, 1]);
    expect([x, y]).toEqual([1, 0]);
    const q = Float32Array.from(unit(0));
    const placed = placeByNeighbours(data, 2, xy, q, 2, 4);
    const w0 = 1 + 1e-6;
    const w1 = Math.cos(0.1) + 1e-6;
    expect(placed.xy[0]).toBeCloseTo((2 * w1) / (w0 + w1), 6);
    expect(placed.neighbours).toEqual([0, 1]);
  });

  it('a query equal to a sentence lands on it with k = 1 (PCA: exactly)', () => {
    expect(placeByNeighbours(data, 2, xy, Float32Array.from(unit(Math.PI / 2)), 1, 4).xy).toEqual([10, 10]);
  });
});

describe('UMAP (umap-js, seeded)', () => {
  const cluster = (i: number) => (i % 4) % 3;
  function clusters(n: number, dim: number, seed: number): Float32Array {
    const r = mulberry32(seed);
    const v = new Float32Array(n * dim);
    for (let i = 0; i < n; i++) {
      const c = cluster(i);
      for (let j = 0; j < dim; j++) v[i * dim + j] = (j % 3 === c ? 1 : 0) + 0.1 * (r() - 0.5);
      let s = 0;
      for (let j = 0; j < dim; j++) s += v[i * dim + j]! ** 2;
      for (let j = 0; j < dim; j++) v[i * dim + j]! /= Math.sqrt(s);
    }
    return v;
  }

  it('is deterministic, one position per sentence, with progress per slice', () => {
    const data = clusters(60, 6, 1);
    const progress: number[] = [];
    const a = runUmap(data, 60, 6, { nEpochs: 50, slice: 10, onProgress: (phase, done) => phase === 'epochs' && progress.push(done) });
    const b = runUmap(data, 60, 6, { nEpochs: 50 });
    expect(a.xy).toHaveLength(120);
    expect(Array.from(a.xy)).toEqual(Array.from(b.xy));
    expect(a.xy.every(Number.isFinite)).toBe(true);
    expect(progress).toEqual([10, 20, 30, 40, 50]);
  });

  it('subsampled: fits on evenly spaced sentences and places the others near their neighbours', () => {
    const data = clusters(90, 6, 2);
    const { xy, map } = runUmap(data, 90, 6, { nEpochs: 60, maxFit: 30 });
    expect(map.subsampled).toBe(true);
    expect(map.fitIds).toHaveLength(30);
    expect(map.rest).toEqual({ done: 60, total: 60 });
    // Sentence 1 (cluster 1, not fitted) lands nearer cluster 1's fitted points than cluster 0's.
    const centre = (c: number) => {
      const ids = Array.from(map.fitIds).filter((i) => cluster(i) === c);
      return [ids.reduce((s, i) => s + xy[2 * i]!, 0) / ids.length, ids.reduce((s, i) => s + xy[2 * i + 1]!, 0) / ids.length];
    };
    const d = (c: number) => Math.hypot(xy[2]! - centre(c)[0]!, xy[3]! - centre(c)[1]!);
    expect(d(1)).toBeLessThan(d(0));
  });

  it('refuses fewer than 5 sentences', () => {
    expect(() => new UmapMap(new Float32Array(8), 4, 2)).toThrow(/at least 5/);
  });
});
