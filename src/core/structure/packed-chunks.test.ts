import { describe, expect, it } from 'vitest';
import { DEFAULT_PACKED, packSentences, validatePacked } from './packed-chunks';

/**
 * Expected chunks follow LlamaIndex's SentenceSplitter._merge step by step: a sentence is
 * taken while cur_len + tokens ≤ size, or always when the chunk is new; otherwise the chunk
 * closes and the next starts with trailing sentences while cur_len + tokens ≤ overlap.
 */
describe('packSentences (LlamaIndex SentenceSplitter._merge on whole sentences)', () => {
  it('packs up to the size and carries whole trailing sentences within the overlap', () => {
    // size 100, overlap 25, tokens [40, 50, 30, 20, 60]:
    // 40, 90 | 90 + 30 > 100 → close [0,2); carry: 50 > 25 → nothing.
    // 30, 50 | 50 + 60 > 100 → close [2,4); carry: 20 ≤ 25 (len 20), then 20 + 30 > 25 stop → start at 3.
    // new chunk takes 60 (len 80); end → [3,5).
    expect(packSentences([40, 50, 30, 20, 60], { size: 100, overlap: 25 })).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 3, end: 5 },
    ]);
  });

  it('a sentence larger than the overlap is not carried, and one larger than the size is a chunk of its own', () => {
    // size 100, overlap 20, tokens [30, 150, 10]:
    // 30 | 30 + 150 > 100 → close [0,1); carry: 30 > 20 → nothing.
    // new chunk always takes a sentence: 150 | 150 + 10 > 100 → close [1,2); carry: 150 > 20 → nothing. 10 → [2,3).
    expect(packSentences([30, 150, 10], { size: 100, overlap: 20 })).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
      { start: 2, end: 3 },
    ]);
  });

  it('carries several sentences, and the sentence after the overlap is taken even past the size (LlamaIndex’s own rule)', () => {
    // size 100, overlap 45, tokens [60, 30, 10, 95]:
    // 60, 90, 100 (≤ 100) | 100 + 95 > 100 → close [0,3); carry 10 (10), 30 (40), then 40 + 60 > 45 stop → start at 1.
    // new chunk takes 95: len 40 + 95 = 135 > 100, as LlamaIndex's comment admits; end → [1,4).
    expect(packSentences([60, 30, 10, 95], { size: 100, overlap: 45 })).toEqual([
      { start: 0, end: 3 },
      { start: 1, end: 4 },
    ]);
  });

  it('can carry the whole previous chunk when it fits in the overlap', () => {
    // size 60, overlap 20, tokens [10, 55, 5]:
    // 10 | 10 + 55 > 60 → close [0,1); carry 10 ≤ 20 → start at 0 (len 10).
    // new chunk takes 55 (len 65) | 65 + 5 > 60 → close [0,2); carry: 55 > 20 → nothing. 5 → [2,3).
    expect(packSentences([10, 55, 5], { size: 60, overlap: 20 })).toEqual([
      { start: 0, end: 1 },
      { start: 0, end: 2 },
      { start: 2, end: 3 },
    ]);
  });

  it('without overlap the chunks tile the sentences; no sentences, no chunks', () => {
    expect(packSentences([10, 10, 10, 10, 10], { size: 20, overlap: 0 })).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 4, end: 5 },
    ]);
    expect(packSentences([], DEFAULT_PACKED)).toEqual([]);
  });

  it('defaults to the naive chunks’ size and LlamaIndex’s overlap ratio (200/1024 of 128, rounded)', () => {
    expect(DEFAULT_PACKED).toEqual({ size: 128, overlap: Math.round((128 * 200) / 1024) });
  });

  it('rejects invalid parameters with a RangeError naming the field', () => {
    expect(() => validatePacked({ size: 0, overlap: 0 })).toThrow(new RangeError('packed.size must be a whole number of tokens ≥ 1, got 0'));
    expect(() => validatePacked({ size: 1.5, overlap: 0 })).toThrow(/^packed\.size/);
    expect(() => validatePacked({ size: 64, overlap: 64 })).toThrow(/^packed\.overlap must be a whole number ≥ 0 and smaller than packed\.size \(64\), got 64/);
    expect(() => validatePacked({ size: 64, overlap: -1 })).toThrow(RangeError);
  });
});
