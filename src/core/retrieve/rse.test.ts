import { describe, expect, it } from 'vitest';
import { bestSegments, RSE_PRESETS, unitValue } from './rse';

const P = { maxLength: 5, overallMaxLength: 10, minimumValue: 0.5 };
const V = [0.5, 0.4, -0.2, 0.9, 0.6];
const seg = (s: { start: number; end: number; value: number }[]) => s.map((x) => [x.start, x.end, Number(x.value.toFixed(6))]);

describe('relevant segment extraction (dsRAG get_best_segments)', () => {
  it('unit values: exp(−rank/decay) · relevance − penalty, and −penalty when not retrieved', () => {
    const p = RSE_PRESETS.balanced;
    expect(p).toEqual({ maxLength: 15, overallMaxLength: 30, minimumValue: 0.5, irrelevantChunkPenalty: 0.18, decayRate: 30, topKForDocumentSelection: 10 });
    expect(unitValue(0, 1, p)).toBeCloseTo(0.82, 12);
    expect(unitValue(30, 0.5, p)).toBeCloseTo(Math.exp(-1) * 0.5 - 0.18, 12);
    expect(unitValue(null, 0.9, p)).toBe(-0.18);
  });

  it('takes the maximum-sum run, across a negative unit when it pays', () => {
    // [0,5) = 0.5+0.4−0.2+0.9+0.6 = 2.2 beats [3,5) = 1.5
    expect(seg(bestSegments(V, [], P))).toEqual([[0, 5, 2.2]]);
  });

  it('never crosses a document split, and takes the next best run after the first', () => {
    expect(seg(bestSegments(V, [3], P))).toEqual([
      [3, 5, 1.5],
      [0, 2, 0.9],
    ]);
  });

  it('segments start and end on non-negative units and never overlap', () => {
    expect(seg(bestSegments(V, [], { ...P, maxLength: 1 }))).toEqual([
      [3, 4, 0.9],
      [4, 5, 0.6],
      [0, 1, 0.5],
    ]); // 0.4 < minimum value: stop
  });

  it('stops at the overall length and at the minimum value', () => {
    expect(seg(bestSegments(V, [3], { ...P, overallMaxLength: 2 }))).toEqual([[3, 5, 1.5]]);
    expect(seg(bestSegments(V, [3], { ...P, minimumValue: 1 }))).toEqual([[3, 5, 1.5]]);
    expect(bestSegments([-0.1, -0.2], [], P)).toEqual([]);
  });

  it('a token budget skips segments that do not fit and keeps looking', () => {
    const cost = (a: number, b: number) => (b - a) * 10;
    expect(seg(bestSegments(V, [3], P, cost, 25))).toEqual([[3, 5, 1.5]]);
    // With room for one more unit, the best single unit that fits is taken.
    expect(seg(bestSegments(V, [3], P, cost, 30))).toEqual([
      [3, 5, 1.5],
      [0, 1, 0.5],
    ]);
  });

  it('ties keep the earliest run', () => {
    expect(seg(bestSegments([0.6, 0.6], [1], { ...P, overallMaxLength: 1 }))).toEqual([[0, 1, 0.6]]);
  });
});
