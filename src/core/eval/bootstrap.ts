/**
 * Confidence intervals for metrics averaged over questions: the percentile bootstrap
 * (resample questions with replacement, take the 2.5th and 97.5th percentiles of the
 * resampled means). Seeded, so a run repeats exactly. Differences between two strategies
 * are judged with the *paired* bootstrap: both are resampled with the same questions, so
 * what varies is the difference on each question, not which questions were drawn.
 * Written by hand: the statistics is a few lines, and no maintained package offers a
 * seeded, paired bootstrap without a heavy numeric stack.
 */
import { mulberry32 } from '../util/random';

export interface Interval {
  /** The mean over all questions (not over resamples). */
  mean: number;
  low: number;
  high: number;
}

export interface Difference extends Interval {
  /** False when the interval contains 0: "not distinguishable on these questions". */
  distinguishable: boolean;
}

export interface BootstrapOptions {
  /** Resamples (default 1000). */
  resamples?: number;
  /** Seed of the resampling (default 1): the same seed gives the same interval. */
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export const DEFAULT_BOOTSTRAP = { resamples: 1000, seed: 1, level: 0.95 } as const;

/**
 * The question indices of every resample, drawn once so that several metrics (and both
 * sides of a paired difference) use the same resamples: row r is resample r.
 */
export function resampleIndices(n: number, options: BootstrapOptions = {}): Uint32Array[] {
  const { resamples, seed } = { ...DEFAULT_BOOTSTRAP, ...options };
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a whole number ≥ 1, got ${resamples}`);
  const rand = mulberry32(seed);
  const rows: Uint32Array[] = [];
  for (let r = 0; r < resamples; r++) {
    const row = new Uint32Array(n);
    for (let i = 0; i < n; i++) row[i] = Math.floor(rand() * n);
    rows.push(row);
  }
  return rows;
}

/** Linear-interpolation quantile of sorted values (numpy's default, Hyndman–Fan type 7). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (!n) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return values.length ? s / values.length : Number.NaN;
}

function percentileInterval(values: ArrayLike<number>, rows: readonly Uint32Array[], level: number): Interval {
  const means = new Float64Array(rows.length);
  rows.forEach((row, r) => {
    let s = 0;
    for (let i = 0; i < row.length; i++) s += values[row[i]!]!;
    means[r] = row.length ? s / row.length : Number.NaN;
  });
  means.sort();
  const alpha = (1 - level) / 2;
  return { mean: mean(values), low: quantile(means, alpha), high: quantile(means, 1 - alpha) };
}

/** The mean of per-question values with its bootstrap interval. */
export function bootstrapMean(values: ArrayLike<number>, options: BootstrapOptions & { indices?: readonly Uint32Array[] } = {}): Interval {
  const level = options.level ?? DEFAULT_BOOTSTRAP.level;
  return percentileInterval(values, options.indices ?? resampleIndices(values.length, options), level);
}

/**
 * The mean of a − b over the same questions with its paired bootstrap interval; the
 * difference is distinguishable when the interval does not contain 0.
 */
export function pairedDifference(a: ArrayLike<number>, b: ArrayLike<number>, options: BootstrapOptions & { indices?: readonly Uint32Array[] } = {}): Difference {
  if (a.length !== b.length) throw new RangeError(`a paired difference needs the same questions on both sides (${a.length} vs ${b.length})`);
  const diff = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) diff[i] = a[i]! - b[i]!;
  const iv = bootstrapMean(diff, options);
  return { ...iv, distinguishable: iv.low > 0 || iv.high < 0 };
}
