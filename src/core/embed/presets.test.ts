import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { finishVectors, poolTokens } from './pooling';
import { describeSettings, EMBEDDING_PRESETS, findPreset, resolveEmbeddingModel, TEST_EMBEDDER_ID, TEST_STATIC_EMBEDDER_ID, type EmbeddingSettings } from './presets';
import { TransformersEmbedder } from './transformers-embedder';

const settingsOf = (p: EmbeddingSettings): Partial<EmbeddingSettings> => ({ queryPrefix: p.queryPrefix, passagePrefix: p.passagePrefix, pooling: p.pooling, matryoshka: p.matryoshka });

describe('poolTokens', () => {
  // 2 texts × 3 positions × 2 dims; the second text is padded after its 2 tokens.
  const hidden = new Float32Array([1, 2, 3, 4, 5, 6, /* text 2 */ 10, 20, 30, 40, 99, 99]);
  const mask = [1, 1, 1, 1, 1, 0];
  it('mean averages real tokens only', () => {
    expect(Array.from(poolTokens(hidden, mask, 2, 3, 2, 'mean'))).toEqual([3, 4, 20, 30]);
  });
  it('cls takes the first position', () => {
    expect(Array.from(poolTokens(hidden, mask, 2, 3, 2, 'cls'))).toEqual([1, 2, 10, 20]);
  });
  it('last takes the last real token, not the padding (right or left padded)', () => {
    expect(Array.from(poolTokens(hidden, mask, 2, 3, 2, 'last'))).toEqual([5, 6, 30, 40]);
    const left = new Float32Array([1, 2, 3, 4, 5, 6, 99, 99, 10, 20, 30, 40]);
    expect(Array.from(poolTokens(left, [1, 1, 1, 0, 1, 1].map(BigInt), 2, 3, 2, 'last'))).toEqual([5, 6, 30, 40]);
  });
  it('a text with no real token pools to zeros', () => {
    expect(Array.from(poolTokens(new Float32Array([7, 7]), [0], 1, 1, 2, 'mean'))).toEqual([0, 0]);
  });
});

describe('finishVectors (Matryoshka)', () => {
  it('cuts then renormalises', () => {
    const v = finishVectors(new Float32Array([3, 4, 12, 0]), 4, 2);
    expect(Array.from(v)).toEqual([0.6000000238418579, 0.800000011920929]);
  });
  it('a zero row stays zero', () => {
    expect(Array.from(finishVectors(new Float32Array([0, 0, 5, 5]), 4, 2))).toEqual([0, 0]);
  });
  it('layer norm before the cut (nomic): centred and scaled by the full row', () => {
    // mean 2.5, variance 1.25 → (x − 2.5)/√1.25; first two: −1.342, −0.447 → normalised.
    const v = finishVectors(new Float32Array([1, 2, 3, 4]), 4, 2, { layerNorm: true });
    expect(v[0]).toBeCloseTo(-0.9487, 4);
    expect(v[1]).toBeCloseTo(-0.3162, 4);
  });
});

describe('presets', () => {
  it('carries each model card\'s prompts and pooling', () => {
    const by = (n: string) => findPreset(n)!;
    expect(EMBEDDING_PRESETS.map((p) => p.name)).toEqual([
      'all-MiniLM-L6-v2', 'multilingual-e5-small', 'bge-small-en-v1.5', 'snowflake-arctic-embed-xs', 'snowflake-arctic-embed-s', 'gte-small',
      'nomic-embed-text-v1.5', 'jina-embeddings-v2-small-en', 'embeddinggemma-300m', 'potion-base-8M', 'potion-retrieval-32M', 'potion-multilingual-128M',
    ]);
    expect([by('multilingual-e5-small').queryPrefix, by('multilingual-e5-small').passagePrefix]).toEqual(['query: ', 'passage: ']);
    expect([by('bge-small-en-v1.5').pooling, by('bge-small-en-v1.5').passagePrefix]).toEqual(['cls', '']);
    expect(by('bge-small-en-v1.5').queryPrefix).toBe('Represent this sentence for searching relevant passages: ');
    expect(by('nomic-embed-text-v1.5').matryoshka).toEqual([768, 512, 256, 128, 64]);
    expect(by('embeddinggemma-300m').pooling).toBe('model');
    expect(by('embeddinggemma-300m').queryPrefix).toBe('task: search result | query: ');
    expect(by('all-MiniLM-L6-v2').maxTokens).toBe(256);
    expect(by('potion-retrieval-32M').architecture).toBe('static');
    // The author's id finds the ONNX copy.
    expect(findPreset('BAAI/bge-small-en-v1.5')!.id).toBe('Xenova/bge-small-en-v1.5');
    for (const p of EMBEDDING_PRESETS) expect(p.source.length).toBeGreaterThan(10);
  });

  it('an unknown model gets guesses, each named, and a user value is not called a guess', () => {
    const r = resolveEmbeddingModel('someone/new-embedder', { pooling: 'cls' });
    expect(r.preset.pooling).toBe('cls');
    expect(r.guessed).toEqual(['queryPrefix', 'passagePrefix', 'maxTokens', 'matryoshka', 'architecture']);
    expect(describeSettings(r.preset, 384, r.guessed)).toBe('pooling cls · query prefix none (guessed) · passage prefix none (guessed) · max 512 tokens (guessed) · 384 dims');
    expect(resolveEmbeddingModel('minishlab/potion-new-2M').preset.architecture).toBe('static');
  });
});

