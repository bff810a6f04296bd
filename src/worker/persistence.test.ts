import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { structureParams } from '../core/retrieve/params';
import { openDB } from 'idb';
import { Persistence } from './persistence';
import type { SavedSplit } from './saved-split';
import type { DocVectors } from './saved-vectors';

const g = globalThis as { indexedDB?: unknown };
const original = g.indexedDB;
afterEach(() => {
  g.indexedDB = original;
});

const doc = documentFromText('Kept across reloads.', 'kept.txt');
const corpus = { structure: structureParams(), model: null };

/** A tab's storage: opened, and claimed under `tab` (it writes). */
async function opened(tab = 'tab'): Promise<Persistence> {
  const p = new Persistence();
  await p.open();
  await p.claim(tab);
  return p;
}
const rec = (d: string, key: string, data: number[] | Float32Array, dim = 2): DocVectors => ({ doc: d, key, dim, units: data.length / dim, tree: 't', data: Float32Array.from(data) });

describe('persistence (IndexedDB in the worker)', () => {
  it('keeps documents, vectors and parameters, and gives them back', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    expect(p.on).toBe(true);
    await p.addDocuments([{ doc }], corpus);
    expect(await p.saveDocVectors([rec(doc.id, 'sentence|none|m', [1, 0])], [{ doc: doc.id, tree: 's', runs: new Int32Array([0, 1]) }])).toBe(true);
    await p.saveParams('q=hello');
    const again = new Persistence();
    await again.open();
    const loaded = (await again.load())!;
    expect(loaded.docs.map((d) => d.id)).toEqual([doc.id]);
    expect((await again.docVectorsOf('m')).map((r) => [r.doc, r.key, r.units, Array.from(r.data)])).toEqual([[doc.id, 'sentence|none|m', 1, [1, 0]]]);
    expect(loaded.semantic.map((r) => [r.doc, Array.from(r.runs)])).toEqual([[doc.id, [0, 1]]]);
    expect(loaded.params).toBe('q=hello');
  });

  it('without IndexedDB (private mode) it is off, says why, and every call is a no-op', async () => {
    g.indexedDB = undefined;
    const p = new Persistence();
    await p.open();
    expect(p.on).toBe(false);
    expect(p.reason).toBe('storage is unavailable (IndexedDB is not available here)');
    expect(await p.claim('tab')).toBe(false);
    expect(await p.addDocuments([{ doc }], corpus)).toBe(false);
    expect(await p.load()).toBeNull();
  });

  it('a quota error turns persistence off with the reason, instead of failing the app', async () => {
    const factory = new IDBFactory();
    g.indexedDB = factory;
    const p = await opened();
    // Every write now fails the way a full origin quota does.
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    try {
      await p.addDocuments([{ doc }], corpus);
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect(p.on).toBe(false);
    expect(p.reason).toBe('the browser storage quota is full');
  });

  it('keeps each document\'s split beside it, and drops the split of a document removed; a new split is written only for a stored document', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    const other = documentFromText('Another one.', 'other.txt');
    const split = (n: number): SavedSplit => ({ key: 'k', sentences: new Int32Array([0, -1, 0, n, 2, -1, 0]), chunks: new Int32Array([0, n, 2, 0, 1]) });
    await p.addDocuments([{ doc, split: split(20) }, { doc: other, split: split(12) }], corpus);
    let loaded = (await p.load())!;
    expect([...loaded.splits.keys()].sort()).toEqual([doc.id, other.id].sort());
    expect(Array.from(loaded.splits.get(other.id)!.sentences)).toEqual([0, -1, 0, 12, 2, -1, 0]);
    expect(loaded.splits.get(other.id)!.sentences).toBeInstanceOf(Int32Array);
    await p.removeDocuments([other.id]);
    loaded = (await p.load())!;
    expect([...loaded.splits.keys()]).toEqual([doc.id]);
    // New settings re-split the corpus: the split of a document no longer stored is not written back.
    await p.saveSettings(corpus, new Map([[doc.id, split(21)], [other.id, split(13)]]));
    const db = await openDB('rag-context-lab');
    expect(await db.getAllKeys('splits')).toEqual([doc.id]);
    db.close();
    expect(Array.from((await p.load())!.splits.get(doc.id)!.sentences)).toEqual([0, -1, 0, 21, 2, -1, 0]);
  });

  it('a database written by the previous version (no splits) opens, and gives its documents back to be split again', async () => {
    g.indexedDB = new IDBFactory();
    const old = await openDB('rag-context-lab', 1, {
      upgrade(db) {
        db.createObjectStore('docs');
        db.createObjectStore('vectors');
        db.createObjectStore('meta');
      },
    });
    await old.put('docs', doc, doc.id);
    await old.put('meta', { ...corpus, docIds: [doc.id] }, 'corpus');
    await old.put('vectors', { key: 'sentence|none|m', dim: 2, data: new Float32Array([0, 1]) }, 'sentence|none|m');
    old.close();
    const p = await opened();
    expect(p.on).toBe(true);
    const loaded = (await p.load())!;
    expect(loaded.docs.map((d) => d.id)).toEqual([doc.id]);
    expect(loaded.splits.size).toBe(0);
    expect(Array.from(loaded.vectors[0]!.data)).toEqual([0, 1]);
    expect(loaded.unfinishedImport).toBeNull();
  });

  it('an import closed before it was stored: the next start says which bundle, once, and what was stored before is intact', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    await p.addDocuments([{ doc }], corpus);
    await p.saveDocVectors([rec(doc.id, 'sentence|none|m', [1, 0])], []);
    // The page closes after the mark, before saveImport commits.
    await p.markImport('big.zip');
    const after = await opened('next start');
    const loaded = (await after.load())!;
    expect(loaded.unfinishedImport).toBe('big.zip');
    expect(loaded.docs.map((d) => d.id)).toEqual([doc.id]);
    expect(Array.from((await after.docVectorsOf('m'))[0]!.data)).toEqual([1, 0]);
    // Said once: the tab that owns the lab drops the mark.
    await after.dropImportMark();
    expect((await after.load())!.unfinishedImport).toBeNull();

    // An import that completes: documents, splits and vectors in one transaction, and no mark left.
    const imported = documentFromText('Imported from a bundle.', 'bundle-doc.txt');
    await after.markImport('small.zip');
    const split: SavedSplit = { key: 'k', sentences: new Int32Array([0, -1, 0, 23, 4, -1, 0]), chunks: new Int32Array(0) };
    await after.saveImport(corpus, [{ doc: imported, split }], new Map(), [rec(doc.id, 'sentence|none|m', [1, 0]), rec(imported.id, 'sentence|none|m', [0, 1])]);
    const done = (await after.load())!;
    expect(done.unfinishedImport).toBeNull();
    expect(done.docs.map((d) => d.id)).toEqual([doc.id, imported.id]);
    expect([...done.splits.keys()]).toEqual([imported.id]);
    expect((await after.docVectorsOf('m')).map((r) => [r.doc, Array.from(r.data)]).sort()).toEqual([[doc.id, [1, 0]], [imported.id, [0, 1]]].sort());
  });

  it('stores a vector set over 32 MB in parts (Chromium refuses a value over 127 MiB) and joins them again', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    // 20M floats (80 MB): parts of 8M, 8M and 4M floats.
    const big = new Float32Array(20 << 20);
    for (let i = 0; i < big.length; i += 4099) big[i] = i;
    await p.addDocuments([{ doc }], corpus);
    await p.saveDocVectors([rec(doc.id, 'sentence|none|m', big, 4), rec(doc.id, 'leaf|none|m', [1, 2, 3, 4], 4)], []);
    const records = await (await openDB('rag-context-lab')).getAllKeys('docVectors');
    expect(records.map((k) => (k as unknown[]).slice(1).join('#')).sort()).toEqual(['leaf|none|m#0', 'sentence|none|m#0', 'sentence|none|m#1', 'sentence|none|m#2']);
    const back = await p.docVectorsOf('m');
    expect(back.map((v) => v.key).sort()).toEqual(['leaf|none|m', 'sentence|none|m']);
    const sentence = back.find((v) => v.key === 'sentence|none|m')!;
    expect(sentence.data.length).toBe(big.length);
    expect(Buffer.from(sentence.data.buffer, sentence.data.byteOffset, sentence.data.byteLength).equals(Buffer.from(big.buffer))).toBe(true);
  });

  it('vectors are kept per document: removing a document removes only its records, a smaller record replaces all parts of a bigger one', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    const other = documentFromText('Another one.', 'other.txt');
    await p.addDocuments([{ doc }, { doc: other }], corpus);
    await p.saveDocVectors([rec(doc.id, 'sentence|none|m', new Float32Array(9 << 20), 2), rec(other.id, 'sentence|none|m', [0, 1])], [{ doc: other.id, tree: 's', runs: new Int32Array([0, 1]) }]);
    // Adding a document keeps every stored vector.
    const third = documentFromText('A third.', 'third.txt');
    await p.addDocuments([{ doc: third }], corpus);
    expect((await p.docVectorsOf('m')).map((r) => r.doc).sort()).toEqual([doc.id, other.id].sort());
    // The first document's record shrinks from two parts to one: no part of the old one is left.
    await p.saveDocVectors([rec(doc.id, 'sentence|none|m', [5, 6])], []);
    const keys = await (await openDB('rag-context-lab')).getAllKeys('docVectors');
    expect(keys.filter((k) => (k as string[])[0] === doc.id).length).toBe(1);
    // Removing the other document removes its vectors and semantic chunks, and nothing else.
    await p.removeDocuments([other.id]);
    const loaded = (await p.load())!;
    expect((await p.docVectorsOf('m')).map((r) => [r.doc, Array.from(r.data)])).toEqual([[doc.id, [5, 6]]]);
    expect(loaded.semantic).toEqual([]);
  });

  it('reads one model\'s vectors at a time: a start does not read every model ever loaded', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    await p.addDocuments([{ doc }], corpus);
    await p.saveDocVectors([rec(doc.id, 'sentence|none|org/a', [1, 0]), rec(doc.id, 'leaf|h:ts:|org/a|late', [0, 1]), rec(doc.id, 'sentence|none|org/b', [2, 2]), rec(doc.id, 'sentence|none|org/a-2', [3, 3])], []);
    expect((await p.docVectorsOf('org/a')).map((r) => r.key).sort()).toEqual(['leaf|h:ts:|org/a|late', 'sentence|none|org/a']);
    expect((await p.docVectorsOf('org/b')).map((r) => Array.from(r.data))).toEqual([[2, 2]]);
    expect(await p.docVectorsOf('org/c')).toEqual([]);
    // What is handed back is the record as written, without the index's field.
    expect(Object.keys((await p.docVectorsOf('org/b'))[0]!).sort()).toEqual(['data', 'dim', 'doc', 'key', 'tree', 'units']);
  });

  it('a database of version 3 opens: its vector records learn their model and are read by it', async () => {
    g.indexedDB = new IDBFactory();
    const old = await openDB('rag-context-lab', 3, {
      upgrade(db) {
        for (const name of ['docs', 'vectors', 'meta', 'splits', 'lexical', 'docVectors', 'semantic']) db.createObjectStore(name);
      },
    });
    await old.put('docs', doc, doc.id);
    await old.put('meta', { ...corpus, docIds: [doc.id] }, 'corpus');
    await old.put('docVectors', { ...rec(doc.id, 'sentence|none|org/a', [1, 0]), parts: 1 }, [doc.id, 'sentence|none|org/a', 0]);
    await old.put('docVectors', { ...rec(doc.id, 'sentence|none|org/b|ctx', [0, 1]), parts: 1 }, [doc.id, 'sentence|none|org/b|ctx', 0]);
    old.close();
    const p = new Persistence();
    await p.open();
    expect(p.on).toBe(true);
    expect((await p.load())!.docs.map((d) => d.id)).toEqual([doc.id]);
    expect((await p.docVectorsOf('org/a')).map((r) => Array.from(r.data))).toEqual([[1, 0]]);
    expect((await p.docVectorsOf('org/b')).map((r) => r.key)).toEqual(['sentence|none|org/b|ctx']);
  });

  it('a refused vector write turns persistence off and says what was not stored', async () => {
    g.indexedDB = new IDBFactory();
    const p = await opened();
    await p.addDocuments([{ doc }], corpus);
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    let ok: boolean;
    try {
      ok = await p.saveDocVectors([rec(doc.id, 'sentence|none|m', [1, 0])], [], 'the vectors of kept.txt');
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect(ok).toBe(false);
    expect(p.on).toBe(false);
    expect(p.reason).toBe('the browser storage quota is full; the vectors of kept.txt could not be stored');
  });
});
