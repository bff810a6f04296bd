import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode, SHARED_DATA } from '../../node/setup';
import { FlatIndex } from './flat-index';
import { LexicalIndex } from './lexical-index';
import { TopK } from './top-k';
import type { Hit } from './vector-index';
import { VOY_MAX_DIM, VoyIndex } from './voy-index';
import { mulberry32 } from '../util/random';

const rng = mulberry32;

function randomVectors(n: number, dim: number, seed: number): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(n * dim);
  for (let i = 0; i < v.length; i++) v[i] = r() * 2 - 1;
  return v;
}

function shuffle<T>(xs: T[], r: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** Exact cosine in float64 between a query and row `id` of raw (unnormalised) data. */
function cosine(q: Float32Array, data: Float32Array, id: number, dim: number): number {
  let dot = 0;
  let nq = 0;
  let nd = 0;
  for (let j = 0; j < dim; j++) {
    const a = q[j]!;
    const b = data[id * dim + j]!;
    dot += a * b;
    nq += a * a;
    nd += b * b;
  }
  return dot / Math.sqrt(nq * nd);
}

/** The reference: all hits sorted by score (desc), ties by smaller id. */
function fullSort(hits: Hit[], k: number): Hit[] {
  return [...hits].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, Math.max(0, k));
}

describe('TopK', () => {
  it('equals a full sort for random scores, across many seeds and k', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = rng(seed);
      const n = 1 + Math.floor(r() * 300);
      const k = Math.floor(r() * 40);
      // Coarse scores so ties are frequent; ids pushed in random order.
      const ids = shuffle(
        Array.from({ length: n }, (_, i) => i),
        r,
      );
      const hits = ids.map((id) => ({ id, score: Math.fround(Math.floor(r() * 25) / 8 - 1) }));
      const top = new TopK(k);
      for (const h of hits) top.push(h.id, h.score);
      expect(top.result(), `seed ${seed}, n ${n}, k ${k}`).toEqual(fullSort(hits, k));
    }
  });

  it('equals a full sort with continuous random scores', () => {
    const r = rng(99);
    const hits = Array.from({ length: 5000 }, (_, id) => ({ id, score: Math.fround(r() * 2 - 1) }));
    const top = new TopK(25);
    for (const h of shuffle([...hits], r)) top.push(h.id, h.score);
    expect(top.result()).toEqual(fullSort(hits, 25));
  });

  it('breaks ties by the smaller id, whatever the push order', () => {
    const top = new TopK(3);
    for (const id of [9, 4, 7, 1, 8, 2, 6]) top.push(id, 0.5);
    expect(top.result()).toEqual([
      { id: 1, score: 0.5 },
      { id: 2, score: 0.5 },
      { id: 4, score: 0.5 },
    ]);
    const top2 = new TopK(2);
    top2.push(5, 1);
    top2.push(3, 0.25);
    top2.push(2, 0.25);
    top2.push(4, 0.25);
    expect(top2.result()).toEqual([
      { id: 5, score: 1 },
      { id: 2, score: 0.25 },
    ]);
  });

  it('returns everything when k is larger than n', () => {
    const top = new TopK(10);
    top.push(0, 0.1);
    top.push(1, 0.9);
    top.push(2, 0.5);
    expect(top.result().map((h) => h.id)).toEqual([1, 2, 0]);
    expect(top.threshold).toBe(-Infinity);
  });

  it('keeps nothing with k = 0', () => {
    const top = new TopK(0);
    top.push(0, 1);
    top.push(1, 2);
    expect(top.result()).toEqual([]);
  });

  it('threshold is the worst kept score once full', () => {
    const top = new TopK(2);
    top.push(0, 0.25);
    expect(top.threshold).toBe(-Infinity);
    top.push(1, 0.75);
    expect(top.threshold).toBe(0.25);
    top.push(2, 0.5);
    expect(top.threshold).toBe(0.5);
  });
});

