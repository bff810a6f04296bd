import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random';
import { BitScanIndex } from './bit-scan-index';
import { compactRows, fromHalf, toHalf } from './compact-rows';
import { FlatIndex } from './flat-index';

describe('float16 conversion', () => {
  it('rounds to the nearest binary16 value, ties to even', () => {
    expect([1, -2, 0.5, 65504, 1 / 3, 0.1, 2 ** -24, 0].map(toHalf)).toEqual([0x3c00, 0xc000, 0x3800, 0x7bff, 0x3555, 0x2e66, 0x0001, 0]);
    expect(toHalf(1e6)).toBe(0x7c00); // overflow: +∞
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00); // halfway between 1 and its successor: the even one
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
    // Every finite binary16 value comes back as itself.
    const wrong: number[] = [];
    for (let h = 0; h < 0x7c00; h++) if (toHalf(fromHalf(h)) !== h || toHalf(-fromHalf(h)) !== (h | 0x8000)) wrong.push(h);
    expect(wrong).toEqual([]);
  });
});

/** n unit rows in clusters (neighbours are similar, as sentence vectors are), and queries near them. */
function clustered(n: number, dim: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  const centres = Array.from({ length: 50 }, () => Float32Array.from({ length: dim }, () => r() * 2 - 1));
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(r() * centres.length)]!;
    for (let j = 0; j < dim; j++) out[i * dim + j] = c[j]! + (r() * 2 - 1) * 0.8;
  }
  return out;
}

describe('BitScanIndex with compact rows', () => {
  const dim = 64;
  const n = 6000;
  const data = clustered(n, dim, 7);
  const queries = clustered(40, dim, 8);
  const exact = new FlatIndex(dim);
  exact.add(data);

  for (const rows of ['float16', 'int8'] as const) {
    it(`keeps ${rows} rows from compactFrom on, with decoded rows and scores close to float32`, () => {
      const idx = new BitScanIndex(dim, { compactFrom: 4000, rows, rescore: 300, rescorePerK: 0 });
      idx.add(data.slice(0, 3000 * dim));
      expect(idx.rowFormat).toBe('float32');
      expect(idx.vector(5)).toEqual(exact.vector(5));
      idx.add(data.slice(3000 * dim));
      expect(idx.rowFormat).toBe(rows);
      expect(idx.size).toBe(n);
      const tol = rows === 'float16' ? 1e-3 : 1e-2;
      for (const id of [0, 2999, 3000, n - 1]) {
        const v = idx.vector(id);
        v.forEach((x, j) => expect(Math.abs(x - exact.vector(id)[j]!)).toBeLessThan(tol));
      }
      // Bytes per row: 2 (float16) or 1 + 4/dim (int8) per dimension instead of 4, plus the codes.
      expect(idx.memoryBytes()).toBeLessThan(exact.memoryBytes() * (rows === 'float16' ? 0.6 : 0.35));
      let found = 0;
      for (let q = 0; q < 40; q++) {
        const query = queries.subarray(q * dim, (q + 1) * dim);
        const truth = exact.search(query, 10);
        const got = idx.search(query, 10);
        const byId = new Map(truth.map((h) => [h.id, h.score]));
        for (const h of got) {
          if (!byId.has(h.id)) continue;
          found++;
          expect(Math.abs(h.score - byId.get(h.id)!)).toBeLessThan(tol);
        }
      }
      expect(found / 400).toBeGreaterThanOrEqual(0.95);
    });
  }

  it('a bulk add of compact rows grows once and keeps the order', () => {
    const rows = compactRows('float16', 2, 1);
    rows.reserve(3);
    for (const v of [[1, 0], [0, -1], [0.5, 0.25]]) rows.push(Float32Array.from(v));
    expect([0, 1, 2].map((i) => [...rows.decode(i)])).toEqual([[1, 0], [0, -1], [0.5, 0.25]]);
    expect(rows.bytes()).toBe(12);
    expect(rows.dot(Float32Array.from([2, 4]), 2)).toBe(2);
  });
});
