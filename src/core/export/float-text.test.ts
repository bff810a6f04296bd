import { describe, expect, it } from 'vitest';
import { float32Text, float32TextByPrecision } from './float-text';

const f32 = (x: number) => Math.fround(x);

describe('float32Text: the shortest decimal that reads back to the same float32', () => {
  it('writes known values as pgvector would read them', () => {
    expect(float32Text(f32(0.1))).toBe('0.1');
    expect(float32Text(f32(-0.1))).toBe('-0.1');
    expect(float32Text(f32(1 / 3))).toBe('0.33333334');
    expect(float32Text(f32(0.05123457))).toBe('0.05123457');
    expect(float32Text(0.5)).toBe('0.5');
    expect(float32Text(1)).toBe('1');
    expect(float32Text(16777216)).toBe('16777216');
    expect(float32Text(f32(1e-5))).toBe('1e-5');
    expect(float32Text(f32(0.00123))).toBe('0.00123');
    expect(float32Text(f32(12345.678))).toBe('12345.678');
    expect(float32Text(f32(1e10))).toBe('1e10');
    // The float32 extremes go through the reference (outside what doubles scale exactly).
    expect(float32Text(f32(3.4028234663852886e38))).toBe('3.4028235e+38');
    expect(float32Text(f32(1.401298464324817e-45))).toBe('1e-45');
    expect(float32Text(0)).toBe('0');
    expect(float32Text(-0)).toBe('-0');
  });

  it('gives the decimal of the toPrecision search, and it reads back exactly, for 300k random float32 bit patterns', () => {
    const bits = new Uint32Array(1);
    const f = new Float32Array(bits.buffer);
    let state = 12345;
    let checked = 0;
    for (let i = 0; i < 300_000; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      bits[0] = state ^ (i << 16);
      const x = f[0]!;
      if (!Number.isFinite(x)) continue;
      checked++;
      const text = float32Text(x);
      if (Math.fround(Number(text)) !== x || Number(text) !== Number(float32TextByPrecision(x))) {
        expect({ x, text, reference: float32TextByPrecision(x) }).toBeNull();
      }
    }
    expect(checked).toBeGreaterThan(290_000);
  });

  it('is shorter than 9 significant digits for typical embedding values', () => {
    let state = 7;
    let short = 0;
    let long = 0;
    for (let i = 0; i < 10_000; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const x = f32((state / 2 ** 32 - 0.5) * 0.2);
      short += float32Text(x).length;
      long += x.toPrecision(9).length;
    }
    expect(short / long).toBeLessThan(0.9);
  });
});