describe('FlatIndex', () => {
  it('scores exact cosines for small hand-made vectors', () => {
    const idx = new FlatIndex(2);
    idx.add(new Float32Array([1, 0, 0, 3, 2, 2, -1, 0]));
    expect(idx.size).toBe(4);
    const hits = idx.search(new Float32Array([5, 0]), 4);
    expect(hits.map((h) => h.id)).toEqual([0, 2, 1, 3]);
    expect(hits[0]!.score).toBeCloseTo(1, 6);
    expect(hits[1]!.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(hits[2]!.score).toBeCloseTo(0, 6);
    expect(hits[3]!.score).toBeCloseTo(-1, 6);
    // A query at 45°: ids 0 and 1 tie at 1/√2 (smaller id first), id 2 is exact.
    const diag = idx.search(new Float32Array([1, 1]), 3);
    expect(diag.map((h) => h.id)).toEqual([2, 0, 1]);
    expect(diag[0]!.score).toBeCloseTo(1, 6);
    expect(diag[1]!.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(diag[2]!.score).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('3-d cosines match a float64 computation', () => {
    const raw = new Float32Array([1, 2, 3, -4, 0.5, 2, 0, 0, 7]);
    const idx = new FlatIndex(3);
    idx.add(raw);
    const q = new Float32Array([0.3, -1, 2]);
    for (const h of idx.search(q, 3)) expect(h.score).toBeCloseTo(cosine(q, raw, h.id, 3), 6);
    expect(idx.score(new Float32Array([0, 0, 1]), 2)).toBeCloseTo(1, 6);
  });

  it('applies the filter before ranking: top-k still returns k allowed items', () => {
    const dim = 8;
    const raw = randomVectors(200, dim, 7);
    const idx = new FlatIndex(dim);
    idx.add(raw);
    const q = randomVectors(1, dim, 8);
    const allow = (id: number) => id % 5 === 3;
    const hits = idx.search(q, 10, allow);
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => allow(h.id))).toBe(true);
    // The same as ranking only the allowed vectors.
    const expected = fullSort(
      Array.from({ length: 200 }, (_, id) => ({ id, score: cosine(q, raw, id, dim) })).filter((h) => allow(h.id)),
      10,
    );
    expect(hits.map((h) => h.id)).toEqual(expected.map((h) => h.id));
    // A filter that keeps fewer than k: all of them.
    expect(idx.search(q, 10, (id) => id === 4 || id === 150).map((h) => h.id).sort((a, b) => a - b)).toEqual([4, 150]);
    expect(idx.search(q, 10, () => false)).toEqual([]);
  });

  it('throws on a dimension mismatch', () => {
    const idx = new FlatIndex(4);
    expect(() => idx.add(new Float32Array(6))).toThrow(/not a multiple/);
    idx.add(new Float32Array([1, 0, 0, 0]));
    expect(() => idx.search(new Float32Array(3), 1)).toThrow(/3 dimensions.*4/);
    expect(() => idx.search(new Float32Array(5), 1)).toThrow(/dimension/);
    expect(() => new FlatIndex(0)).toThrow(/dimension/);
  });

  it('grows beyond its initial capacity and keeps earlier rows', () => {
    const dim = 16;
    const raw = randomVectors(50, dim, 3);
    const idx = new FlatIndex(dim, 2);
    idx.add(raw.subarray(0, 3 * dim));
    idx.add(raw.subarray(3 * dim, 4 * dim));
    idx.add(raw.subarray(4 * dim));
    expect(idx.size).toBe(50);
    expect(idx.vector(49)).toHaveLength(dim);
    expect(idx.memoryBytes()).toBeGreaterThanOrEqual(50 * dim * 4);
    for (let id = 0; id < 50; id++) {
      const hit = idx.search(raw.slice(id * dim, (id + 1) * dim), 1)[0]!;
      expect(hit.id).toBe(id);
      expect(hit.score).toBeCloseTo(1, 5);
    }
    expect(idx.memoryBytes()).toBeGreaterThanOrEqual(50 * dim * 4);
  });

  it('k larger than the index and k = 0', () => {
    const idx = new FlatIndex(2);
    idx.add(new Float32Array([1, 0, 0, 1]));
    expect(idx.search(new Float32Array([1, 0]), 10)).toHaveLength(2);
    expect(idx.search(new Float32Array([1, 0]), 0)).toEqual([]);
    expect(new FlatIndex(2).search(new Float32Array([1, 0]), 5)).toEqual([]);
  });
});

describe('VoyIndex', () => {
  beforeAll(() => setupNode());

  const dim = 32;
  const n = 2000;
  const raw = randomVectors(n, dim, 42);
  const queries = randomVectors(20, dim, 4242);

  it('returns the same top-k ids as FlatIndex, with exact cosine scores', async () => {
    const voy = await VoyIndex.create(dim);
    const flat = new FlatIndex(dim);
    voy.add(raw);
    flat.add(raw);
    expect(voy.size).toBe(n);
    for (let qi = 0; qi < 20; qi++) {
      const q = queries.slice(qi * dim, (qi + 1) * dim);
      const a = voy.search(q, 10);
      const b = flat.search(q, 10);
      expect(a.map((h) => h.id), `query ${qi}`).toEqual(b.map((h) => h.id));
      for (const h of a) expect(Math.abs(h.score - cosine(q, raw, h.id, dim))).toBeLessThan(1e-5);
    }
  });

  it('40 identical vectors do not crash and all 40 ids come back', async () => {
    const voy = await VoyIndex.create(dim);
    const base = randomVectors(1, dim, 5);
    const others = randomVectors(20, dim, 6);
    const data = new Float32Array(60 * dim);
    data.set(others.subarray(0, 10 * dim), 0);
    for (let i = 0; i < 40; i++) data.set(base, (10 + i) * dim);
    data.set(others.subarray(10 * dim), 50 * dim);
    voy.add(data);
    expect(voy.size).toBe(60);
    const hits = voy.search(base, 40);
    expect(hits.map((h) => h.id).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => 10 + i));
    for (const h of hits) expect(h.score).toBeCloseTo(1, 5);
    // Ties come back by id.
    expect(hits.map((h) => h.id)).toEqual(Array.from({ length: 40 }, (_, i) => 10 + i));
    // Adding more copies later joins the same group.
    voy.add(base);
    expect(voy.search(base, 50).filter((h) => h.score > 0.9999).map((h) => h.id)).toContain(60);
  });

  it('refuses dimensions above 768 with a clear error', async () => {
    await expect(VoyIndex.create(VOY_MAX_DIM + 1)).rejects.toThrow(/at most 768 dimensions.*769/);
    const ok = await VoyIndex.create(VOY_MAX_DIM);
    expect(ok.dim).toBe(768);
  });

  it('applies filters (plain and very selective) like the exact index', async () => {
    const voy = await VoyIndex.create(dim);
    const flat = new FlatIndex(dim);
    voy.add(raw);
    flat.add(raw);
    const filters: [string, (id: number) => boolean][] = [
      ['every 7th', (id) => id % 7 === 0],
      ['three ids', (id) => id === 5 || id === 999 || id === 1500],
      ['none', () => false],
    ];
    for (let qi = 0; qi < 5; qi++) {
      const q = queries.slice(qi * dim, (qi + 1) * dim);
      for (const [name, allow] of filters) {
        const a = voy.search(q, 10, allow);
        const b = flat.search(q, 10, allow);
        expect(a.map((h) => h.id), `${name}, query ${qi}`).toEqual(b.map((h) => h.id));
        expect(a.every((h) => allow(h.id))).toBe(true);
      }
    }
  });

  it('rejects a query of the wrong dimension and answers [] when empty', async () => {
    const voy = await VoyIndex.create(dim);
    expect(voy.search(new Float32Array(dim), 5)).toEqual([]);
    voy.add(raw.subarray(0, 10 * dim));
    expect(() => voy.search(new Float32Array(dim + 1), 5)).toThrow(/dimensions/);
    expect(() => voy.add(new Float32Array(dim + 1))).toThrow(/not a multiple/);
    expect(voy.search(raw.slice(0, dim), 0)).toEqual([]);
  });
});

describe('LexicalIndex fast top-k equals MiniSearch search()', () => {
  // Real text with real repetition: SQuAD articles' sentences, some twice, plus Chinese.
  const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8')) as {
    data: { paragraphs: { context: string; qas: { question: string }[] }[] }[];
  };
  const paragraphs = squad.data.slice(0, 4).flatMap((a) => a.paragraphs);
  const sentences = paragraphs.flatMap((p) => p.context.split(/(?<=[.!?])\s+/));
  const questions = paragraphs.flatMap((p) => p.qas.map((q) => q.question)).slice(0, 150);
  // The fast path is BM25+'s (MiniSearch's search() is its reference).
  const idx = new LexicalIndex({ analyzer: 'words', bm25: 'bm25plus' });
  idx.add([...sentences, ...sentences.slice(0, 50)], 'en');
  idx.add(['个人信息处理者应当采取必要措施保障个人信息安全。', '国家机关处理个人信息应当依照法律规定。'], 'zh');

  it('gives the same ids, scores and order for real questions, repeated and unknown words, and short lists', () => {
    expect(sentences.length).toBeGreaterThan(300);
    const queries = [...questions, 'the the the of', 'Denver Broncos Broncos', 'zzzqqq unknownword', 'of', '个人信息 安全', 'Super Bowl 50 halftime show'];
    let compared = 0;
    for (const q of queries) {
      const lang = /\p{Script=Han}/u.test(q) ? 'zh' : 'en';
      for (const k of [1, 10, 1000]) {
        const fast = idx.search(q, k, undefined, lang);
        expect(fast).toEqual(idx.miniSearch(q, k));
        compared += fast.length;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('applies a filter exactly as MiniSearch does', () => {
    const even = (id: number) => id % 2 === 0;
    for (const q of questions.slice(0, 40)) expect(idx.search(q, 10, even)).toEqual(idx.miniSearch(q, 10, even));
  });

  it('keeps equal scores in MiniSearch order (duplicated sentences tie)', () => {
    const q = sentences[3]!;
    const hits = idx.search(q, 5);
    expect(hits[0]!.score).toBe(hits[1]!.score);
    expect(hits).toEqual(idx.miniSearch(q, 5));
  });
});

describe('LexicalIndex (BM25)', () => {
  it('ranks the sentence with the query words first', () => {
    const idx = new LexicalIndex();
    idx.add([
      'The weather in Lisbon is mild in winter.',
      'Photosynthesis turns light into chemical energy in plants.',
      'Mitochondria are the powerhouse of the cell.',
      'Plants need water and light.',
    ]);
    expect(idx.size).toBe(4);
    const hits = idx.search('how do plants turn light into energy', 3);
    expect(hits[0]!.id).toBe(1);
    expect(hits.map((h) => h.id)).toContain(3);
    expect(hits.map((h) => h.id)).not.toContain(2);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(idx.search('mitochondria', 5)).toEqual([expect.objectContaining({ id: 2 })]);
  });

  it('finds Chinese text by a Chinese word query', () => {
    const text = readFileSync(`${SHARED_DATA}/demo_docs/zh/prc_constitution.md`, 'utf8');
    const sentences = text
      .split(/(?<=。)|\n+/)
      .map((s) => s.trim())
      .filter((s) => s.length > 8 && !s.startsWith('#') && !s.startsWith('<'))
      .slice(0, 60);
    const idx = new LexicalIndex();
    idx.add(sentences, 'zh');
    const target = sentences.findIndex((s) => s.includes('辛亥革命'));
    expect(target).toBeGreaterThanOrEqual(0);
    const hits = idx.search('辛亥革命', 5, undefined, 'zh');
    expect(hits[0]!.id).toBe(target);
    // A two-word query, neither word a whole clause.
    const hand = new LexicalIndex();
    hand.add(['今天的天气很好，我们去公园散步。', '中国是世界上历史最悠久的国家之一。', '他在图书馆里看书。'], 'zh');
    expect(hand.search('历史悠久', 3, undefined, 'zh')[0]?.id).toBe(1);
    expect(hand.search('图书馆', 3, undefined, 'zh').map((h) => h.id)).toEqual([2]);
  });

  it('matches without accents (query "coracao" finds "Coração")', () => {
    const idx = new LexicalIndex();
    idx.add(['O Coração da cidade é a praça.', 'A cidade tem um rio.'], 'pt');
    expect(idx.search('coracao', 5, undefined, 'pt').map((h) => h.id)).toEqual([0]);
    expect(idx.search('CORAÇÃO', 5, undefined, 'pt').map((h) => h.id)).toEqual([0]);
  });

  it('applies the allow filter before taking k', () => {
    const idx = new LexicalIndex();
    idx.add(['apple pie recipe', 'apple orchard', 'apple juice', 'banana bread', 'apple cider']);
    const hits = idx.search('apple', 2, (id) => id >= 2);
    expect(hits).toHaveLength(2);
    expect(hits.every((h) => h.id >= 2)).toBe(true);
    expect(idx.search('apple', 10, (id) => id >= 2).map((h) => h.id).sort()).toEqual([2, 4]);
  });

  it('an empty or blank query returns []', () => {
    const idx = new LexicalIndex();
    idx.add(['some text here']);
    expect(idx.search('', 5)).toEqual([]);
    expect(idx.search('   \n', 5)).toEqual([]);
    expect(idx.search('zzzz', 5)).toEqual([]);
  });
});

describe('BM25 variants on a hand-computed 3-unit corpus', () => {
  // Lengths in tokens 3, 2, 4 (mean 3); in distinct terms 2, 2, 2 (mean 2). N = 3.
  const docs = ['apple banana apple', 'banana cherry', 'cherry cherry cherry date'];
  const idf1 = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5)); // df 1: ln(8/3)
  const idf2 = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // df 2: ln(1.6)

  it('Lucene BM25 (k1 0.9, b 0.4, length in tokens, plain sum over terms)', () => {
    const idx = new LexicalIndex({ analyzer: 'words', bm25: 'lucene' });
    idx.add(docs);
    const norm = (len: number) => 0.9 * (1 - 0.4 + (0.4 * len) / 3);
    const hits = idx.search('apple cherry', 10);
    expect(hits.map((h) => h.id)).toEqual([0, 2, 1]);
    expect(hits[0]!.score).toBeCloseTo((idf1 * 2) / (2 + norm(3)), 12); // 0.6764
    expect(hits[1]!.score).toBeCloseTo((idf2 * 3) / (3 + norm(4)), 12); // 0.3507
    expect(hits[2]!.score).toBeCloseTo((idf2 * 1) / (1 + norm(2)), 12); // 0.2640
    const both = idx.search('banana cherry', 10);
    expect(both.map((h) => h.id)).toEqual([1, 2, 0]);
    // No matched-term multiplier: unit 1 is just the sum of its two terms.
    expect(both[0]!.score).toBeCloseTo((2 * idf2) / (1 + norm(2)), 12);
    expect(both[2]!.score).toBeCloseTo(idf2 / (1 + norm(3)), 12);
  });

  it("MiniSearch's BM25+ (k 1.2, b 0.7, δ 0.5, length in distinct terms, × terms matched)", () => {
    const idx = new LexicalIndex({ analyzer: 'words', bm25: 'bm25plus' });
    idx.add(docs);
    const plus = (tf: number) => 0.5 + (tf * 2.2) / (tf + 1.2 * (1 - 0.7 + (0.7 * 2) / 2));
    const hits = idx.search('apple cherry', 10);
    expect(hits.map((h) => h.id)).toEqual([0, 2, 1]);
    expect(hits[0]!.score).toBeCloseTo(idf1 * plus(2), 12); // 1.8391
    expect(hits[1]!.score).toBeCloseTo(idf2 * plus(3), 12);
    expect(hits[2]!.score).toBeCloseTo(idf2 * plus(1), 12);
    const both = idx.search('banana cherry', 10);
    expect(both[0]).toEqual({ id: 1, score: expect.closeTo(2 * (2 * idf2 * plus(1)), 12) });
    expect(idx.search('banana cherry', 10)).toEqual(idx.miniSearch('banana cherry', 10));
  });

  it('exposes its postings and token lengths, the same for both variants', () => {
    for (const bm25 of ['bm25plus', 'lucene'] as const) {
      const idx = new LexicalIndex({ analyzer: 'words', bm25 });
      idx.add(docs);
      // Term order is not part of the contract: BM25+ reads MiniSearch's tree, Lucene its own map.
      expect([...idx.postings()].sort((a, b) => a[0].localeCompare(b[0]))).toEqual([
        ['apple', { units: [0], tf: [2] }],
        ['banana', { units: [0, 1], tf: [1, 1] }],
        ['cherry', { units: [1, 2], tf: [1, 3] }],
        ['date', { units: [2], tf: [1] }],
      ]);
      expect([...idx.lengths()]).toEqual([3, 2, 4]);
    }
  });

  it('with a stemming analyzer, "running" finds "runs" in both variants, and filters apply before k', () => {
    for (const bm25 of ['bm25plus', 'lucene'] as const) {
      const idx = new LexicalIndex({ analyzer: 'stem', bm25 });
      idx.add(['She runs every morning.', 'The cat sleeps.', 'They ran a shop.', 'Running shoes.']);
      // The shorter unit first.
      expect(idx.search('running', 5).map((h) => h.id)).toEqual([3, 0]);
      expect(idx.search('running', 1, (id) => id !== 3).map((h) => h.id)).toEqual([0]);
      expect(new LexicalIndex({ analyzer: 'words', bm25 }).search('running', 5)).toEqual([]);
    }
  });
});
