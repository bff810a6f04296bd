import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import type { Embedder } from '../core/embed/embedder';
import { RetrievalEngine } from '../core/engine';
import { contextVectorKey } from '../core/engine/contextual';
import { hashEmbedder } from '../core/export/hostile-fixture';
import { CONTEXTS_DB, ContextStorage, textHash } from './context-storage';
import { LabContexts } from './lab-contexts';

/** Contextual vectors in IndexedDB (fake-indexeddb, a fresh factory per test): the storage itself, then the lab's use of it across a "reload". */
beforeEach(() => {
  (globalThis as { indexedDB?: unknown }).indexedDB = new IDBFactory();
});

const vec = (...xs: number[]) => Float32Array.from(xs);

describe('ContextStorage: contextual vectors', () => {
  it('round-trips vectors exactly and reads only the model asked for', async () => {
    const s = new ContextStorage();
    await s.open();
    expect(await s.putVectors('model/a', [{ hash: textHash('one'), data: vec(0.5, -0.25, 1) }, { hash: textHash('two'), data: vec(0, 1, 0) }])).toBe(true);
    expect(await s.putVectors('model/ab', [{ hash: textHash('one'), data: vec(9, 9, 9) }])).toBe(true);
    expect(await s.putVectors('model', [{ hash: textHash('three'), data: vec(7) }])).toBe(true);
    const a = await s.loadVectors('model/a');
    expect([...a.keys()].sort()).toEqual([textHash('one'), textHash('two')].sort());
    expect(a.get(textHash('one'))).toEqual(vec(0.5, -0.25, 1));
    expect(a.get(textHash('one'))).toBeInstanceOf(Float32Array);
    expect(a.get(textHash('two'))).toEqual(vec(0, 1, 0));
    expect([...(await s.loadVectors('model/ab')).entries()]).toEqual([[textHash('one'), vec(9, 9, 9)]]);
    expect([...(await s.loadVectors('model')).entries()]).toEqual([[textHash('three'), vec(7)]]);
    expect((await s.loadVectors('model/c')).size).toBe(0);
    expect(s.problem).toBeNull();
  });

  it('hashes a text to 128 bits of SHA-256, the same every time', () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    expect(textHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223');
    expect(textHash('Ferry, «quai» 🚢')).toBe(textHash('Ferry, «quai» 🚢'));
    expect(textHash('a')).not.toBe(textHash('b'));
  });

  it('prunes exactly the vectors whose text hash is not kept, for every model', async () => {
    const s = new ContextStorage();
    await s.open();
    await s.putVectors('m1', ['a', 'b', 'c'].map((t, i) => ({ hash: textHash(t), data: vec(i) })));
    await s.putVectors('m2', ['a', 'c', 'd'].map((t, i) => ({ hash: textHash(t), data: vec(10 + i) })));
    expect(await s.pruneVectors(new Set([textHash('a'), textHash('d')]))).toBe(3);
    expect([...(await s.loadVectors('m1')).entries()]).toEqual([[textHash('a'), vec(0)]]);
    expect([...(await s.loadVectors('m2')).entries()].sort()).toEqual([[textHash('a'), vec(10)], [textHash('d'), vec(12)]].sort());
    await s.clearVectors();
    expect((await s.loadVectors('m2')).size).toBe(0);
  });

  it('upgrades a version 1 database: its contexts stay, vectors can be stored beside them', async () => {
    const saved = { format: 'rag-lab-contexts', version: 1, entries: [{ doc: 'd1', kind: 'sentence', start: 0, end: 12, text: 'A harbour log.', source: 'edited by you' }], runs: [] };
    const v1 = await openDB(CONTEXTS_DB, 1, { upgrade: (db) => void db.createObjectStore('contexts') });
    await v1.put('contexts', saved, 'corpus');
    v1.close();
    const s = new ContextStorage();
    await s.open();
    const store = await s.load();
    expect(store?.toJSON()).toEqual(saved);
    expect(await s.putVectors('m', [{ hash: textHash('x'), data: vec(1, 2) }])).toBe(true);
    expect([...(await s.loadVectors('m')).entries()]).toEqual([[textHash('x'), vec(1, 2)]]);
    const raw = await openDB(CONTEXTS_DB);
    expect(raw.version).toBe(2);
    expect([...raw.objectStoreNames].sort()).toEqual(['contextVectors', 'contexts']);
    raw.close();
  });

  it('a refused write is said as a problem and returns false', async () => {
    const s = new ContextStorage();
    await s.open();
    // A key IndexedDB refuses stands for a refused write (quota, a closed database).
    expect(await s.putVectors('m', [{ hash: undefined as unknown as string, data: vec(1) }])).toBe(false);
    expect(s.problem).toMatch(/^contextual vectors are kept only until the page closes: /);
  });
});

/** The hashing test embedder under a model name of the test's, counting what it embeds. */
function counting(model = 'test/hash-embedder'): Embedder & { texts: string[] } {
  const base = hashEmbedder();
  const texts: string[] = [];
  return { ...base, model, texts, embed: (t, o) => (texts.push(...t), base.embed(t, o)) };
}

const DOCS = [
  documentFromText('The river floods in spring. Farmers plant rice after it. Markets open in autumn.', 'valley.txt'),
  documentFromText('The engine needs oil. Change it every year.', 'manual.txt'),
];

/** A "page load": an engine over the documents with the model, and the lab's contexts opened from storage and told the model loaded. */
async function load(embedder: Embedder | null, docs = DOCS) {
  const holder = { engine: new RetrievalEngine({ embedder }) };
  holder.engine.addDocuments(docs);
  const contexts = new LabContexts(() => holder.engine, () => undefined);
  await contexts.open(false);
  if (embedder) await contexts.modelLoaded();
  return { holder, contexts };
}

