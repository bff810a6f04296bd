import { describe, expect, it } from 'vitest';
import { adaptiveWindows, DEFAULT_ADAPTIVE } from './adaptive';
import type { Candidate } from './candidates';

const hit = (id: number, score = 1): Candidate => ({ id, score, ranks: {}, scores: {} });
// Relevance of sentences 0..9 to the query.
const REL = [0.1, 0.2, 0.5, 0.9, 1.0, 0.6, 0.35, 0.1, 0.8, 0.8];
const rel = (i: number) => REL[i]!;
const doc = (): [number, number] => [0, 10];
const count = (a: number, b: number) => b - a; // one token per sentence

describe('adaptive windows', () => {
  it('grows toward the more relevant neighbour while it stays above the threshold, and says why it stopped', () => {
    const [b] = adaptiveWindows([hit(4)], { ...DEFAULT_ADAPTIVE, threshold: 0.3 }, rel, doc, count);
    // 4 → 3 (0.9 > 0.6) → 5 (0.6 > 0.5) → 2 (0.5 > 0.35) → 6 (0.35 > 0.2) → neighbours 1 (0.2), 7 (0.1): stop.
    expect([b!.start, b!.end]).toEqual([2, 7]);
    expect(b!.stopped).toEqual({ before: 'threshold', after: 'threshold' });
  });

  it('stops at the document or section edge and at max before/after', () => {
    const [edge] = adaptiveWindows([hit(9)], { ...DEFAULT_ADAPTIVE, threshold: 0.5 }, rel, doc, count);
    expect([edge!.start, edge!.end]).toEqual([8, 10]);
    expect(edge!.stopped.after).toBe('edge');
    expect(edge!.stopped.before).toBe('threshold');
    const [max] = adaptiveWindows([hit(4)], { ...DEFAULT_ADAPTIVE, threshold: 0, maxBefore: 1, maxAfter: 2 }, rel, doc, count);
    expect([max!.start, max!.end]).toEqual([3, 7]);
    expect(max!.stopped).toEqual({ before: 'max', after: 'max' });
    const [section] = adaptiveWindows([hit(4)], { ...DEFAULT_ADAPTIVE, threshold: 0 }, rel, () => [3, 6], count);
    expect([section!.start, section!.end]).toEqual([3, 6]);
    expect(section!.stopped).toEqual({ before: 'edge', after: 'edge' });
  });

  it('stops a side at the budget and keeps growing the other', () => {
    const [b] = adaptiveWindows([hit(4)], { ...DEFAULT_ADAPTIVE, threshold: 0.3 }, rel, doc, count, 3);
    expect(b!.end - b!.start).toBe(3);
    expect([b!.start, b!.end]).toEqual([3, 6]);
    expect(Object.values(b!.stopped)).toContain('budget');
  });

  it('a hit inside an earlier window joins it; touching windows merge; a threshold above every neighbour keeps the hit alone', () => {
    const blocks = adaptiveWindows([hit(4, 2), hit(5, 1), hit(8, 0.5)], { ...DEFAULT_ADAPTIVE, threshold: 0.3 }, rel, doc, count);
    // 5 is inside 4's window [2,7); 8 grows to 9 (0.8) and stops before 7 (0.1): a gap remains.
    expect(blocks.map((b) => [b.start, b.end, b.hits.map((h) => h.id)])).toEqual([
      [2, 7, [4, 5]],
      [8, 10, [8]],
    ]);
    // With a lower threshold 8's window reaches 7, touches [2,7) and the two merge.
    const merged = adaptiveWindows([hit(4, 2), hit(8, 0.5)], { ...DEFAULT_ADAPTIVE, threshold: 0.1, maxBefore: 1, maxAfter: 2 }, rel, doc, count);
    expect(merged.map((b) => [b.start, b.end, b.hits.map((h) => h.id)])).toEqual([[3, 10, [4, 8]]]);
    const [alone] = adaptiveWindows([hit(4)], { ...DEFAULT_ADAPTIVE, threshold: 0.95 }, rel, doc, count);
    expect([alone!.start, alone!.end]).toEqual([4, 5]);
  });

  it('rejects negative or fractional limits', () => {
    expect(() => adaptiveWindows([hit(1)], { ...DEFAULT_ADAPTIVE, maxBefore: -1 }, rel, doc, count)).toThrow(/maxBefore/);
    expect(() => adaptiveWindows([hit(1)], { ...DEFAULT_ADAPTIVE, maxAfter: 1.5 }, rel, doc, count)).toThrow(/maxAfter/);
  });
});
