import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode, SHARED_DATA } from '../../node/setup';
import { TEST_EMBEDDER_ID } from '../embed/models';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { AUTO_APPROX_FROM, isVectorBackend, vectorIndexFactory } from './backends';
import { BitScanIndex } from './bit-scan-index';
import { FlatIndex } from './flat-index';
import { type Allow, type Hit, l2normalize } from './vector-index';
import { VectorStore } from './vector-store';
import { VoyIndex } from './voy-index';
import { mulberry32 } from '../util/random';

/** Real sentences (SQuAD dev contexts, SciFact abstracts) and real questions, embedded by the TEST model. */
let dim = 0;
let rows: Float32Array = new Float32Array(0);
let queries: Float32Array[] = [];
let n = 0;

beforeAll(async () => {
  setupNode();
  const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8')) as {
    data: { paragraphs: { context: string; qas: { question: string }[] }[] }[];
  };
  const paragraphs = squad.data.slice(0, 12).flatMap((a) => a.paragraphs);
  const scifact = readFileSync(`${SHARED_DATA}/scifact_beir/corpus.jsonl`, 'utf8').split('\n').filter(Boolean).slice(0, 150).map((l) => JSON.parse(l) as { title: string; text: string });
  const split = (t: string) => t.split(/(?<=[.!?])\s+/).filter((s) => s.length >= 20);
  const sentences = [...paragraphs.flatMap((p) => split(p.context)), ...scifact.flatMap((d) => split(`${d.title}. ${d.text}`))];
  const questions = [...paragraphs.flatMap((p) => p.qas.map((q) => q.question)).filter((_, i) => i % 10 === 0), ...readFileSync(`${SHARED_DATA}/scifact_beir/queries.jsonl`, 'utf8').split('\n').filter(Boolean).slice(0, 40).map((l) => (JSON.parse(l) as { text: string }).text)];
  const embedder = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  dim = embedder.dim;
  rows = (await embedder.embed(sentences, { batchSize: 64 })).vectors;
  n = sentences.length;
  const q = (await embedder.embed(questions, { kind: 'query', batchSize: 64 })).vectors;
  queries = questions.map((_, i) => q.slice(i * dim, (i + 1) * dim));
}, 180_000);

/** Adds `rows` in uneven batches, searching between them (the app searches while it embeds). */
function built(index: BitScanIndex | FlatIndex): BitScanIndex | FlatIndex {
  const cuts = [0, Math.floor(n * 0.3), Math.floor(n * 0.45), n];
  for (let b = 0; b + 1 < cuts.length; b++) {
    index.add(rows.slice(cuts[b]! * dim, cuts[b + 1]! * dim));
    index.search(queries[b]!, 10);
  }
  return index;
}

function recall(exact: FlatIndex, approx: BitScanIndex, k: number, allow?: Allow): number {
  let found = 0;
  let total = 0;
  for (const q of queries) {
    const truth = exact.search(q, k, allow);
    const got = new Set(approx.search(q, k, allow).map((h) => h.id));
    found += truth.filter((h) => got.has(h.id)).length;
    total += truth.length;
  }
  return found / total;
}

describe('BitScanIndex on test-model vectors of real sentences', () => {
  it('the corpus is large enough for the short list to be a small part of it', () => {
    expect(n).toBeGreaterThan(2500);
    expect(queries.length).toBeGreaterThan(80);
  });

  it('finds the exact top 10 (recall@10 ≥ 0.98) with a short list of 100, added in batches', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const approx = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 0 })) as BitScanIndex;
    expect(approx.approximate).toBe(true);
    expect(recall(exact, approx, 10)).toBeGreaterThanOrEqual(0.98);
  });

  it('is approximate: a too-short list loses neighbours (so the recall test above can fail)', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const approx = built(new BitScanIndex(dim, { rescore: 12, rescorePerK: 0 })) as BitScanIndex;
    const r = recall(exact, approx, 10);
    expect(r).toBeLessThan(0.98);
    expect(r).toBeGreaterThan(0.3);
  });

  it('returns FlatIndex’s exact cosine for every hit, best first, ties by id', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const approx = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 0 })) as BitScanIndex;
    for (const q of queries.slice(0, 20)) {
      const qn = l2normalize(Float32Array.from(q));
      const hits = approx.search(q, 10);
      expect(hits).toHaveLength(10);
      for (const h of hits) expect(h.score).toBe(Math.fround(exact.score(qn, h.id)));
      expect(hits).toEqual([...hits].sort((a, b) => b.score - a.score || a.id - b.id));
    }
  });

  it('applies filters exactly: every hit allowed, recall ≥ 0.98 for a spread and a clustered filter', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const approx = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 0 })) as BitScanIndex;
    const every3rd: Allow = (id) => id % 3 === 0;
    const oneRange: Allow = (id) => id >= 500 && id < 1300; // like a filter on one document
    for (const allow of [every3rd, oneRange]) {
      for (const q of queries.slice(0, 10)) for (const h of approx.search(q, 10, allow)) expect(allow(h.id)).toBe(true);
      expect(recall(exact, approx, 10, allow)).toBeGreaterThanOrEqual(0.98);
    }
    // Fewer allowed than k: exactly those, in the exact order.
    const few = new Set([3, 77, 401, 999, 1500, 2222, n - 1]);
    const q = queries[5]!;
    expect(approx.search(q, 10, (id) => few.has(id))).toEqual(exact.search(q, 10, (id) => few.has(id)));
  });

  it('is deterministic: the same vectors added the same way give the same hits', () => {
    const a = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 0 }));
    const b = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 0 }));
    for (const q of queries.slice(0, 15)) expect(a.search(q, 10)).toEqual(b.search(q, 10));
  });

  it('a large k widens the short list (rescorePerK × k) and still finds the exact top k', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const approx = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 4 })) as BitScanIndex;
    const q = queries[0]!;
    const hits = approx.search(q, 150);
    expect(hits).toHaveLength(150);
    const truth = new Set(exact.search(q, 150).map((h) => h.id));
    expect(hits.filter((h) => truth.has(h.id)).length / 150).toBeGreaterThanOrEqual(0.98);
  });
});

