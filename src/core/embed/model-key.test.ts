import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { changedSettings, embeddingModelKey, settingsTag, TEST_EMBEDDER_ID, TEST_PRESETS, TEST_STATIC_EMBEDDER_ID } from './presets';
import { TransformersEmbedder } from './transformers-embedder';

const test = TEST_PRESETS[0]!;

describe('changedSettings', () => {
  it('keeps only the editable settings that differ, in a fixed order', () => {
    expect(changedSettings(test, { pooling: 'cls', passagePrefix: 'doc: ', queryPrefix: '' })).toEqual({ passagePrefix: 'doc: ', pooling: 'cls' });
    expect(Object.keys(changedSettings(test, { pooling: 'last', maxTokens: 64, queryPrefix: 'q: ' }))).toEqual(['queryPrefix', 'pooling', 'maxTokens']);
  });
  it('an edit put back to the preset\'s value, or a setting that is not editable, is no change', () => {
    expect(changedSettings(test, { passagePrefix: '', pooling: 'mean', maxTokens: 512, normalize: true, matryoshka: [64] })).toEqual({});
  });
});

describe('embeddingModelKey', () => {
  it('is the id for the plain model, so vectors stored before stay found', () => {
    expect(embeddingModelKey(TEST_EMBEDDER_ID, test, { dim: 128, fullDim: 128, custom: false })).toBe('rag-lab/test-embedder');
  });
  it('adds @size for a Matryoshka cut and #tag for other settings', () => {
    const doc = { ...test, passagePrefix: 'doc: ' };
    expect(settingsTag(test)).toBe('17c7ed06');
    expect(settingsTag(doc)).toBe('255de47a');
    expect(settingsTag({ ...test, pooling: 'cls' })).toBe('5709ad21');
    expect(embeddingModelKey(TEST_EMBEDDER_ID, doc, { dim: 128, fullDim: 128, custom: true })).toBe('rag-lab/test-embedder#255de47a');
    expect(embeddingModelKey(TEST_EMBEDDER_ID, doc, { dim: 64, fullDim: 128, custom: true })).toBe('rag-lab/test-embedder@64#255de47a');
    expect(embeddingModelKey(TEST_STATIC_EMBEDDER_ID, TEST_PRESETS[1]!, { dim: 32, fullDim: 128, custom: false })).toBe('rag-lab/test-static-embedder@32');
  });
});

describe('the embedder is keyed and described by the settings it was loaded with', () => {
  beforeAll(() => setupNode());

  it('another passage prefix: its own key, and the recipe a manifest records says the prefix', async () => {
    const e = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID, settings: changedSettings(test, { passagePrefix: 'doc: ' }) });
    expect(e.model).toBe('rag-lab/test-embedder#255de47a');
    expect(e.recipe).toEqual({ pooling: 'mean', queryPrefix: '', passagePrefix: 'doc: ', source: 'transformers.js rag-lab/test-embedder' });
    const plain = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
    expect(plain.model).toBe('rag-lab/test-embedder');
    expect(Array.from((await e.embed(['Lisbon'], { kind: 'passage' })).vectors)).toEqual(Array.from((await plain.embed(['doc: Lisbon'])).vectors));
  });
});
