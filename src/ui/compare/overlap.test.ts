import { describe, expect, it } from 'vitest';
import { markSentences, overlapMatrix, pairOverlap, sentenceIds, sharedCount } from './overlap';

const block = (start: number, end: number) => ({ sentences: { start, end } });

describe('overlap of two columns by sentence', () => {
  it('lists the distinct sentences of overlapping blocks once, ascending', () => {
    expect(sentenceIds([block(5, 8), block(2, 4), block(6, 10)])).toEqual([2, 3, 5, 6, 7, 8, 9]);
    expect(sentenceIds([])).toEqual([]);
    // Nested, touching, empty and repeated ranges.
    expect(sentenceIds([block(3, 3), block(4, 6), block(0, 10), block(2, 3), block(10, 12), block(10, 12)])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(sentenceIds([block(7, 9), block(1, 2)])).toEqual([1, 7, 8]);
  });

  it('counts the ids two ascending lists share', () => {
    expect(sharedCount([1, 2, 3, 7, 9], [0, 2, 3, 8, 9, 10])).toBe(3);
    expect(sharedCount([], [1, 2])).toBe(0);
    expect(sharedCount([5], [5])).toBe(1);
  });

  it('counts shared and only-one sentences, their tokens, Jaccard and shared ÷ smaller', () => {
    // A: 0,1,2,3 and 10,11 (6 sentences); B: 2,3,4 and 11,12 (5 sentences). Shared: 2,3,11.
    const a = [block(0, 4), block(10, 12)];
    const b = [block(2, 5), block(11, 13)];
    const tokens = (i: number) => i + 1;
    expect(pairOverlap(a, b, tokens)).toEqual({
      shared: 3,
      onlyA: 3,
      onlyB: 2,
      jaccard: 3 / 8,
      ofSmaller: 3 / 5,
      // shared 3+4+12, only A 1+2+11, only B 5+13
      tokens: { shared: 19, onlyA: 14, onlyB: 18 },
    });
    expect(pairOverlap(b, a)).toEqual({ shared: 3, onlyA: 2, onlyB: 3, jaccard: 3 / 8, ofSmaller: 3 / 5, tokens: null });
  });

  it('says when nothing can be compared, and drops token sums it cannot complete', () => {
    expect(pairOverlap([], [])).toEqual({ shared: 0, onlyA: 0, onlyB: 0, jaccard: null, ofSmaller: null, tokens: null });
    expect(pairOverlap([block(0, 2)], [])).toEqual({ shared: 0, onlyA: 2, onlyB: 0, jaccard: 0, ofSmaller: null, tokens: null });
    expect(pairOverlap([block(0, 2)], [block(0, 3)], (i) => (i === 2 ? undefined : 7)).tokens).toBeNull();
    // One column holding the other: shared ÷ smaller is 1, Jaccard is not.
    expect(pairOverlap([block(0, 2)], [block(0, 4)])).toMatchObject({ jaccard: 0.5, ofSmaller: 1 });
  });

  it('builds a symmetric matrix with each column against itself on the diagonal', () => {
    const m = overlapMatrix([
      { id: 'window', blocks: [block(0, 4)] },
      { id: 'naive', blocks: [block(2, 6)] },
      { id: 'hybrid', blocks: [] },
    ]);
    expect(m.ids).toEqual(['window', 'naive', 'hybrid']);
    expect(m.sentences).toEqual([4, 4, 0]);
    expect(m.cells.map((row) => row.map((c) => c.jaccard))).toEqual([
      [1, 2 / 6, 0],
      [2 / 6, 1, 0],
      [0, 0, null],
    ]);
    expect(m.cells[0]![1]).toMatchObject({ shared: 2, onlyA: 2, onlyB: 2 });
    expect(m.cells[1]![0]).toMatchObject({ shared: 2, onlyA: 2, onlyB: 2 });
  });

  it('gives every cell exactly as pairOverlap does, and lists each column once', () => {
    // Columns of overlapping ranges from a fixed linear congruential sequence.
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const columns = Array.from({ length: 6 }, (_, c) => ({
      id: `c${c}`,
      blocks: Array.from({ length: c === 5 ? 0 : 3 + next(8) }, () => {
        const start = next(60);
        return block(start, start + next(12));
      }),
    }));
    const listed: (readonly unknown[])[] = [];
    const m = overlapMatrix(columns, (blocks) => (listed.push(blocks), sentenceIds(blocks)));
    expect(listed).toEqual(columns.map((c) => c.blocks));
    expect(m.sentences).toEqual(columns.map((c) => sentenceIds(c.blocks).length));
    for (let i = 0; i < columns.length; i++) for (let j = 0; j < columns.length; j++) expect(m.cells[i]![j]).toEqual(pairOverlap(columns[i]!.blocks, columns[j]!.blocks));
  });
});

describe('marking a block’s sentences', () => {
  // Document text "Aa. Bb. Cc. Dd." with sentences 7..10 at 0-3, 4-7, 8-11, 12-15.
  const spans = new Map([
    [7, { start: 0, end: 3 }],
    [8, { start: 4, end: 7 }],
    [9, { start: 8, end: 11 }],
    [10, { start: 12, end: 15 }],
  ]);

  it('marks each sentence shared or only, keeps the text between them, and starts a run where the mark changes', () => {
    const b = { sentences: { start: 7, end: 11 }, start: 0, end: 15, text: 'Aa. Bb. Cc. Dd.' };
    const pieces = markSentences(b, spans, new Set([8, 9]));
    expect(pieces).toEqual([
      { text: 'Aa.', mark: 'only', sentence: 7, runStart: true },
      { text: ' ', mark: null },
      { text: 'Bb.', mark: 'shared', sentence: 8, runStart: true },
      { text: ' ', mark: null },
      { text: 'Cc.', mark: 'shared', sentence: 9, runStart: false },
      { text: ' ', mark: null },
      { text: 'Dd.', mark: 'only', sentence: 10, runStart: true },
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe(b.text);
  });

  it('marks the part of a sentence a chunk holds when it starts or ends inside one', () => {
    // A naive chunk "b. Cc. D" (document 5–13) overlaps sentences 8, 9 and 10.
    const b = { sentences: { start: 8, end: 11 }, start: 5, end: 13, text: 'b. Cc. D' };
    expect(markSentences(b, spans, new Set([10]))).toEqual([
      { text: 'b.', mark: 'only', sentence: 8, runStart: true },
      { text: ' ', mark: null },
      { text: 'Cc.', mark: 'only', sentence: 9, runStart: false },
      { text: ' ', mark: null },
      { text: 'D', mark: 'shared', sentence: 10, runStart: true },
    ]);
  });

  it('leaves sentences without a known span as plain text', () => {
    const b = { sentences: { start: 7, end: 9 }, start: 0, end: 7, text: 'Aa. Bb.' };
    expect(markSentences(b, new Map([[8, { start: 4, end: 7 }]]), new Set())).toEqual([
      { text: 'Aa. ', mark: null },
      { text: 'Bb.', mark: 'only', sentence: 8, runStart: true },
    ]);
  });
});