describe('BitScanIndex codes whose last word is partly padding', () => {
  // 300 dims at 1 bit = 37.5 bytes, 100 dims at 2 bits = 25 bytes: the code words (4 bytes
  // each) end in padding that must count for nothing.
  for (const d of [300, 100]) {
    it(`${d} dimensions: each noisy copy of a stored vector finds it first, with exact scores, filtered too`, () => {
      const rand = mulberry32(d);
      const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
      const count = 3000;
      const data = new Float32Array(count * d);
      // Clustered rows (20 centres), as sentence vectors are: a uniform cloud would be too easy.
      const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: d }, gauss));
      for (let i = 0; i < count; i++) for (let j = 0; j < d; j++) data[i * d + j] = centres[i % 20]![j]! + 0.8 * gauss();
      const exact = new FlatIndex(d);
      exact.add(data);
      const approx = new BitScanIndex(d, { rescore: 150, rescorePerK: 0 });
      approx.add(data);
      expect(approx.approximate).toBe(true);
      const odd: Allow = (id) => id % 2 === 1;
      let found = 0;
      let foundFiltered = 0;
      for (let t = 0; t < 40; t++) {
        const id = 75 * t + 1;
        const q = Float32Array.from(exact.vector(id), (x) => x + 0.02 * gauss());
        const hits = approx.search(q, 5);
        expect(hits[0]!.id).toBe(id);
        found += exact.search(q, 5).filter((h) => hits.some((g) => g.id === h.id)).length;
        const qn = l2normalize(Float32Array.from(q));
        for (const h of hits) expect(h.score).toBe(Math.fround(exact.score(qn, h.id)));
        const truth = exact.search(q, 5, odd);
        const got = approx.search(q, 5, odd);
        for (const h of got) expect(odd(h.id)).toBe(true);
        foundFiltered += truth.filter((h) => got.some((g) => g.id === h.id)).length;
      }
      expect(found / 200).toBeGreaterThanOrEqual(0.95);
      expect(foundFiltered / 200).toBeGreaterThanOrEqual(0.95);
    });
  }
});

describe('BitScanIndex 1-bit codes', () => {
  /** prepare()'s general loop for one row at 1 bit (levels ±1, cut 0): the codes and α the sign path must equal bit for bit. */
  function reference(row: Float32Array, mean: Float32Array, spread: Float32Array, words: number): { code: Uint32Array; alpha: number } {
    const code = new Uint32Array(words);
    let num = 0;
    let den = 0;
    for (let b = 0; b < 4 * words; b++) {
      let byte = 0;
      for (let f = 0; f < 8; f++) {
        const j = b * 8 + f;
        if (j >= row.length) break;
        const r = row[j]! - mean[j]!;
        const c = r / spread[j]! > 0 ? 1 : 0;
        byte |= c << f;
        const rec = (c ? 1 : -1) * spread[j]!;
        num += r * rec;
        den += rec * rec;
      }
      code[b >> 2]! |= byte << (8 * (b & 3));
    }
    return { code, alpha: Math.fround(den > 0 ? num / den : 0) };
  }

  for (const [d, rows] of [[384, 'float16'], [300, 'float32']] as const)
    it(`${d} dimensions, ${rows} rows: every row's code and scale are the general loop's, exact zeros and ties included`, () => {
      const rand = mulberry32(d);
      const count = 2500;
      const data = new Float32Array(count * d);
      for (let i = 0; i < data.length; i++) data[i] = rand() < 0.05 ? 0 : rand() * 2 - 1;
      // A row equal to another, a row of zeros, and a dimension 0 in every row (its residual is exactly 0: the bit is 0).
      data.copyWithin(0, d, 2 * d);
      data.fill(0, 2 * d, 3 * d);
      for (let i = 0; i < count; i++) data[i * d + 7] = 0;
      const idx = new BitScanIndex(d, { compactFrom: rows === 'float16' ? 0 : Infinity });
      idx.add(data);
      idx.search(data.subarray(0, d), 1);
      const inside = idx as unknown as { codes: Uint32Array; scale: Float32Array; mean: Float32Array; spread: Float32Array; words: number };
      expect(inside.words).toBe(Math.ceil(d / 32));
      for (let i = 0; i < count; i++) {
        const { code, alpha } = reference(idx.vector(i), inside.mean, inside.spread, inside.words);
        expect([...inside.codes.subarray(i * inside.words, (i + 1) * inside.words)], `row ${i}`).toEqual([...code]);
        expect(inside.scale[i], `row ${i}`).toBe(alpha);
      }
    });
});

