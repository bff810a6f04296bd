import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { structureParams } from '../core/retrieve/params';
import { Persistence } from './persistence';

const g = globalThis as { indexedDB?: unknown };
const original = g.indexedDB;
afterEach(() => {
  g.indexedDB = original;
});

const doc = documentFromText('Kept across reloads.', 'kept.txt');
const corpus = { docIds: [doc.id], structure: structureParams(), model: null };

describe('persistence (IndexedDB in the worker)', () => {
  it('keeps documents, vectors and parameters, and gives them back', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    expect(p.on).toBe(true);
    await p.saveCorpus(corpus, [doc]);
    await p.saveVectors([{ key: 'sentence|none|m', dim: 2, data: new Float32Array([1, 0]) }]);
    await p.saveParams('q=hello');
    const again = new Persistence();
    await again.open();
    const loaded = (await again.load())!;
    expect(loaded.docs.map((d) => d.id)).toEqual([doc.id]);
    expect(Array.from(loaded.vectors[0]!.data)).toEqual([1, 0]);
    expect(loaded.params).toBe('q=hello');
  });

  it('without IndexedDB (private mode) it is off, says why, and every call is a no-op', async () => {
    g.indexedDB = undefined;
    const p = new Persistence();
    await p.open();
    expect(p.on).toBe(false);
    expect(p.reason).toBe('storage is unavailable (IndexedDB is not available here)');
    await p.saveCorpus(corpus, [doc]);
    expect(await p.load()).toBeNull();
  });

  it('a quota error turns persistence off with the reason, instead of failing the app', async () => {
    const factory = new IDBFactory();
    g.indexedDB = factory;
    const p = new Persistence();
    await p.open();
    // Every write now fails the way a full origin quota does.
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    try {
      await p.saveCorpus(corpus, [doc]);
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect(p.on).toBe(false);
    expect(p.reason).toBe('the browser storage quota is full');
  });
});
