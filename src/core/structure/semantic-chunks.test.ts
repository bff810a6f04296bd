import { describe, expect, it } from 'vitest';
import { bufferedRanges, DEFAULT_SEMANTIC, neighbourDistances, percentileLinear, semanticGroups, validateSemantic } from './semantic-chunks';

describe('percentileLinear (numpy.percentile, default linear method)', () => {
  it('interpolates at q/100 · (n − 1) between the sorted values, bit for bit as numpy', () => {
    // sorted [0.05, 0.1, 0.2, 0.4, 0.5]; q 95: index 3.8 → 0.4 + 0.8 · 0.1 = 0.48 (numpy: 0.48)
    expect(percentileLinear([0.1, 0.5, 0.2, 0.05, 0.4], 95)).toBe(0.48);
    // q 50: index 2 → 0.2; q 0 → the minimum; q 100 → the maximum
    expect(percentileLinear([0.1, 0.5, 0.2, 0.05, 0.4], 50)).toBe(0.2);
    expect(percentileLinear([0.1, 0.5, 0.2, 0.05, 0.4], 0)).toBe(0.05);
    expect(percentileLinear([0.1, 0.5, 0.2, 0.05, 0.4], 100)).toBe(0.5);
    // sorted [0.07, 0.12, 0.18, 0.25, 0.31, 0.44, 0.64]; q 95: index 5.7 → 0.64 − 0.2 · 0.3,
    // computed from the upper value as numpy's _lerp does for a fraction ≥ 0.5: numpy 0.5799999999999998
    expect(percentileLinear([0.12, 0.31, 0.07, 0.64, 0.25, 0.18, 0.44], 95)).toBe(0.5799999999999998);
    // q 90: index 5.4 → 0.52 (numpy: 0.52)
    expect(percentileLinear([0.12, 0.31, 0.07, 0.64, 0.25, 0.18, 0.44], 90)).toBe(0.52);
    expect(percentileLinear([0.3], 95)).toBe(0.3);
  });
});

describe('semanticGroups (LlamaIndex SemanticSplitterNodeParser._build_node_chunks)', () => {
  // Six sentences, five neighbour distances.
  const d = [0.1, 0.5, 0.2, 0.05, 0.4];

  it('breaks after sentence i where distance_i is strictly above the percentile', () => {
    // q 95 → threshold 0.48: only distance 1 (0.5) is above → [0,2) [2,6)
    expect(semanticGroups(6, d, 95)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 6 },
    ]);
    // q 50 → threshold 0.2: distances 1 (0.5) and 4 (0.4); distance 2 equals it and is no break
    expect(semanticGroups(6, d, 50)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 5 },
      { start: 5, end: 6 },
    ]);
    // q 0 → threshold 0.05: every distance but the minimum
    expect(semanticGroups(6, d, 0)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
      { start: 2, end: 3 },
      { start: 3, end: 5 },
      { start: 5, end: 6 },
    ]);
    // q 100 → threshold = the maximum: nothing is above it, one chunk
    expect(semanticGroups(6, d, 100)).toEqual([{ start: 0, end: 6 }]);
  });

  it('eight sentences at the default 95th percentile: one break at the largest distance', () => {
    // threshold 0.5799999999999998 (above); 0.64 at index 3 is above → [0,4) [4,8); at q 80 (0.414) 0.44 at index 6 too
    const dd = [0.12, 0.31, 0.07, 0.64, 0.25, 0.18, 0.44];
    expect(semanticGroups(8, dd, DEFAULT_SEMANTIC.percentile)).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 8 },
    ]);
    expect(semanticGroups(8, dd, 80)).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 7 },
      { start: 7, end: 8 },
    ]);
  });

  it('equal distances give no break; a one-sentence document is one chunk; none, none', () => {
    expect(semanticGroups(4, [0.3, 0.3, 0.3], 95)).toEqual([{ start: 0, end: 4 }]);
    expect(semanticGroups(1, [], 95)).toEqual([{ start: 0, end: 1 }]);
    expect(semanticGroups(0, [], 95)).toEqual([]);
    expect(() => semanticGroups(3, [0.1], 95)).toThrow(RangeError);
  });
});

describe('buffered sentences and their distances', () => {
  it('each sentence with `buffer` neighbours on each side, clipped at the document’s ends', () => {
    expect(bufferedRanges(4, 1)).toEqual([
      [0, 2],
      [0, 3],
      [1, 4],
      [2, 4],
    ]);
    expect(bufferedRanges(3, 0)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(bufferedRanges(2, 5)).toEqual([
      [0, 2],
      [0, 2],
    ]);
  });

  it('distance_i = 1 − cosine(e_i, e_i+1), whatever the vectors’ lengths', () => {
    // [1,0]·[0,2] = 0 → 1; [0,2]·[3,3] / (2 · 3√2) = 1/√2 → 1 − 0.7071…
    const v = new Float32Array([1, 0, 0, 2, 3, 3]);
    const out = neighbourDistances(v, 2, 3);
    expect(out).toHaveLength(2);
    expect(out[0]).toBe(1);
    expect(out[1]).toBeCloseTo(1 - Math.SQRT1_2, 12);
  });

  it('rejects invalid parameters with a RangeError naming the field', () => {
    expect(DEFAULT_SEMANTIC).toEqual({ buffer: 1, percentile: 95 });
    expect(() => validateSemantic({ buffer: -1, percentile: 95 })).toThrow(/^semantic\.buffer/);
    expect(() => validateSemantic({ buffer: 1.5, percentile: 95 })).toThrow(/^semantic\.buffer/);
    expect(() => validateSemantic({ buffer: 1, percentile: 101 })).toThrow(new RangeError('semantic.percentile must be a number in [0, 100], got 101'));
    expect(() => validateSemantic({ buffer: 1, percentile: Number.NaN })).toThrow(/^semantic\.percentile/);
  });
});
