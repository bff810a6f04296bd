import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, type RankedList } from './rrf';

// Unit ids for the reference cases: a=0, b=1, c=2, d=3, f=5.
const a = 0;
const b = 1;
const c = 2;
const d = 3;
const f = 5;

/** A ranked list from ids, best first, with descending raw scores. */
function list(name: string, ids: number[], weight?: number): RankedList {
  return { name, items: ids.map((id, i) => ({ id, score: 10 - i })), ...(weight !== undefined ? { weight } : {}) };
}

describe('reciprocalRankFusion: LangChain EnsembleRetriever reference cases', () => {
  it('[a,b,c] + [b] puts b first and returns 3 results with exact scores', () => {
    const out = reciprocalRankFusion([list('r1', [a, b, c]), list('r2', [b])]);
    expect(out.map((x) => x.id)).toEqual([b, a, c]);
    expect(out).toHaveLength(3);
    expect(out[0]!.score).toBeCloseTo(0.5 / 62 + 0.5 / 61, 12);
    expect(out[1]!.score).toBeCloseTo(0.5 / 61, 12);
    expect(out[2]!.score).toBeCloseTo(0.5 / 63, 12);
  });

  it('[a,b,c] + [d] puts a first and returns 4 results; the tie a/d keeps first-seen order', () => {
    const out = reciprocalRankFusion([list('r1', [a, b, c]), list('r2', [d])]);
    expect(out).toHaveLength(4);
    expect(out[0]!.id).toBe(a);
    expect(out.map((x) => x.id)).toEqual([a, d, b, c]);
    expect(out[0]!.score).toBeCloseTo(0.5 / 61, 12);
    expect(out[1]!.score).toBeCloseTo(0.5 / 61, 12);
    expect(out[0]!.score).toBe(out[1]!.score);
    expect(out[2]!.score).toBeCloseTo(0.5 / 62, 12);
    expect(out[3]!.score).toBeCloseTo(0.5 / 63, 12);
  });

  it('uses c = 60, ranks from 1 and weights 1/n by default', () => {
    const out = reciprocalRankFusion([list('x', [a]), list('y', [b]), list('z', [a])]);
    expect(out[0]!.id).toBe(a);
    expect(out[0]!.score).toBeCloseTo(2 * (1 / 3) / 61, 12);
    expect(out[1]!.score).toBeCloseTo((1 / 3) / 61, 12);
  });

  it('applies explicit weights and a custom c', () => {
    const out = reciprocalRankFusion([list('bm25', [a, b], 0.3), list('vector', [b, a], 0.7)], { c: 10 });
    expect(out.map((x) => x.id)).toEqual([b, a]);
    expect(out[0]!.score).toBeCloseTo(0.3 / 12 + 0.7 / 11, 12);
    expect(out[1]!.score).toBeCloseTo(0.3 / 11 + 0.7 / 12, 12);
  });
});

describe('reciprocalRankFusion: Haystack normalised variant', () => {
  it('[a,b,c] + [b,c,a,f] with c=61, ranks from 0, normalised → b 0.9919, a 0.9841, c 0.9761, f 0.4766', () => {
    const out = reciprocalRankFusion([list('r1', [a, b, c]), list('r2', [b, c, a, f])], { c: 61, rankFrom: 0, normalize: true });
    expect(out.map((x) => x.id)).toEqual([b, a, c, f]);
    expect(out.map((x) => Number(x.score.toFixed(4)))).toEqual([0.9919, 0.9841, 0.9761, 0.4766]);
  });

  it('a unit first in every list scores exactly 1', () => {
    const out = reciprocalRankFusion([list('r1', [a, b]), list('r2', [a, c]), list('r3', [a])], { c: 61, rankFrom: 0, normalize: true });
    expect(out[0]!.id).toBe(a);
    expect(out[0]!.score).toBeCloseTo(1, 12);
  });

  it('rankFrom only shifts the score: recorded ranks stay 1-based', () => {
    const out = reciprocalRankFusion([list('r1', [a, b]), list('r2', [b])], { c: 61, rankFrom: 0 });
    const byId = new Map(out.map((x) => [x.id, x]));
    expect(byId.get(b)!.ranks).toEqual({ r1: 2, r2: 1 });
    expect(byId.get(a)!.ranks).toEqual({ r1: 1, r2: null });
    expect(byId.get(b)!.score).toBeCloseTo(0.5 / 62 + 0.5 / 61, 12);
    expect(byId.get(a)!.score).toBeCloseTo(0.5 / 61, 12);
  });
});

