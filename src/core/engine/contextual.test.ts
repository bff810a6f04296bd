import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import type { Embedder } from '../embed/embedder';
import { RetrievalEngine } from '../engine';
import { hashEmbedder } from '../export/hostile-fixture';
import { LexicalIndex } from '../index/lexical-index';
import { dot } from '../index/vector-index';
import { retrievalParams } from '../retrieve/params';

/** The hashing test embedder, recording every text it embeds. */
function recording(): Embedder & { texts: string[] } {
  const base = hashEmbedder();
  const texts: string[] = [];
  return { ...base, texts, embed: (t, o) => (texts.push(...t), base.embed(t, o)) };
}

const DOCS = [
  documentFromText('The river floods in spring. Farmers plant rice after it. Markets open in autumn.', 'valley.txt'),
  documentFromText('The engine needs oil. Change it every year.', 'manual.txt'),
];

async function setup(options: { headers?: boolean } = {}) {
  const embedder = recording();
  const engine = new RetrievalEngine({ embedder, structure: { headers: { enabled: Boolean(options.headers), title: true, section: false, fields: [] } } });
  engine.addDocuments(DOCS);
  await engine.embedUnits('sentence');
  embedder.texts.length = 0;
  // Contexts for "Farmers plant rice after it." and "Change it every year."; the rest stay plain.
  engine.contexts.store.set(engine.contexts.key('sentence', 1), { text: 'Mekong delta agriculture calendar.', source: 'model test' });
  engine.contexts.store.set(engine.contexts.key('sentence', 4), { text: 'Motorcycle maintenance schedule.', source: 'model test' });
  return { engine, embedder };
}