describe('preset settings applied through the test model (standing in for the weights)', () => {
  let plain: TransformersEmbedder;
  beforeAll(async () => {
    setupNode();
    plain = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  });
  const q = 'Which river runs through Paris?';

  for (const preset of EMBEDDING_PRESETS.filter((p) => p.architecture === 'transformer' && p.pooling === 'mean')) {
    it(`${preset.name}: query and passage prefixes put before the text`, async () => {
      const e = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, settings: settingsOf(preset) });
      expect(e.settings.queryPrefix).toBe(preset.queryPrefix);
      const asQuery = (await e.embed([q], { kind: 'query' })).vectors;
      const asPassage = (await e.embed([q], { kind: 'passage' })).vectors;
      expect(Array.from(asQuery)).toEqual(Array.from((await plain.embed([preset.queryPrefix + q])).vectors));
      expect(Array.from(asPassage)).toEqual(Array.from((await plain.embed([preset.passagePrefix + q])).vectors));
      // Custom settings key the vectors apart from the plain model's.
      expect(e.model).not.toBe(plain.model);
    });
  }

  it('says how its vectors are made (recorded in bundle manifests)', async () => {
    const bge = findPreset('bge-small-en-v1.5')!;
    const e = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, settings: settingsOf(bge) });
    expect(e.recipe).toEqual({ pooling: 'cls', queryPrefix: bge.queryPrefix, passagePrefix: '', source: `transformers.js ${TEST_EMBEDDER_ID}` });
    expect(plain.recipe.pooling).toBe('mean');
  });

  it('cls and last pooling read the [CLS] and [SEP] positions, which the test model weighs zero', async () => {
    for (const pooling of ['cls', 'last'] as const) {
      const e = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, settings: { pooling } });
      const { vectors } = await e.embed([q, 'short']);
      expect(vectors.every((x) => x === 0)).toBe(true);
    }
  });

  it('Matryoshka: cut to a trained size then renormalised; other sizes refused', async () => {
    const e = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, settings: { matryoshka: [128, 64] }, dimensions: 64 });
    expect([e.dim, e.fullDim]).toEqual([64, 128]);
    expect(e.model.startsWith(`${TEST_EMBEDDER_ID}@64#`)).toBe(true);
    const full = (await plain.embed([q])).vectors;
    const cut = (await e.embed([q])).vectors;
    const head = full.subarray(0, 64);
    const n = Math.hypot(...head);
    for (let d = 0; d < 64; d++) expect(cut[d]).toBeCloseTo(head[d]! / n, 6);
    expect(Math.hypot(...cut)).toBeCloseTo(1, 6);
    await expect(TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, dimensions: 64 })).rejects.toThrow('rag-lab/test-embedder cannot be cut to 64 dimensions: it was not trained for Matryoshka truncation');
  });

  it('a preset\'s max length truncates and counts the texts over it', async () => {
    const e = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, settings: { maxTokens: 8 } });
    expect(e.maxTokens).toBe(8);
    const r = await e.embed(['one two three', 'one two three four five six seven eight nine ten', 'a b c d e f']);
    expect(r.truncated).toEqual([1]);
    // Only the first 7 word pieces count: transformers.js keeps [CLS] and cuts the rest at 8, [SEP] included.
    const seven = (await plain.embed(['one two three four five six seven'])).vectors;
    r.vectors.subarray(128, 256).forEach((x, d) => expect(x).toBeCloseTo(seven[d]!, 6));
  });
});

describe('static (Model2Vec-shaped) stand-in through the same path', () => {
  let stat: TransformersEmbedder;
  let plain: TransformersEmbedder;
  beforeAll(async () => {
    setupNode();
    stat = await TransformersEmbedder.load({ model: TEST_STATIC_EMBEDDER_ID });
    plain = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  });

  it('is a static test model of 128 dimensions', () => {
    expect([stat.model, stat.dim, stat.isTestModel, stat.settings.architecture, stat.recipe.pooling]).toEqual([TEST_STATIC_EMBEDDER_ID, 128, true, 'static', 'static']);
  });

  it('gives the mean of the same token table: the test embedder\'s vectors, in input order', async () => {
    const texts = ['The cat sat on the mat.', '', 'Rome built roads and aqueducts across the empire.', 'Hi'];
    const a = (await stat.embed(texts, { batchSize: 3 })).vectors;
    const b = (await plain.embed(texts)).vectors;
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 5);
    expect(a.subarray(128, 256).every((x) => x === 0)).toBe(true);
  });

  it('truncates each text at 512 pieces without special tokens and says which', async () => {
    const long = Array.from({ length: 600 }, () => 'the').join(' ');
    const fits = Array.from({ length: 512 }, () => 'the').join(' ');
    expect((await stat.embed(['short', long, fits])).truncated).toEqual([1]);
  });

  it('Matryoshka dimensions of the static preset', async () => {
    const e = await TransformersEmbedder.load({ model: 'test-static', dimensions: 32 });
    expect([e.model, e.dim]).toEqual([`${TEST_STATIC_EMBEDDER_ID}@32`, 32]);
  });
});
