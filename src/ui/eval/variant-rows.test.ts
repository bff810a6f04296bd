import { describe, expect, it } from 'vitest';
import { METRIC_NAMES, type Metrics } from '../../core/eval/metrics';
import type { EvalPointView } from '../../worker/protocol';
import { comparedAxes, variantRows } from './variant-rows';

/** Per-question answer-in-context values give the point's mean and the paired differences. */
function pt(strategy: 'naive' | 'sentence', late: boolean, per: number[], budget = 256): EvalPointView {
  const perQuestion = per.map((v) => Object.fromEntries(METRIC_NAMES.map((m) => [m, m === 'meanContextTokens' ? 200 : v])) as unknown as Metrics);
  const mean = per.reduce((a, b) => a + b, 0) / per.length;
  const metrics = Object.fromEntries(METRIC_NAMES.map((m) => [m, m === 'meanContextTokens' ? 200 : mean])) as unknown as Metrics;
  return { strategy, retriever: 'vector', budgetTokens: budget, rerank: false, headers: false, ...(late ? { late: true } : {}), params: { topK: 50, headers: false, ...(late ? { late: true } : {}) }, metrics, perQuestion };
}

describe('variants compared side by side', () => {
  it('one row per strategy, budget and variant, off before on, the on rows with their paired difference from off', () => {
    const points = [pt('sentence', false, [1, 0, 0, 1]), pt('naive', false, [0, 0, 1, 1]), pt('sentence', true, [1, 1, 0, 1]), pt('naive', true, [0, 0, 1, 1])];
    expect(comparedAxes(points)).toEqual({ late: true });
    const rows = variantRows(points, 'answerInContext');
    expect(rows.map((r) => [r.strategy, r.variant, r.point.metrics.answerInContext])).toEqual([
      ['naive', 'late chunking off', 0.5],
      ['naive', 'late chunking on', 0.5],
      ['sentence', 'late chunking off', 0.5],
      ['sentence', 'late chunking on', 0.75],
    ]);
    expect(rows.map((r) => r.vsOff?.mean ?? null)).toEqual([null, 0, null, 0.25]);
    // Three questions equal and one better: the interval cannot exclude 0.
    expect(rows[3]!.vsOff!.distinguishable).toBe(false);
  });

  it('is empty when the run compared nothing, and keeps the best of a variant by the metric', () => {
    expect(variantRows([pt('naive', false, [1, 0])], 'answerInContext')).toEqual([]);
    const worse = { ...pt('naive', true, [0, 0]), params: { topK: 20, late: true } };
    const rows = variantRows([pt('naive', false, [1, 0]), worse, pt('naive', true, [1, 1])], 'answerInContext');
    expect(rows.map((r) => [r.variant, r.point.metrics.answerInContext, r.vsOff?.mean ?? null])).toEqual([
      ['late chunking off', 0.5, null],
      ['late chunking on', 1, 0.5],
    ]);
  });
});