describe('BitScanIndex as the auto backend', () => {
  it('below the switch size it is the exact scan: same ids and scores as FlatIndex', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const auto = built(new BitScanIndex(dim, { exactBelow: AUTO_APPROX_FROM })) as BitScanIndex;
    expect(auto.approximate).toBe(false);
    for (const q of queries.slice(0, 30)) {
      expect(auto.search(q, 10)).toEqual(exact.search(q, 10));
      expect(auto.search(q, 5, (id) => id % 2 === 1)).toEqual(exact.search(q, 5, (id) => id % 2 === 1));
    }
  });

  it('switches to the codes at the switch size', () => {
    const auto = new BitScanIndex(dim, { exactBelow: n, rescore: 10, rescorePerK: 0 });
    auto.add(rows.slice(0, (n - 1) * dim));
    expect(auto.approximate).toBe(false);
    auto.add(rows.slice((n - 1) * dim));
    expect(auto.approximate).toBe(true);
    // A stored sentence's own vector finds that sentence first.
    for (const id of [0, 1234, n - 1]) expect(auto.search(auto.vector(id), 1)[0]!.id).toBe(id);
  });

  it('vector(id), size, memory, a wrong dimension and k = 0', () => {
    const exact = built(new FlatIndex(dim)) as FlatIndex;
    const approx = built(new BitScanIndex(dim, { rescore: 100, rescorePerK: 0 })) as BitScanIndex;
    expect(approx.size).toBe(n);
    expect(approx.vector(123)).toEqual(exact.vector(123));
    // float32 rows + one bit per dimension + one float per row (+ μ and w), capacity included
    expect(approx.memoryBytes()).toBeGreaterThanOrEqual(exact.memoryBytes() + n * (dim / 8 + 4));
    expect(approx.memoryBytes()).toBeLessThan(exact.memoryBytes() * 1.1);
    expect(() => approx.search(new Float32Array(dim + 1), 3)).toThrow(/dimensions/);
    expect(approx.search(queries[0]!, 0)).toEqual([]);
  });
});

describe('vector index backends', () => {
  it('maps each backend to its index', async () => {
    expect(await vectorIndexFactory('flat')(8)).toBeInstanceOf(FlatIndex);
    expect(await vectorIndexFactory('ann')(8)).toBeInstanceOf(BitScanIndex);
    const auto = (await vectorIndexFactory('auto')(8)) as BitScanIndex;
    expect(auto).toBeInstanceOf(BitScanIndex);
    auto.add(new Float32Array(8 * 100).fill(1));
    expect(auto.approximate).toBe(false);
    expect(await vectorIndexFactory('voy')(8)).toBeInstanceOf(VoyIndex);
    expect(['auto', 'flat', 'voy', 'ann', 'hnsw', ''].map(isVectorBackend)).toEqual([true, true, true, true, false, false]);
  });

  it('a VectorStore of approximate indexes saves and restores the same rows and answers the same', async () => {
    const store = new VectorStore(vectorIndexFactory('ann'));
    const idx = await store.ensure('sentence', dim);
    await idx.add(rows.slice(0, 1500 * dim));
    await idx.add(rows.slice(1500 * dim));
    const [saved] = store.snapshot();
    // The saved rows are the normalised float32 rows, exactly as FlatIndex keeps them.
    expect(saved!.data).toEqual((built(new FlatIndex(dim)) as FlatIndex).rows());
    const restored = new VectorStore(vectorIndexFactory('ann'));
    await restored.put(saved!);
    for (const q of queries.slice(0, 10)) expect(restored.get('sentence')!.search(q, 10)).toEqual(idx.search(q, 10));
  });

  it('hits are plain {id, score} objects', () => {
    const idx = new BitScanIndex(2, { rescore: 1 });
    idx.add(new Float32Array([1, 0, 0, 1, 1, 1]));
    const hits: Hit[] = idx.search(new Float32Array([1, 0]), 2);
    expect(hits.map((h) => h.id)).toEqual([0, 2]);
  });
});
