import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import type { Candidate } from './candidates';
import { retrievalParams } from './params';
import { fuseRankings, queryKey, uniqueQueries } from './query-fusion';

/** Candidates from ids, best first, with descending raw scores and a BM25 rank. */
function cands(ids: number[]): Candidate[] {
  return ids.map((id, i) => ({ id, score: 10 - i, ranks: { bm25: i + 1 }, scores: { bm25: 10 - i } }));
}

describe('queryKey, uniqueQueries', () => {
  it('ignore case, spacing, width and end punctuation; keep the question first', () => {
    expect(queryKey('  What   is RRF？ ')).toBe(queryKey('what is rrf'));
    expect(uniqueQueries(['What is RRF?', 'what is rrf', '', 'RRF k', ' RRF  K '])).toEqual(['What is RRF?', 'RRF k']);
  });
});

describe('fuseRankings: reciprocal rank fusion over queries', () => {
  // Units a=0, b=1, c=2, d=3, e=4.
  it('scores Σ 1/(k + rank) with ranks from 1, unweighted, with exact values and order', () => {
    const out = fuseRankings([
      { query: 'question', candidates: cands([0, 1, 2]) },
      { query: 'variant 1', candidates: cands([1, 3]) },
      { query: 'variant 2', candidates: cands([1, 0, 4]) },
    ]);
    expect(out.map((c) => c.id)).toEqual([1, 0, 3, 2, 4]);
    const expected = [1 / 62 + 1 / 61 + 1 / 61, 1 / 61 + 1 / 62, 1 / 62, 1 / 63, 1 / 63];
    out.forEach((c, i) => {
      expect(Math.abs(c.score - expected[i]!)).toBeLessThan(1e-12);
      expect(c.queryFusion).toBe(c.score);
    });
    expect(out.map((c) => c.variants)).toEqual([
      [2, 1, 1],
      [1, null, 2],
      [null, 2, null],
      [3, null, null],
      [null, null, 3],
    ]);
  });

  it("rankFrom 0 gives LlamaIndex's own numbers (1/(k + rank0)) and k is honoured", () => {
    const out = fuseRankings([{ query: 'q', candidates: cands([0, 1]) }, { query: 'v', candidates: cands([1]) }], 60, 0);
    expect(out.map((c) => c.id)).toEqual([1, 0]);
    expect(Math.abs(out[0]!.score - (1 / 61 + 1 / 60))).toBeLessThan(1e-12);
    expect(Math.abs(out[1]!.score - 1 / 60)).toBeLessThan(1e-12);
    const k10 = fuseRankings([{ query: 'q', candidates: cands([0, 1]) }], 10);
    expect(Math.abs(k10[1]!.score - 1 / 12)).toBeLessThan(1e-12);
    expect(() => fuseRankings([{ query: 'q', candidates: cands([0]) }], 0, 0)).toThrow(/k > 0/);
  });

  it('breaks ties by first-seen order: the question before variants, then rank', () => {
    // a and d both score 1/61 + 1/62; a is seen first (the question's list).
    const out = fuseRankings([
      { query: 'q', candidates: cands([0, 3]) },
      { query: 'v', candidates: cands([3, 0]) },
    ]);
    expect(out.map((c) => c.id)).toEqual([0, 3]);
    expect(out[0]!.score).toBe(out[1]!.score);
    // Reversing the lists reverses the tie.
    const rev = fuseRankings([
      { query: 'v', candidates: cands([3, 0]) },
      { query: 'q', candidates: cands([0, 3]) },
    ]);
    expect(rev.map((c) => c.id)).toEqual([3, 0]);
  });

  it('keeps the fields of the best-ranked appearance (earlier query on a tie), score replaced', () => {
    const q: Candidate[] = [
      { id: 7, score: 0.2, ranks: { bm25: 1 }, scores: { bm25: 0.2 } },
      { id: 8, score: 0.1, ranks: { bm25: 2 }, scores: { bm25: 0.1 } },
    ];
    const v: Candidate[] = [
      { id: 8, score: 0.9, ranks: { bm25: 1, vector: 1 }, scores: { bm25: 3, vector: 0.9 }, fused: 0.033 },
      { id: 7, score: 0.5, ranks: { bm25: 2 }, scores: { bm25: 0.5 } },
    ];
    const out = fuseRankings([
      { query: 'q', candidates: q },
      { query: 'v', candidates: v },
    ]);
    const byId = new Map(out.map((c) => [c.id, c]));
    expect(byId.get(7)!.ranks).toEqual({ bm25: 1 }); // rank 1 in q, 2 in v
    expect(byId.get(7)!.scores).toEqual({ bm25: 0.2 });
    expect(byId.get(8)!.ranks).toEqual({ bm25: 1, vector: 1 }); // rank 1 in v, 2 in q
    expect(byId.get(8)!.fused).toBe(0.033);
    expect(byId.get(8)!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    // The inputs are not mutated.
    expect(q[0]!.score).toBe(0.2);
    expect('variants' in q[0]!).toBe(false);
  });

  it('a unit found by one variant only is kept, with null ranks elsewhere', () => {
    const out = fuseRankings([
      { query: 'q', candidates: [] },
      { query: 'v1', candidates: [] },
      { query: 'v2', candidates: cands([5]) },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.variants).toEqual([null, null, 1]);
    expect(Math.abs(out[0]!.score - 1 / 61)).toBeLessThan(1e-12);
  });

  it('empty input gives an empty result', () => {
    expect(fuseRankings([])).toEqual([]);
    expect(fuseRankings([{ query: 'q', candidates: [] }])).toEqual([]);
  });

  it('a list that repeats a unit counts it once, at its best rank', () => {
    const out = fuseRankings([{ query: 'q', candidates: cands([0, 0, 1]) }]);
    expect(out.map((c) => c.id)).toEqual([0, 1]);
    expect(Math.abs(out[0]!.score - 1 / 61)).toBeLessThan(1e-12);
    expect(Math.abs(out[1]!.score - 1 / 63)).toBeLessThan(1e-12);
    expect(out[1]!.variants).toEqual([3]);
  });
});

describe('RetrievalEngine query fusion (BM25 only)', () => {
  const text = [
    'Tea is grown on steep hillsides in Darjeeling.',
    'The leaves are withered and rolled by hand.',
    'Black tea is fully oxidised before drying.',
    'Green tea is steamed to stop oxidation.',
    'Coffee cherries are picked when they turn red.',
    'Roasting develops the flavour of the coffee beans.',
    'Espresso forces hot water through finely ground coffee.',
    'Milk is steamed for a cappuccino.',
  ].join(' ');
  const engine = new RetrievalEngine({ structure: { chunkLevels: [64, 16] } });
  engine.addDocuments([documentFromText(text, 'drinks.txt')]);
  const p = { retriever: 'bm25' as const, topK: 4, window: { before: 0, after: 0, bySection: false } };

  it('fuses per-query BM25 lists exactly as fuseRankings does, cut to topK', async () => {
    const rp = retrievalParams(p);
    const queries = ['how is black tea oxidised', 'espresso coffee'];
    const per = await Promise.all(queries.map(async (q) => ({ query: q, candidates: (await engine.candidates(q, 'sentence', rp)).candidates })));
    const { candidates, notes } = await engine.fusedCandidates(queries, 'sentence', rp);
    expect(candidates).toEqual(fuseRankings(per).slice(0, 4));
    expect(candidates.length).toBe(4);
    expect(notes).toEqual([]);
  });

  it('searchFused: windows over fused candidates; each block says which queries found it', async () => {
    const queries = ['how is black tea oxidised', 'espresso coffee', 'cappuccino milk'];
    const r = await engine.searchFused(queries, 'window', p);
    expect(r.queries).toEqual(queries);
    expect(r.foundBy).toHaveLength(r.blocks.length);
    const byText = (s: string) => r.foundBy[r.blocks.findIndex((b) => b.text.includes(s))];
    expect(byText('Black tea is fully oxidised')).toEqual([0]);
    expect(byText('Espresso forces')).toContain(1);
    expect(byText('Milk is steamed')).toContain(2);
    // Block scores are fused RRF scores (a single hit's window keeps its hit's score).
    for (const b of r.blocks) expect(b.score).toBeLessThanOrEqual(queries.length / 61 + 1e-12);
    // The question alone is the plain window column.
    const [plain] = await engine.search(queries[0]!, ['window'], p);
    const alone = await engine.searchFused([queries[0]!], 'window', p);
    expect(alone.blocks.map((b) => b.id)).toEqual(plain!.blocks.map((b) => b.id));
    expect(alone.foundBy.every((f) => f.length === 1 && f[0] === 0)).toBe(true);
  });

  it('foundBy works for leaf and chunk strategies too', async () => {
    for (const s of ['automerge', 'rse', 'naive', 'sentence', 'adaptive'] as const) {
      const r = await engine.searchFused(['black tea', 'espresso'], s, p);
      expect(r.blocks.length).toBeGreaterThan(0);
      for (const f of r.foundBy) expect(f.length).toBeGreaterThan(0);
    }
  });
});
