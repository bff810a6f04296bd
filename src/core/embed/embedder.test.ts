import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { EmbeddingCancelled, lengthSortedOrder } from './embedder';
import { TEST_EMBEDDER_ID } from './models';
import { TransformersEmbedder } from './transformers-embedder';

function row(v: Float32Array, i: number, dim: number): Float32Array {
  return v.subarray(i * dim, (i + 1) * dim);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

describe('lengthSortedOrder', () => {
  it('orders indices by text length, ties by index', () => {
    expect(lengthSortedOrder(['ccc', 'a', 'bb', 'd', ''])).toEqual([4, 1, 3, 2, 0]);
    expect(lengthSortedOrder([])).toEqual([]);
    expect(lengthSortedOrder(['same', 'size', 'text'])).toEqual([0, 1, 2]);
  });
});

describe('TransformersEmbedder with the generated TEST model', () => {
  let embedder: TransformersEmbedder;

  beforeAll(async () => {
    setupNode();
    embedder = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  });

  const texts = [
    'The quick brown fox jumps over the lazy dog near the river bank.',
    'Hi.',
    'Photosynthesis converts light energy into chemical energy stored in glucose.',
    'Paris is the capital of France.',
    'A much longer sentence about the history of the Roman Empire, its emperors, its roads, its aqueducts and its eventual decline in the west.',
    'Dogs bark.',
  ];

  it('is labelled a test model, 128 dimensions, a 512-token limit', () => {
    expect(embedder.model).toBe(TEST_EMBEDDER_ID);
    expect(embedder.isTestModel).toBe(true);
    expect(embedder.dim).toBe(128);
    expect(embedder.maxTokens).toBe(512);
  });

  it('counts tokens without special tokens', () => {
    expect(embedder.counter.count('What color is the sky?')).toBe(6);
    expect(embedder.counter.count('')).toBe(0);
    expect(embedder.counter.name).toBe(TEST_EMBEDDER_ID);
  });

  it('returns L2-normalised vectors, deterministically', async () => {
    const a = await embedder.embed(texts);
    const b = await embedder.embed(texts);
    expect(a.vectors.length).toBe(texts.length * 128);
    for (let i = 0; i < texts.length; i++) {
      const v = row(a.vectors, i, 128);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
    }
    expect(Array.from(b.vectors)).toEqual(Array.from(a.vectors));
    expect(a.truncated).toEqual([]);
  });

  it('keeps input order although batches are sorted by length', async () => {
    const all = await embedder.embed(texts, { batchSize: 2 });
    for (let i = 0; i < texts.length; i++) {
      const alone = await embedder.embed([texts[i]!]);
      const v = row(all.vectors, i, 128);
      const w = row(alone.vectors, 0, 128);
      // Padding within a batch may shift the last digits, nothing more.
      expect(dot(v, w)).toBeGreaterThan(0.9999);
      for (let j = 0; j < 128; j++) expect(v[j]!).toBeCloseTo(w[j]!, 4);
    }
  });

  it('gives a paraphrase with word overlap a higher cosine than an unrelated sentence', async () => {
    const { vectors } = await embedder.embed([
      'The cat sat on the mat in the kitchen.',
      'In the kitchen, a cat was sitting on the mat.',
      'Stock markets fell sharply in Tokyo after the announcement.',
    ]);
    const para = dot(row(vectors, 0, 128), row(vectors, 1, 128));
    const unrelated = dot(row(vectors, 0, 128), row(vectors, 2, 128));
    expect(para).toBeGreaterThan(unrelated + 0.3);
  });

  it('reports progress up to the total', async () => {
    const calls: [number, number][] = [];
    await embedder.embed(texts, { batchSize: 4, onProgress: (d, t) => calls.push([d, t]) });
    expect(calls).toEqual([
      [4, 6],
      [6, 6],
    ]);
    const single: [number, number][] = [];
    await embedder.embed(texts, { batchSize: 1, onProgress: (d, t) => single.push([d, t]) });
    expect(single.map((c) => c[0])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(single.at(-1)).toEqual([6, 6]);
  });

  it('reports texts over the 512-token limit in `truncated`', async () => {
    const long = Array.from({ length: 700 }, (_, i) => `word${i % 50}`).join(' ');
    expect(embedder.counter.count(long)).toBeGreaterThan(512);
    const exactlyFits = Array.from({ length: 510 }, () => 'the').join(' ');
    expect(embedder.counter.count(exactlyFits)).toBe(510);
    const justOver = `${exactlyFits} the`;
    const res = await embedder.embed(['short one', long, 'another short text', exactlyFits, justOver]);
    expect(res.truncated).toEqual([1, 4]);
    // The truncated text still gets a normalised vector.
    const v = row(res.vectors, 1, 128);
    expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
  });

  it('an AbortSignal cancels the embedding', async () => {
    const pre = new AbortController();
    pre.abort();
    await expect(embedder.embed(texts, { signal: pre.signal })).rejects.toBeInstanceOf(EmbeddingCancelled);

    const mid = new AbortController();
    const seen: number[] = [];
    const p = embedder.embed(texts, {
      batchSize: 1,
      signal: mid.signal,
      onProgress: (done) => {
        seen.push(done);
        if (done === 2) mid.abort();
      },
    });
    await expect(p).rejects.toThrow(/cancelled/);
    expect(seen).toEqual([1, 2]);
  });

  it('gives a text with no meaningful tokens a zero vector, never NaN', async () => {
    // The test model weighs special tokens zero: an empty text pools to zero, and normalising would divide by it.
    const res = await embedder.embed(['', 'a real sentence']);
    const empty = res.vectors.subarray(0, embedder.dim);
    expect([...empty].every((x) => x === 0)).toBe(true);
    expect([...res.vectors.subarray(embedder.dim)].every(Number.isFinite)).toBe(true);
    expect(Math.hypot(...res.vectors.subarray(embedder.dim))).toBeCloseTo(1, 5);
  });

  it('embeds an empty list to nothing', async () => {
    const res = await embedder.embed([]);
    expect(res.vectors.length).toBe(0);
    expect(res.truncated).toEqual([]);
  });
});