describe('reciprocalRankFusion: provenance, weights and ties', () => {
  it('records 1-based ranks per list (null when absent) and the raw scores where present', () => {
    const lists: RankedList[] = [
      { name: 'bm25', items: [{ id: a, score: 7.5 }, { id: b, score: 3.25 }] },
      { name: 'vector', items: [{ id: c, score: 0.9 }, { id: a, score: 0.8 }] },
    ];
    const out = reciprocalRankFusion(lists);
    const byId = new Map(out.map((x) => [x.id, x]));
    expect(byId.get(a)).toMatchObject({ ranks: { bm25: 1, vector: 2 }, scores: { bm25: 7.5, vector: 0.8 } });
    expect(byId.get(b)).toMatchObject({ ranks: { bm25: 2, vector: null }, scores: { bm25: 3.25 } });
    expect(byId.get(b)!.scores).not.toHaveProperty('vector');
    expect(byId.get(c)).toMatchObject({ ranks: { bm25: null, vector: 1 }, scores: { vector: 0.9 } });
  });

  it('weight 0 means 0: the list contributes nothing and its own units are not returned', () => {
    const out = reciprocalRankFusion([list('bm25', [a, b], 1), list('vector', [c, b], 0)]);
    expect(out.map((x) => x.id)).toEqual([a, b]);
    expect(out[0]!.score).toBeCloseTo(1 / 61, 12);
    expect(out[1]!.score).toBeCloseTo(1 / 62, 12);
    // ranks are still recorded for a unit that is present elsewhere
    expect(out[1]!.ranks).toEqual({ bm25: 2, vector: 2 });
    expect(out[1]!.scores).toEqual({ bm25: 9, vector: 9 });
  });

  it('all weights 0 returns nothing', () => {
    expect(reciprocalRankFusion([list('bm25', [a, b], 0), list('vector', [b], 0)])).toEqual([]);
  });

  it('ties keep first-seen order: list order, then rank', () => {
    // Each id sits at the same rank in one list only: equal scores across lists.
    const out = reciprocalRankFusion([list('r1', [d, a]), list('r2', [c, b])]);
    expect(out.map((x) => x.id)).toEqual([d, c, a, b]);
    // a full tie across several units keeps the order in which they were first seen
    const tie = reciprocalRankFusion([list('r1', [c, a]), list('r2', [a, c])]);
    expect(tie[0]!.score).toBe(tie[1]!.score);
    expect(tie.map((x) => x.id)).toEqual([c, a]);
  });

  it('dedupes by id: a unit repeated inside one list counts once, at its best rank', () => {
    const out = reciprocalRankFusion([{ name: 'r', items: [{ id: a, score: 3 }, { id: b, score: 2 }, { id: a, score: 1 }] }]);
    expect(out.map((x) => x.id)).toEqual([a, b]);
    expect(out[0]!.score).toBeCloseTo(1 / 61, 12);
    expect(out[0]!.ranks).toEqual({ r: 1 });
    expect(out[0]!.scores).toEqual({ r: 3 });
  });

  it('returns nothing for no lists or empty lists', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([list('r1', []), list('r2', [])])).toEqual([]);
  });

  it('c = 0 is allowed without normalisation', () => {
    const out = reciprocalRankFusion([list('r', [a, b], 1)], { c: 0 });
    expect(out.map((x) => x.score)).toEqual([1, 0.5]);
  });

  it('throws on an invalid c', () => {
    expect(() => reciprocalRankFusion([list('r', [a])], { c: -1 })).toThrow();
    expect(() => reciprocalRankFusion([list('r', [a])], { c: Number.NaN })).toThrow();
    expect(() => reciprocalRankFusion([list('r', [a])], { c: Number.POSITIVE_INFINITY })).toThrow();
    expect(() => reciprocalRankFusion([list('r', [a])], { c: 0, normalize: true })).toThrow();
  });

  it('throws on negative or non-finite weights', () => {
    expect(() => reciprocalRankFusion([list('r1', [a], 0.5), list('r2', [b], -0.1)])).toThrow(/r2/);
    expect(() => reciprocalRankFusion([list('r1', [a], Number.NaN)])).toThrow();
    expect(() => reciprocalRankFusion([list('r1', [a], Number.POSITIVE_INFINITY)])).toThrow();
  });
});
