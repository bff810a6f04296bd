import { describe, expect, it } from 'vitest';
import { overlapMatrix } from './overlap';
import { overlapSummary, overlapSummaryLine } from './overlap-summary';

const block = (start: number, end: number) => ({ doc: 0, sentences: { start, end } });

describe('the overlap strip summary line', () => {
  const m = overlapMatrix([
    { id: 'naive', blocks: [block(0, 4)] }, // sentences 0-3
    { id: 'window', blocks: [block(2, 6)] }, // 2-5: with naive 2 of 6 = 0.333
    { id: 'sentence', blocks: [block(2, 4)] }, // 2-3: with naive 2/4 = 0.5, with window 2/4 = 0.5
  ]);
  const names = ['Naive', 'Windows', 'Sentences'];

  it('names the most and least alike pairs and the mean Jaccard, exactly', () => {
    const s = overlapSummary(m);
    expect(s.pairs).toBe(3);
    expect(s.most).toEqual({ a: 0, b: 2, jaccard: 0.5 });
    expect(s.least!.a).toBe(0);
    expect(s.least!.b).toBe(1);
    expect(s.least!.jaccard).toBeCloseTo(1 / 3, 12);
    expect(s.mean).toBeCloseTo((1 / 3 + 0.5 + 0.5) / 3, 12);
    expect(overlapSummaryLine(s, (i) => names[i]!)).toBe('most alike: Naive & Sentences 0.50 · least alike: Naive & Windows 0.33 · mean of 3 pairs 0.44');
  });

  it('one pair reads as that pair; pairs where neither hands over anything are left out of the mean', () => {
    const two = overlapSummary(overlapMatrix([{ id: 'a', blocks: [block(0, 2)] }, { id: 'b', blocks: [block(1, 3)] }]));
    expect(overlapSummaryLine(two, (i) => names[i]!)).toBe('Naive & Windows 0.33 (Jaccard)');
    const empty = overlapSummary(overlapMatrix([{ id: 'a', blocks: [] }, { id: 'b', blocks: [] }, { id: 'c', blocks: [block(0, 1)] }]));
    expect(empty.mean).toBe(0);
    expect(empty.pairs).toBe(3);
    const none = overlapSummary(overlapMatrix([{ id: 'a', blocks: [] }, { id: 'b', blocks: [] }]));
    expect(overlapSummaryLine(none, () => 'x')).toBe('no strategy hands over a sentence');
  });
});
