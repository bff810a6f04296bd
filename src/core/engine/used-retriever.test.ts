import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { DocumentBuilder } from '../documents/builder';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { RetrievalEngine } from '../engine';

/** What a column says it ranked with: the retriever really used, not the one asked for. */
describe('StrategyResult.used', () => {
  const doc = () => {
    const b = new DocumentBuilder();
    b.rawBlock('The Moon pulls the oceans and makes the tides. Spring tides happen at new and full moon. Magma rises through the crust.');
    return b.build({ id: 'tides', title: 'Tides', language: 'en', meta: { fileName: 'tides.txt', size: 10, format: 'txt' } });
  };
  let embedder: TransformersEmbedder;
  beforeAll(async () => {
    setupNode();
    embedder = await TransformersEmbedder.load({ model: 'rag-lab/test-embedder' });
  });

  it('a vector or hybrid column without a model ranks with BM25 and says so', async () => {
    const engine = new RetrievalEngine();
    engine.addDocuments([doc()]);
    for (const retriever of ['vector', 'hybrid', 'bm25'] as const) {
      const [r] = await engine.search('What makes the tides?', ['sentence'], { retriever });
      expect(r!.retriever).toBe(retriever);
      expect(r!.used).toBe('bm25');
    }
  });

  it('with vectors: vector, hybrid and BM25 columns each use their own; before the vectors exist, BM25', async () => {
    const engine = new RetrievalEngine({ embedder });
    engine.addDocuments([doc()]);
    const [before] = await engine.search('What makes the tides?', ['window'], { retriever: 'vector' });
    expect(before!.used).toBe('bm25');
    await engine.embedUnits('sentence');
    for (const retriever of ['vector', 'hybrid', 'bm25'] as const) {
      const [r] = await engine.search('What makes the tides?', ['window'], { retriever });
      expect(r!.used).toBe(retriever);
    }
    const fused = await engine.searchFused(['What makes the tides?', 'tides moon'], 'sentence', { retriever: 'hybrid' });
    expect(fused.used).toBe('hybrid');
    const none = await engine.search('What makes the tides?', ['sentence'], { retriever: 'vector', topK: 0 });
    expect(none[0]!.used).toBeNull();
  });
});
