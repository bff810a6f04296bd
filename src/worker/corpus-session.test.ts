import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import type { Embedder } from '../core/embed/embedder';
import { structureParams } from '../core/retrieve/params';
import { CorpusSession } from './corpus-session';
import { EmbeddingJob } from './embedding-job';

/** A model stand-in: its tokenizer counts words and how often it is asked; embedding is never needed here. */
function model(name = 'test/words') {
  const counter = {
    name: `${name} tokenizer`,
    calls: 0,
    count(text: string) {
      counter.calls++;
      return text.split(/\s+/).filter(Boolean).length;
    },
  };
  const embedder: Embedder = { model: name, dim: 2, maxTokens: 512, isTestModel: true, counter, embed: async () => ({ vectors: new Float32Array(), truncated: [] }) };
  return { embedder, counter };
}

const docs = () => [
  documentFromText('# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation.', 'tea.md', 'md'),
  documentFromText('The harbour opens at dawn. Fishing boats leave before the ferries. The lighthouse keeper logs every ship.', 'harbour.txt'),
];
const session = () => new CorpusSession(new EmbeddingJob({ progress: () => undefined, finished: async () => undefined }));
const units = (s: CorpusSession) => ({ sentences: s.engine.corpus.sentences, chunks: s.engine.chunks, hierarchy: s.engine.hierarchy });

describe('a reload restores the corpus without splitting it again', () => {
  it('before and after its model loads, from the splits stored with the documents; the same units, BM25 built once', async () => {
    // The corpus as it was stored: indexed with the model loaded.
    const before = session();
    const m = model();
    await before.setEmbedder(m.embedder, []);
    for (const d of docs()) before.addDocument(d);
    const stored = before.splitsForStorage();

    // What a reload gave before splits were stored: every document split again, all at once
    // (node ids follow the order documents are added in, so they differ from `before`'s).
    const resplit = session();
    await resplit.restore(docs(), before.structure);
    await resplit.setEmbedder(model().embedder, []);
    expect(units(resplit).sentences).toEqual(units(before).sentences);

    // A reload: the worker starts without a model, then the page loads it.
    const after = session();
    const again = model();
    await after.restore(docs(), before.structure, stored);
    expect(units(after)).toEqual(units(resplit));
    expect(after.engine.counter.name).toBe('test/words tokenizer');
    const bm25 = after.engine.lexicalIndex('sentence');
    expect(bm25.search('harbour dawn', 3).map((h) => h.id)).toEqual(before.engine.lexicalIndex('sentence').search('harbour dawn', 3).map((h) => h.id));
    await after.setEmbedder(again.embedder, []);
    expect(units(after)).toEqual(units(resplit));
    // Neither the restore nor the model's engine asked the tokenizer to split anything.
    expect(again.counter.calls).toBe(0);
    expect(after.engine.lexicalIndex('sentence')).toBe(bm25);
  });

  it('splits again what was split another way: another model, or none', async () => {
    const before = session();
    await before.setEmbedder(model().embedder, []);
    for (const d of docs()) before.addDocument(d);
    const stored = before.splitsForStorage();
    const other = model('test/other');
    const after = session();
    await after.restore(docs(), structureParams(before.structure), stored);
    await after.setEmbedder(other.embedder, []);
    expect(other.counter.calls).toBeGreaterThan(0);
    expect(after.engine.corpus.sentences.map((s) => s.text)).toEqual(before.engine.corpus.sentences.map((s) => s.text));
    // No model at all: the approximate counter splits the documents.
    await after.setEmbedder(null, []);
    expect(after.engine.counter.name).toBe('approx');
    expect(after.engine.corpus.sentences.length).toBe(before.engine.corpus.sentences.length);
  });
});

describe('late chunking in the session', () => {
  it('applies where the model can late-chunk, keeps plain vectors for one that cannot, and follows the model when it changes', async () => {
    const s = session();
    const late = { ...model('test/late').embedder, lateChunking: { available: true as const, spanTokens: 512, recommended: false } };
    const plain = model('test/plain').embedder;
    for (const d of docs()) s.addDocument(d);
    await s.setEmbedder(plain, []);
    s.setStructure(structureParams({ vectors: 'late' }));
    // The choice is kept (the page shows it and the model's reason); the engine stays plain.
    expect([s.structure.vectors, s.engine.structure.vectors]).toEqual(['late', 'plain']);
    await s.setEmbedder(late, []);
    expect(s.engine.structure.vectors).toBe('late');
    expect(s.engine.variantKey('sentence')).toBe('sentence|none|test/late|late');
    const engine = s.engine;
    s.setStructure(structureParams({ vectors: 'plain' }));
    // The same engine, its variant switched: each variant's vectors stay where they are.
    expect(s.engine).toBe(engine);
    expect(s.engine.structure.vectors).toBe('plain');
    s.setStructure(structureParams({ vectors: 'late', chunkLevels: [512, 128] }));
    expect(s.engine.structure.vectors).toBe('late');
  });
});
