import { describe, expect, it } from 'vitest';
import type { Candidate } from './candidates';
import { DEFAULT_WINDOW, expandWindows } from './window';

const hit = (id: number, score = 1): Candidate => ({ id, score, ranks: {}, scores: {} });
/** One document of 100 sentences. */
const oneDoc = (): [number, number] => [0, 100];
/** Documents (or sections) of 10 sentences each: [0,10), [10,20), … */
const tens = (i: number): [number, number] => [Math.floor(i / 10) * 10, Math.floor(i / 10) * 10 + 10];
/** Cost = number of sentences. */
const sentences = (start: number, end: number) => end - start;
/** Cost from a token array. */
const tokenCost = (tokens: number[]) => (start: number, end: number) => {
  let n = 0;
  for (let i = start; i < end; i++) n += tokens[i]!;
  return n;
};
const ranges = (blocks: { start: number; end: number }[]) => blocks.map((b) => [b.start, b.end]);

describe('expandWindows: ranges', () => {
  it('defaults to 3 before and 3 after', () => {
    expect(DEFAULT_WINDOW).toEqual({ before: 3, after: 3 });
  });

  it('expands a hit to 3 before and 3 after', () => {
    const out = expandWindows([hit(50, 0.8)], { before: 3, after: 3 }, oneDoc, sentences);
    expect(out).toEqual([{ start: 47, end: 54, hits: [hit(50, 0.8)], score: 0.8, cost: 7, shrunk: false }]);
  });

  it('supports asymmetric windows (1 before, 2 after)', () => {
    const out = expandWindows([hit(50)], { before: 1, after: 2 }, oneDoc, sentences);
    expect(ranges(out)).toEqual([[49, 53]]);
    const rev = expandWindows([hit(50)], { before: 2, after: 1 }, oneDoc, sentences);
    expect(ranges(rev)).toEqual([[48, 52]]);
  });

  it('before/after 0 gives the sentence alone', () => {
    const out = expandWindows([hit(42)], { before: 0, after: 0 }, oneDoc, sentences);
    expect(out).toEqual([{ start: 42, end: 43, hits: [hit(42)], score: 1, cost: 1, shrunk: false }]);
  });

  it('clips at the bounds of the hit\'s document (or section), without marking it shrunk', () => {
    const out = expandWindows([hit(1), hit(18), hit(25)], { before: 3, after: 3 }, tens, sentences);
    expect(ranges(out)).toEqual([
      [0, 5],
      [15, 20],
      [22, 29],
    ]);
    expect(out.every((b) => !b.shrunk)).toBe(true);
    expect(out.map((b) => b.cost)).toEqual([5, 5, 7]);
    // a first and last sentence
    expect(ranges(expandWindows([hit(0), hit(99)], { before: 3, after: 3 }, oneDoc, sentences))).toEqual([
      [0, 4],
      [96, 100],
    ]);
  });

  it('throws on negative sizes', () => {
    expect(() => expandWindows([hit(5)], { before: -1, after: 3 }, oneDoc, sentences)).toThrow();
    expect(() => expandWindows([hit(5)], { before: 3, after: -1 }, oneDoc, sentences)).toThrow();
  });

  it('returns nothing for no hits', () => {
    expect(expandWindows([], { before: 3, after: 3 }, oneDoc, sentences, 100)).toEqual([]);
  });
});

