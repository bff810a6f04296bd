import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { DocumentBuilder } from '../documents/builder';
import type { Embedder } from '../embed/embedder';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { RetrievalEngine } from '../engine';

/** A question is embedded once, even when two searches ask for it at the same moment (an endpoint model would get it twice). */
describe('query vectors', () => {
  let model: TransformersEmbedder;
  beforeAll(async () => {
    setupNode();
    model = await TransformersEmbedder.load({ model: 'rag-lab/test-embedder' });
  });

  /** The test model, counting the texts it is asked to embed. */
  function counting(): { embedder: Embedder; texts: string[] } {
    const texts: string[] = [];
    const embedder = new Proxy(model, {
      get(target, prop, receiver) {
        if (prop === 'embed') return (t: string[], o: Parameters<Embedder['embed']>[1]) => (texts.push(...t), target.embed(t, o));
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    return { embedder, texts };
  }

  it('two searches at once embed the question once, and both get its vector', async () => {
    const { embedder, texts } = counting();
    const engine = new RetrievalEngine({ embedder });
    const [a, b] = await Promise.all([engine.queryEmbedding('What makes the tides?'), engine.queryEmbedding('What makes the tides?')]);
    expect(texts).toEqual(['What makes the tides?']);
    expect(a).not.toBeNull();
    expect(Array.from(b!)).toEqual(Array.from(a!));
    // A batch that overlaps a query on its way embeds only the new one.
    const again = engine.queryEmbedding('Why is the sea salty?');
    await engine.embedQueries(['Why is the sea salty?', 'How high is Everest?']);
    await again;
    expect(texts).toEqual(['What makes the tides?', 'Why is the sea salty?', 'How high is Everest?']);
  });

  it('two vector searches started together (start-up and model ready) send the question once', async () => {
    const { embedder, texts } = counting();
    const engine = new RetrievalEngine({ embedder });
    const b = new DocumentBuilder();
    b.rawBlock('The Moon pulls the oceans and makes the tides. Magma rises through the crust.');
    engine.addDocuments([b.build({ id: 'tides', title: 'Tides', language: 'en', meta: { fileName: 'tides.txt', size: 10, format: 'txt' } })]);
    await engine.embedUnits('sentence');
    texts.length = 0;
    const [r1, r2] = await Promise.all([engine.search('What makes the tides?', ['sentence'], { retriever: 'vector' }), engine.search('What makes the tides?', ['sentence'], { retriever: 'vector' })]);
    expect(texts).toEqual(['What makes the tides?']);
    expect(r1![0]!.used).toBe('vector');
    expect(r2![0]!.blocks.map((x) => x.text)).toEqual(r1![0]!.blocks.map((x) => x.text));
  });
});
