import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random';
import { bootstrapMean, pairedDifference, quantile, resampleIndices } from './bootstrap';

describe('bootstrap confidence intervals', () => {
  it('quantile interpolates linearly between order statistics (numpy default)', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.025)).toBeCloseTo(11, 12);
    expect(quantile([10, 20, 30, 40, 50], 0.975)).toBeCloseTo(49, 12);
    expect(quantile([7], 0.975)).toBe(7);
  });

  it('resamples draw question indices from the seeded generator, row by row', () => {
    const rand = mulberry32(42);
    const expected = [0, 1].map(() => [0, 1, 2].map(() => Math.floor(rand() * 3)));
    expect(resampleIndices(3, { resamples: 2, seed: 42 }).map((r) => [...r])).toEqual(expected);
  });

  it('exact interval on a tiny set with 4 resamples', () => {
    // Values 0, 1, 1, 0 (e.g. answer in context per question); seed 7's resamples are
    // computed from the same generator, and each resample's mean by hand.
    const values = [0, 1, 1, 0];
    const rows = resampleIndices(4, { resamples: 4, seed: 7 });
    const means = rows.map((r) => [...r].reduce((s, i) => s + values[i]!, 0) / 4).sort((a, b) => a - b);
    const iv = bootstrapMean(values, { resamples: 4, seed: 7 });
    expect(iv.mean).toBe(0.5);
    // type-7 quantiles over 4 sorted means: h = 3·0.025 = 0.075 and 3·0.975 = 2.925
    expect(iv.low).toBeCloseTo(means[0]! + 0.075 * (means[1]! - means[0]!), 12);
    expect(iv.high).toBeCloseTo(means[2]! + 0.925 * (means[3]! - means[2]!), 12);
  });

  it('is repeatable with a seed, and differs with another seed', () => {
    const values = Array.from({ length: 200 }, (_, i) => (i * 37) % 3 === 0 ? 1 : 0);
    const a = bootstrapMean(values, { seed: 3 });
    expect(bootstrapMean(values, { seed: 3 })).toEqual(a);
    expect(bootstrapMean(values, { seed: 4 })).not.toEqual(a);
    expect(a.low).toBeLessThan(a.mean);
    expect(a.high).toBeGreaterThan(a.mean);
  });

  it('a 95 % interval of a proportion is close to the normal approximation', () => {
    // 300 questions, 60 % answered: the textbook interval is 0.6 ± 1.96·√(0.6·0.4/300) = ±0.0554.
    const values = Array.from({ length: 300 }, (_, i) => (i % 5 < 3 ? 1 : 0));
    const iv = bootstrapMean(values, { resamples: 2000, seed: 11 });
    expect(iv.mean).toBeCloseTo(0.6, 12);
    expect(iv.low).toBeGreaterThan(0.6 - 0.0554 - 0.01);
    expect(iv.low).toBeLessThan(0.6 - 0.0554 + 0.01);
    expect(iv.high).toBeGreaterThan(0.6 + 0.0554 - 0.01);
    expect(iv.high).toBeLessThan(0.6 + 0.0554 + 0.01);
  });

  it('constant values give a zero-width interval', () => {
    expect(bootstrapMean([1, 1, 1], { resamples: 50 })).toEqual({ mean: 1, low: 1, high: 1 });
  });

  it('paired difference: a consistent small gain is distinguishable, noise is not', () => {
    // b wins on 10 more questions than a, loses on none: always ≥ 0 difference.
    const n = 400;
    const a = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const b = a.map((v, i) => (i % 40 === 1 ? 1 : v));
    const gain = pairedDifference(b, a, { seed: 5 });
    expect(gain.mean).toBeCloseTo(10 / n, 12);
    expect(gain.low).toBeGreaterThan(0);
    expect(gain.distinguishable).toBe(true);
    // c wins 10 questions and loses 10 others: the same means, not distinguishable.
    const c = a.map((v, i) => (i % 40 === 1 ? 1 : i % 40 === 2 ? 0 : v));
    const swap = pairedDifference(c, a, { seed: 5 });
    expect(swap.mean).toBe(0);
    expect(swap.low).toBeLessThan(0);
    expect(swap.high).toBeGreaterThan(0);
    expect(swap.distinguishable).toBe(false);
  });

  it('refuses unpaired sides', () => {
    expect(() => pairedDifference([1, 0], [1], {})).toThrow(/same questions/);
  });
});