describe('expandWindows: merging', () => {
  it('merges overlapping windows into one block instead of duplicating text', () => {
    const out = expandWindows([hit(10, 0.9), hit(13, 0.8)], { before: 3, after: 3 }, oneDoc, sentences);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ start: 7, end: 17, score: 0.9, cost: 10, shrunk: false });
    expect(out[0]!.hits.map((h) => h.id)).toEqual([10, 13]);
  });

  it('merges touching windows, but not windows with a gap between them', () => {
    const touching = expandWindows([hit(10), hit(13)], { before: 1, after: 1 }, oneDoc, sentences);
    expect(ranges(touching)).toEqual([[9, 15]]);
    const gap = expandWindows([hit(10), hit(14)], { before: 1, after: 1 }, oneDoc, sentences);
    expect(ranges(gap)).toEqual([
      [9, 12],
      [13, 16],
    ]);
  });

  it('never merges windows in different bounds, even when they touch', () => {
    const out = expandWindows([hit(9), hit(10)], { before: 1, after: 1 }, tens, sentences);
    expect(ranges(out)).toEqual([
      [8, 10],
      [10, 12],
    ]);
    expect(out.map((b) => b.hits.map((h) => h.id))).toEqual([[9], [10]]);
  });

  it('a merged block keeps the best hit\'s place and the maximum score', () => {
    const out = expandWindows([hit(10, 0.7), hit(50, 0.6), hit(13, 0.95)], { before: 3, after: 3 }, oneDoc, sentences);
    expect(ranges(out)).toEqual([
      [7, 17],
      [47, 54],
    ]);
    expect(out[0]!.score).toBe(0.95);
    expect(out[0]!.hits.map((h) => h.id)).toEqual([10, 13]);
    expect(out[1]!.score).toBe(0.6);
  });

  it('a hit bridging two blocks merges all three into the earliest block', () => {
    const out = expandWindows([hit(10, 0.9), hit(30, 0.8), hit(60, 0.7), hit(20, 0.6)], { before: 5, after: 5 }, oneDoc, sentences);
    expect(ranges(out)).toEqual([
      [5, 36],
      [55, 66],
    ]);
    expect(out[0]!.hits.map((h) => h.id)).toEqual([10, 30, 20]);
    expect(out[0]!.score).toBe(0.9);
    expect(out[0]!.cost).toBe(31);
  });

  it('a hit inside an existing block adds itself to it without changing the range', () => {
    const out = expandWindows([hit(10, 0.9), hit(11, 0.8)], { before: 3, after: 3 }, oneDoc, sentences);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ start: 7, end: 15, cost: 8 });
    expect(out[0]!.hits.map((h) => h.id)).toEqual([10, 11]);
  });
});

