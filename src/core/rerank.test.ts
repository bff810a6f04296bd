import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../node/setup';
import { documentFromText } from './documents/load';
import { TEST_RERANKER_ID } from './embed/models';
import { CrossEncoderReranker, type Reranker } from './embed/reranker';
import { RetrievalEngine } from './engine';

const TEXT = `# Birds

Penguins live in the Southern Hemisphere. Penguins cannot fly but they swim well.
Owls hunt at night. Owls have very good hearing.
The penguin colony on the ice shelf is large. Sparrows are small birds.`;

describe('cross-encoder reranking', () => {
  let reranker: CrossEncoderReranker;
  beforeAll(async () => {
    setupNode();
    reranker = await CrossEncoderReranker.load({ model: TEST_RERANKER_ID });
  });

  it('scores query–passage pairs through transformers.js sequence classification', async () => {
    const [relevant, unrelated] = await reranker.score('Where do penguins live?', [
      'Penguins live in the Southern Hemisphere, mostly in Antarctica.',
      'The stock market fell sharply on Monday.',
    ]);
    expect(relevant).toBeGreaterThan(0.4);
    expect(Math.abs(unrelated!)).toBeLessThan(0.2);
  });

  it('reorders the candidates, records the rank they had before and the reranker score', async () => {
    // A fake reranker makes the reordering exact: it prefers the passage about owls' hearing.
    const fake: Reranker = { model: 'fake', score: async (_q, passages) => passages.map((p) => (p.includes('hearing') ? 10 : p.length / 1000)) };
    const engine = new RetrievalEngine({ reranker: fake });
    engine.addDocuments([documentFromText(TEXT, 'birds.md', 'md')]);
    const [plain] = await engine.search('penguins owls', ['sentence'], { retriever: 'bm25', topK: 5 });
    const [reranked] = await engine.search('penguins owls', ['sentence'], { retriever: 'bm25', topK: 5, rerank: { enabled: true, topN: 5 } });
    const hearing = plain!.blocks.findIndex((b) => b.text.includes('hearing'));
    expect(hearing).toBeGreaterThan(0);
    expect(reranked!.blocks[0]!.text).toContain('hearing');
    expect(reranked!.blocks[0]!.provenance.rerank).toEqual({ score: 10, before: hearing + 1 });
    expect(reranked!.blocks[0]!.score).toBe(10);
  });

  it('only reranks the top N and keeps the rest in retrieval order', async () => {
    const seen: number[] = [];
    const fake: Reranker = { model: 'fake', score: async (_q, passages) => (seen.push(passages.length), passages.map((_, i) => i)) };
    const engine = new RetrievalEngine({ reranker: fake });
    engine.addDocuments([documentFromText(TEXT, 'birds.md', 'md')]);
    const [plain] = await engine.search('penguins owls birds', ['sentence'], { retriever: 'bm25', topK: 5 });
    const [r] = await engine.search('penguins owls birds', ['sentence'], { retriever: 'bm25', topK: 5, rerank: { enabled: true, topN: 2 } });
    expect(seen).toEqual([2]);
    expect(r!.blocks.map((b) => b.text)).toEqual([plain!.blocks[1]!.text, plain!.blocks[0]!.text, ...plain!.blocks.slice(2).map((b) => b.text)]);
  });

  it('reranks its top N even when fewer blocks are shown, and keeps one score scale', async () => {
    const seen: number[] = [];
    // Logits below zero, like a real cross-encoder's: the unreranked tail must still rank lower.
    const fake: Reranker = { model: 'fake', score: async (_q, passages) => (seen.push(passages.length), passages.map((_, i) => -1 - i)) };
    const engine = new RetrievalEngine({ reranker: fake });
    engine.addDocuments([documentFromText(TEXT, 'birds.md', 'md')]);
    const [r] = await engine.search('penguins owls birds', ['sentence'], { retriever: 'bm25', topK: 2, rerank: { enabled: true, topN: 4 } });
    expect(seen).toEqual([4]);
    expect(r!.blocks).toHaveLength(2);
    const [few] = await engine.search('penguins owls birds', ['sentence'], { retriever: 'bm25', topK: 6, rerank: { enabled: true, topN: 2 } });
    const scores = few!.blocks.map((b) => b.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(few!.blocks.slice(2).every((b) => b.provenance.rerank === undefined && b.score < -2)).toBe(true);
  });

  it('says so when reranking is on but no reranker is loaded', async () => {
    const engine = new RetrievalEngine();
    engine.addDocuments([documentFromText(TEXT, 'birds.md', 'md')]);
    const [r] = await engine.search('penguins', ['sentence'], { retriever: 'bm25', rerank: { enabled: true, topN: 5 } });
    expect(r!.notes).toContain('reranking is on but no reranker is loaded');
    expect(r!.blocks.length).toBeGreaterThan(0);
  });

  it('reranks with the real test cross-encoder inside the engine', async () => {
    const engine = new RetrievalEngine({ reranker });
    engine.addDocuments([documentFromText(TEXT, 'birds.md', 'md')]);
    const [r] = await engine.search('Where do penguins live?', ['sentence'], { retriever: 'bm25', topK: 6, rerank: { enabled: true, topN: 6 } });
    expect(r!.blocks[0]!.text).toBe('Penguins live in the Southern Hemisphere.');
    const scores = r!.blocks.map((b) => b.provenance.rerank!.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});