/** Waits for the contexts' save a moment after the last change (SETTLE_MS) and for its storage work. */
async function settled(contexts: LabContexts): Promise<void> {
  await new Promise((r) => setTimeout(r, 500));
  // flush awaits its writes before its last step; one more turn for it to finish.
  await (contexts as unknown as { queue: Promise<unknown> }).queue;
  await new Promise((r) => setTimeout(r, 20));
}

describe('LabContexts: contextual vectors kept across a reload', () => {
  it('a reload embeds nothing: every vector made before it is read back, the same values', async () => {
    const first = counting();
    const { holder, contexts } = await load(first);
    const e = holder.engine;
    contexts.put(e.contexts.key('sentence', 1), { text: 'Mekong delta agriculture calendar.', source: 'model test' });
    contexts.put(e.contexts.key('sentence', 4), { text: 'Motorcycle maintenance schedule.', source: 'model test' });
    contexts.put(e.contexts.key('leaf', 0), { text: 'A valley farming year.', source: 'model test' });
    await settled(contexts);
    expect(contexts.counts.embedded).toBe(3);
    expect(first.texts).toEqual([e.unitText('sentence', 1, true), e.unitText('sentence', 4, true), e.unitText('leaf', 0, true)]);
    const made = new Map(e.contexts.vectors);

    const again = counting();
    const reloaded = await load(again);
    await settled(reloaded.contexts);
    expect(again.texts).toEqual([]);
    expect(reloaded.contexts.counts).toEqual({ embedded: 0, restored: 3 });
    expect(reloaded.holder.engine.contexts.vectors).toEqual(made);
    expect(reloaded.contexts.state('sentence')).toMatchObject({ written: 2, embedded: 2, total: 5 });
    expect(reloaded.contexts.state('leaf')).toMatchObject({ written: 1, embedded: 1 });
  });

  it('vectors made elsewhere (a bundle\'s, adopted) are stored at the next save too', async () => {
    const { holder, contexts } = await load(counting());
    const e = holder.engine;
    // As an import does: the context and its vector arrive in the engine, not through put().
    e.contexts.store.set(e.contexts.key('sentence', 2), { text: 'Autumn trade in the valley.', source: 'bundle' });
    const v = new Float32Array(e.embedder!.dim).fill(0.5);
    e.contexts.adoptVector('sentence', 2, v);
    contexts.corpusChanged();
    await settled(contexts);
    expect(contexts.counts.embedded).toBe(0);

    const again = counting();
    const reloaded = await load(again);
    await settled(reloaded.contexts);
    expect(again.texts).toEqual([]);
    expect(reloaded.contexts.counts).toEqual({ embedded: 0, restored: 1 });
    expect([...reloaded.holder.engine.contexts.vectors.values()]).toEqual([e.contexts.vectors.get(contextVectorKey('test/hash-embedder', e.unitText('sentence', 2, true)))]);
  });

  it('a start reads only the loaded model\'s vectors; the other model\'s stay stored for a switch', async () => {
    const a = counting('model/a');
    const { holder, contexts } = await load(a);
    contexts.put(holder.engine.contexts.key('sentence', 0), { text: 'Floods and seasons.', source: 'model test' });
    await settled(contexts);
    expect(a.texts).toHaveLength(1);

    // Another model: nothing of model/a is read, its own vector is made (and stored).
    const b = counting('model/b');
    const other = await load(b);
    await settled(other.contexts);
    expect(other.contexts.counts).toEqual({ embedded: 1, restored: 0 });
    expect([...other.holder.engine.contexts.vectors.keys()]).toEqual([contextVectorKey('model/b', other.holder.engine.unitText('sentence', 0, true))]);

    // Back to model/a after a reload: its vector is read, nothing embedded.
    const a2 = counting('model/a');
    const back = await load(a2);
    await settled(back.contexts);
    expect(a2.texts).toEqual([]);
    expect(back.contexts.counts).toEqual({ embedded: 0, restored: 1 });
  });

  it('an edited context, a removed document and a clear drop exactly the stale stored vectors', async () => {
    const { holder, contexts } = await load(counting());
    const e = holder.engine;
    const k1 = e.contexts.key('sentence', 1);
    contexts.put(k1, { text: 'Mekong delta agriculture calendar.', source: 'model test' });
    contexts.put(e.contexts.key('sentence', 4), { text: 'Motorcycle maintenance schedule.', source: 'model test' });
    await settled(contexts);
    const storage = new ContextStorage();
    await storage.open();
    const stored = async () => [...(await storage.loadVectors('test/hash-embedder')).keys()].sort();
    const oldText = e.unitText('sentence', 1, true);
    const manualText = e.unitText('sentence', 4, true);
    expect(await stored()).toEqual([textHash(oldText), textHash(manualText)].sort());

    // Edited: the old text's vector goes, the new one is stored; the other stays.
    contexts.edit(k1, 'Rice planting in the valley.');
    await settled(contexts);
    const newText = e.unitText('sentence', 1, true);
    expect(newText).not.toBe(oldText);
    expect(await stored()).toEqual([textHash(newText), textHash(manualText)].sort());

    // manual.txt removed (the session's engine without it): its vector goes at the next save.
    holder.engine = await e.withoutDocuments([DOCS[1]!.id]);
    contexts.corpusChanged();
    await settled(contexts);
    expect(await stored()).toEqual([textHash(newText)]);
    // Its context stays (a document added again finds it), only the stored vector went.
    expect(holder.engine.contexts.store.count('sentence')).toBe(2);

    // Cleared: contexts and every vector.
    await contexts.clear();
    expect(await stored()).toEqual([]);
    expect(await storage.load()).toBeNull();
    expect(holder.engine.contexts.vectors.size).toBe(0);
    storage.problem = null;
  });
});