describe('contextual retrieval in the engine', () => {
  it('embeds and indexes the very same text: header, context, unit', async () => {
    const { engine, embedder } = await setup({ headers: true });
    const header = "Document context: the following excerpt is from a document titled 'valley.txt'.";
    expect(engine.unitText('sentence', 1, true)).toBe(`${header}\n\nMekong delta agriculture calendar.\n\nFarmers plant rice after it.`);
    expect(engine.unitText('sentence', 1, false)).toBe(`${header}\n\nFarmers plant rice after it.`);
    // A unit without a context is its plain text in both.
    expect(engine.unitText('sentence', 0, true)).toBe(engine.unitText('sentence', 0, false));
    expect(await engine.contexts.embed('sentence')).toBe(2);
    expect(embedder.texts).toEqual([engine.unitText('sentence', 1, true), engine.unitText('sentence', 4, true)]);
    expect(await engine.contexts.embed('sentence')).toBe(0);
    // BM25: the contextual index scores exactly as an index built from those texts.
    const texts = Array.from({ length: engine.unitCount('sentence') }, (_, id) => engine.unitText('sentence', id, true));
    const reference = new LexicalIndex(engine.structure.lexical);
    reference.add(texts, 'en');
    for (const q of ['mekong rice', 'motorcycle oil', 'river']) expect(engine.lexicalIndex('sentence', true).search(q, 5), q).toEqual(reference.search(q, 5));
  });

  it('the column finds units by their context, hands the context over, counts it, and says what is plain', async () => {
    const { engine } = await setup();
    await engine.contexts.embed('sentence');
    const p = { retriever: 'bm25' as const, contextual: { unit: 'sentence' as const } };
    const [r] = await engine.search('mekong calendar', ['contextual'], p);
    expect(r!.blocks.map((b) => [b.text, b.context?.text, b.tokens])).toEqual([['Farmers plant rice after it.', 'Mekong delta agriculture calendar.', engine.counter.count('Farmers plant rice after it.') + engine.counter.count('Mekong delta agriculture calendar.')]]);
    expect(r!.blocks[0]!.context).toEqual({ text: 'Mekong delta agriculture calendar.', source: 'model test' });
    expect(r!.notes).toEqual(['contexts cover 2 of 5 sentences: the other 3 are retrieved by their plain text']);
    // The plain sentence column knows nothing of the context while the switch is off…
    const [plain] = await engine.search('mekong calendar', ['sentence'], { retriever: 'bm25' });
    expect(plain!.blocks).toEqual([]);
    // …and retrieves by it once contextual retrieval is switched on for every column.
    engine.setContextual(true);
    const [on] = await engine.search('mekong calendar', ['sentence'], { retriever: 'bm25' });
    expect(on!.blocks.map((b) => [b.text, b.context])).toEqual([['Farmers plant rice after it.', undefined]]);
  });

  it('vector search scores units with a context by their contextual vector, the others by their plain one', async () => {
    const { engine } = await setup();
    const emb = hashEmbedder();
    const vec = async (t: string) => (await emb.embed([t])).vectors;
    expect(await engine.contexts.embed('sentence')).toBe(2);
    const p = retrievalParams({ retriever: 'vector', topK: 5 });
    const { candidates, notes } = await engine.candidates('motorcycle maintenance', 'sentence', p, true);
    const q = await vec('motorcycle maintenance');
    const expected = await Promise.all(Array.from({ length: 5 }, async (_, id) => ({ id, score: dot(q, await vec(engine.unitText('sentence', id, true))) })));
    expected.sort((a, b) => b.score - a.score || a.id - b.id);
    expect(candidates.map((c) => c.id)).toEqual(expected.map((e) => e.id));
    candidates.forEach((c, i) => expect(c.score).toBeCloseTo(expected[i]!.score, 6));
    expect(candidates[0]!.id).toBe(4);
    expect(notes).toEqual(['contexts cover 2 of 5 sentences: the other 3 are retrieved by their plain text']);
  });

  it('an edited context is indexed at once for BM25 and re-embedded on demand; until then its plain vector stands in', async () => {
    const { engine } = await setup();
    await engine.contexts.embed('sentence');
    const p = retrievalParams({ retriever: 'bm25', topK: 3 });
    expect((await engine.candidates('mekong', 'sentence', p, true)).candidates.map((c) => c.id)).toEqual([1]);
    engine.contexts.store.edit(engine.contexts.key('sentence', 1), 'Irrigation in Java.');
    expect((await engine.candidates('mekong', 'sentence', p, true)).candidates).toEqual([]);
    expect((await engine.candidates('java irrigation', 'sentence', p, true)).candidates.map((c) => c.id)).toEqual([1]);
    const hybrid = await engine.candidates('java irrigation', 'sentence', retrievalParams({ retriever: 'hybrid' }), true);
    expect(hybrid.notes).toContain('1 contexts are not embedded yet: vector search reads those units\' plain vectors');
    expect(await engine.contexts.embed('sentence')).toBe(1);
    expect(engine.contexts.coverage('sentence')).toEqual({ written: 2, embedded: 2, total: 5 });
  });

  it('an engine without a document keeps the other documents\' contexts and their vectors', async () => {
    const { engine, embedder } = await setup();
    await engine.contexts.embed('sentence');
    const next = await engine.withoutDocuments([DOCS[0]!.id]);
    expect(next.unitText('sentence', 1, true)).toBe('Motorcycle maintenance schedule.\n\nChange it every year.');
    embedder.texts.length = 0;
    expect(await next.contexts.embed('sentence')).toBe(0);
    expect(next.contexts.coverage('sentence')).toEqual({ written: 1, embedded: 1, total: 2 });
  });

  it('no contexts: the contextual column is the plain units, and says so', async () => {
    const engine = new RetrievalEngine();
    engine.addDocuments(DOCS);
    const [r] = await engine.search('engine oil', ['contextual'], { retriever: 'bm25', contextual: { unit: 'chunk' } });
    const [naive] = await engine.search('engine oil', ['naive'], { retriever: 'bm25' });
    expect(r!.blocks.map((b) => [b.text, b.tokens, b.score])).toEqual(naive!.blocks.map((b) => [b.text, b.tokens, b.score]));
    expect(r!.notes).toEqual(['no contexts written for chunks yet: every unit is retrieved by its plain text']);
  });
});