describe('expandWindows: token budget', () => {
  it('adds whole windows while they fit', () => {
    const out = expandWindows([hit(10), hit(50)], { before: 3, after: 3 }, oneDoc, sentences, 14);
    expect(ranges(out)).toEqual([
      [7, 14],
      [47, 54],
    ]);
    expect(out.every((b) => !b.shrunk)).toBe(true);
  });

  it('shrinks a window that does not fit around its hit, from the larger side first', () => {
    // 7 used by the first window, 3 left: (3,3) → (2,3) → (2,2) → (1,2) → (1,1) fits
    const out = expandWindows([hit(10), hit(50)], { before: 3, after: 3 }, oneDoc, sentences, 10);
    expect(out).toEqual([
      { start: 7, end: 14, hits: [hit(10)], score: 1, cost: 7, shrunk: false },
      { start: 49, end: 52, hits: [hit(50)], score: 1, cost: 3, shrunk: true },
    ]);
    // 4 left: (1,2)
    expect(ranges(expandWindows([hit(10), hit(50)], { before: 3, after: 3 }, oneDoc, sentences, 11))).toEqual([
      [7, 14],
      [49, 53],
    ]);
    // 1 left: the hit alone
    const alone = expandWindows([hit(10), hit(50)], { before: 3, after: 3 }, oneDoc, sentences, 8);
    expect(alone[1]).toMatchObject({ start: 50, end: 51, shrunk: true });
  });

  it('shrinks an asymmetric window from its larger side first', () => {
    // (1,2) costs 4 → (1,1) costs 3 → (0,1) costs 2 fits
    const out = expandWindows([hit(10)], { before: 1, after: 2 }, oneDoc, sentences, 2);
    expect(out).toEqual([{ start: 10, end: 12, hits: [hit(10)], score: 1, cost: 2, shrunk: true }]);
    const three = expandWindows([hit(10)], { before: 1, after: 2 }, oneDoc, sentences, 3);
    expect(ranges(three)).toEqual([[9, 12]]);
  });

  it('the first window shrinks too when the budget is smaller than a full window', () => {
    const out = expandWindows([hit(10)], { before: 3, after: 3 }, oneDoc, sentences, 5);
    expect(out).toEqual([{ start: 8, end: 13, hits: [hit(10)], score: 1, cost: 5, shrunk: true }]);
  });

  it('skips a hit that cannot fit even alone, and still adds a later smaller one', () => {
    const tokens = new Array(100).fill(1);
    tokens[50] = 20; // one very long sentence
    const out = expandWindows([hit(10, 0.9), hit(50, 0.8), hit(80, 0.7)], { before: 3, after: 3 }, oneDoc, tokenCost(tokens), 10);
    expect(out).toEqual([
      { start: 7, end: 14, hits: [hit(10, 0.9)], score: 0.9, cost: 7, shrunk: false },
      { start: 79, end: 82, hits: [hit(80, 0.7)], score: 0.7, cost: 3, shrunk: true },
    ]);
  });

  it('shrinks around the long sentences of a token array', () => {
    // sentences 47..53 cost 10,1,1,1,1,1,10: ±3 costs 25, ±2 costs 5
    const tokens = new Array(100).fill(1);
    tokens[47] = 10;
    tokens[53] = 10;
    const out = expandWindows([hit(50)], { before: 3, after: 3 }, oneDoc, tokenCost(tokens), 6);
    // (3,3)=25 → (2,3)=15 → (2,2)=5 fits
    expect(out).toEqual([{ start: 48, end: 53, hits: [hit(50)], score: 1, cost: 5, shrunk: true }]);
  });

  it('counts only the extra cost when a window merges with a block already taken', () => {
    // [7,14) costs 7; hit 12 would make it [7,16) = 9 (+2); with budget 8 it shrinks to (2,2) → [7,15)
    const fits = expandWindows([hit(10), hit(12)], { before: 3, after: 3 }, oneDoc, sentences, 9);
    expect(fits).toEqual([{ start: 7, end: 16, hits: [hit(10), hit(12)], score: 1, cost: 9, shrunk: false }]);
    const shrunk = expandWindows([hit(10), hit(12)], { before: 3, after: 3 }, oneDoc, sentences, 8);
    expect(shrunk).toEqual([{ start: 7, end: 15, hits: [hit(10), hit(12)], score: 1, cost: 8, shrunk: true }]);
  });

  it('a hit already inside a block costs nothing, even with the budget spent', () => {
    // hit 12's own window shrinks to (1,1) = [11,14), which adds nothing to [7,14)
    const out = expandWindows([hit(10), hit(12)], { before: 3, after: 3 }, oneDoc, sentences, 7);
    expect(out).toEqual([{ start: 7, end: 14, hits: [hit(10), hit(12)], score: 1, cost: 7, shrunk: true }]);
    // a window that lies inside the block entirely (clipped by the document end) is not shrunk
    const inside = expandWindows([hit(96), hit(98)], { before: 3, after: 3 }, oneDoc, sentences, 7);
    expect(inside).toEqual([{ start: 93, end: 100, hits: [hit(96), hit(98)], score: 1, cost: 7, shrunk: false }]);
  });

  it('a budget of 0 hands over nothing; null means no budget', () => {
    expect(expandWindows([hit(10)], { before: 3, after: 3 }, oneDoc, sentences, 0)).toEqual([]);
    expect(ranges(expandWindows([hit(10)], { before: 3, after: 3 }, oneDoc, sentences, null))).toEqual([[7, 14]]);
  });

  it('never exceeds the budget in total', () => {
    const hits = [5, 23, 41, 60, 62, 77, 90, 3].map((id, i) => hit(id, 1 - i / 10));
    for (const budget of [1, 4, 9, 13, 20, 33]) {
      const out = expandWindows(hits, { before: 3, after: 3 }, tens, sentences, budget);
      const total = out.reduce((s, b) => s + (b.end - b.start), 0);
      expect(total).toBeLessThanOrEqual(budget);
      expect(out.reduce((s, b) => s + b.cost, 0)).toBe(total);
      // no two blocks overlap
      const sorted = [...out].sort((x, y) => x.start - y.start);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
    }
  });
});
