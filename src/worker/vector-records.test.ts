import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { structureParams } from '../core/retrieve/params';
import { Persistence } from './persistence';
import type { DocVectors } from './saved-vectors';
import { mergeRecords, packRecords, packWithout, PART_FLOATS, readPack, storedPacks, unpack, type StoredPack } from './vector-records';

const g = globalThis as { indexedDB?: unknown };
const original = g.indexedDB;
afterEach(() => {
  g.indexedDB = original;
});

const rec = (doc: string, key: string, rows: number[][], tree = 't', units = rows.length): DocVectors => ({ doc, key, dim: rows[0]?.length ?? 2, units, tree, data: Float32Array.from(rows.flat()) });
const floats = async (b: Blob | Float32Array) => Array.from(b instanceof Blob ? new Float32Array(await b.arrayBuffer()) : b);
const view = (records: DocVectors[]) => records.map((r) => [r.doc, r.key, r.tree, r.units, Array.from(r.data)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1])));

describe('packs of many documents', () => {
  const S = 'sentence|none|org/m';
  const L = 'leaf|none|org/m';

  it('group records by set and units key in the order given, each document\'s rows after the last', () => {
    const { packs, alone } = packRecords([rec('a', S, [[1, 2], [3, 4]]), rec('a', L, [[9, 9]]), rec('b', S, [[5, 6]], 't', 3), rec('c', S, [[7, 8]], 'other')]);
    expect(alone).toEqual([]);
    expect(packs.map((p) => [p.key, p.tree, p.model, p.docs, p.docIds, Array.from(p.data)])).toEqual([
      [S, 't', 'org/m', [{ doc: 'a', units: 2, rows: 2 }, { doc: 'b', units: 3, rows: 1 }], ['a', 'b'], [1, 2, 3, 4, 5, 6]],
      [L, 't', 'org/m', [{ doc: 'a', units: 1, rows: 1 }], ['a'], [9, 9]],
      [S, 'other', 'org/m', [{ doc: 'c', units: 1, rows: 1 }], ['c'], [7, 8]],
    ]);
    // And back: each document's record as it was (a document cut short keeps its unit count).
    expect(view(packs.flatMap(unpack))).toEqual(view([rec('a', S, [[1, 2], [3, 4]]), rec('a', L, [[9, 9]]), rec('b', S, [[5, 6]], 't', 3), rec('c', S, [[7, 8]], 'other')]));
  });

  it('a pack holds at most 32 MB; a record bigger than that is stored alone, in parts', () => {
    const half = new Float32Array(PART_FLOATS / 2);
    const big = { doc: 'big', key: S, dim: 2, units: PART_FLOATS, tree: 't', data: new Float32Array(PART_FLOATS + 2) };
    const { packs, alone } = packRecords([{ ...rec('a', S, []), dim: 2, data: half }, { ...rec('b', S, []), dim: 2, data: half }, { ...rec('c', S, []), dim: 2, data: half }, big]);
    expect(packs.map((p) => p.docIds)).toEqual([['a', 'b'], ['c']]);
    expect(alone.map((r) => r.doc)).toEqual(['big']);
  });

  it('a document\'s own record wins over its part of a pack', () => {
    const { packs } = packRecords([rec('a', S, [[1, 1]]), rec('b', S, [[2, 2]])]);
    expect(view(mergeRecords([rec('a', S, [[5, 5]], 'new')], packs))).toEqual(view([rec('a', S, [[5, 5]], 'new'), rec('b', S, [[2, 2]])]));
  });

  it('to store, a pack\'s rows are a Blob of exactly its records\' floats (a view gives only the rows it shows)', async () => {
    const big = Float32Array.from([0, 0, 1, 2, 3, 4, 0, 0]);
    const { packs, alone } = storedPacks([{ ...rec('a', S, []), dim: 2, units: 2, data: big.subarray(2, 6) }, rec('b', S, [[5, 6]])]);
    expect(alone).toEqual([]);
    expect(packs.map((p) => [p.key, p.tree, p.model, p.docs, p.docIds])).toEqual([[S, 't', 'org/m', [{ doc: 'a', units: 2, rows: 2 }, { doc: 'b', units: 1, rows: 1 }], ['a', 'b']]]);
    expect(packs[0]!.data).toBeInstanceOf(Blob);
    expect((packs[0]!.data as Blob).size).toBe(6 * 4);
    expect(await floats(packs[0]!.data)).toEqual([1, 2, 3, 4, 5, 6]);
    // Read back: the same records as packRecords gives.
    expect(view(unpack((await readPack(packs[0]!))!))).toEqual(view(packRecords([rec('a', S, [[1, 2], [3, 4]]), rec('b', S, [[5, 6]])]).packs.flatMap(unpack)));
  });

  it('a stored pack is read from a Blob or (written before Blobs) a Float32Array; one that cannot be read or holds other than its rows is left out', async () => {
    const meta = { model: 'org/m', key: S, tree: 't', dim: 2, docs: [{ doc: 'a', units: 1, rows: 1 }], docIds: ['a'] };
    expect(Array.from((await readPack({ ...meta, data: new Blob([Float32Array.from([1, 2])]) }))!.data)).toEqual([1, 2]);
    expect(Array.from((await readPack({ ...meta, data: Float32Array.from([3, 4]) }))!.data)).toEqual([3, 4]);
    expect(await readPack({ ...meta, data: new Blob([Float32Array.from([1, 2, 3])]) })).toBeNull();
    const unreadable = new Blob([Float32Array.from([1, 2])]);
    vi.spyOn(unreadable, 'arrayBuffer').mockRejectedValue(new DOMException('gone', 'NotReadableError'));
    expect(await readPack({ ...meta, data: unreadable })).toBeNull();
  });

  it('a pack without some documents keeps the others\' rows as slices, from a Blob or a Float32Array', async () => {
    const rows = [1, 1, 2, 2, 2, 2, 3, 3];
    const meta = { model: 'org/m', key: S, tree: 't', dim: 2, docs: [{ doc: 'a', units: 1, rows: 1 }, { doc: 'b', units: 3, rows: 2 }, { doc: 'c', units: 1, rows: 1 }], docIds: ['a', 'b', 'c'] };
    for (const data of [new Blob([Float32Array.from(rows)]), Float32Array.from(rows)]) {
      const p: StoredPack = { ...meta, data };
      const kept = packWithout(p, new Set(['b']))!;
      expect([kept.docs, kept.docIds, kept.model, kept.key, kept.tree, kept.dim]).toEqual([[{ doc: 'a', units: 1, rows: 1 }, { doc: 'c', units: 1, rows: 1 }], ['a', 'c'], 'org/m', S, 't', 2]);
      expect(kept.data).toBeInstanceOf(Blob);
      expect(await floats(kept.data)).toEqual([1, 1, 3, 3]);
      expect(await floats(packWithout(p, new Set(['a', 'c']))!.data)).toEqual([2, 2, 2, 2]);
      expect(packWithout(p, new Set(['a', 'b', 'c']))).toBeNull();
    }
  });
});

describe('an import stored as packs', () => {
  const S = 'sentence|none|org/m';
  const docs = ['One.', 'Two.', 'Three.'].map((t, i) => documentFromText(t, `d${i}.txt`));
  const corpus = () => ({ structure: structureParams(), model: 'org/m' });
  const entries = (ds = docs) => ds.map((doc) => ({ doc }));
  const records = () => docs.map((d, i) => rec(d.id, S, [[i, i]]));
  const stored = async () => {
    const db = await openDB('rag-context-lab');
    const r = { packs: (await db.getAllKeys('vectorPacks')).length, own: (await db.getAllKeys('docVectors')).length };
    db.close();
    return r;
  };

  it('is one record for the set, its rows a Blob, read back per document', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    expect(await p.saveImport(corpus(), entries(), new Map(), records())).toBe(true);
    expect(await stored()).toEqual({ packs: 1, own: 0 });
    const db = await openDB('rag-context-lab');
    const [pack] = (await db.getAll('vectorPacks')) as StoredPack[];
    db.close();
    expect(pack!.docIds).toEqual(docs.map((d) => d.id));
    expect(await floats(pack!.data)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view(records()));
    expect(await p.docVectorsOf('org/other')).toEqual([]);
  });

  it('removing a document keeps the others\' vectors, in a pack of their own', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    await p.saveImport(corpus(), entries(), new Map(), records());
    await p.removeDocuments([docs[1]!.id]);
    expect(await stored()).toEqual({ packs: 1, own: 0 });
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view([records()[0]!, records()[2]!]));
    // A document's vectors dropped (its title changed): the same.
    await p.forgetVectors([docs[2]!.id]);
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view([records()[0]!]));
  });

  it('forgetting a packed document\'s vectors splits the pack too', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    await p.saveImport(corpus(), entries(), new Map(), records());
    await p.forgetVectors([docs[1]!.id]);
    expect(await stored()).toEqual({ packs: 1, own: 0 });
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view([records()[0]!, records()[2]!]));
  });

  it('a pack stored before Blobs (its rows a Float32Array) is read, and written again as a Blob without a removed document', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    await p.addDocuments(entries(), corpus());
    const db = await openDB('rag-context-lab');
    await db.put('vectorPacks', packRecords(records()).packs[0]!, [S, 't', 'old']);
    db.close();
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view(records()));
    await p.removeDocuments([docs[0]!.id]);
    const again = await openDB('rag-context-lab');
    const packs = (await again.getAll('vectorPacks')) as StoredPack[];
    again.close();
    expect(packs.map((x) => [x.docIds, x.data instanceof Blob])).toEqual([[[docs[1]!.id, docs[2]!.id], true]]);
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view(records().slice(1)));
  });

  it('an import\'s and the embedding job\'s writes do not wait for the disk to flush (relaxed durability); other writes do', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    await p.saveImport(corpus(), entries(), new Map(), records());
    await p.saveDocVectors([rec(docs[0]!.id, S, [[7, 7]])], []);
    await p.removeDocuments([docs[2]!.id]);
    expect(spy.mock.calls.map((c) => [c[1], c[2]?.durability])).toEqual([['readwrite', 'relaxed'], ['readwrite', 'relaxed'], ['readwrite', undefined]]);
    spy.mockRestore();
  });

  it('a document embedded again for the same units is read from its own record; for other units, the packs made for the old ones go', async () => {
    // Units keys sorting before and after the packs' ('t'): both ranges are dropped.
    for (const units of ['a: other units', 'z: other units']) {
      g.indexedDB = new IDBFactory();
      const p = new Persistence();
      await p.open();
      await p.claim('tab');
      await p.saveImport(corpus(), entries(), new Map(), records());
      await p.saveDocVectors([rec(docs[0]!.id, S, [[7, 7]])], []);
      expect(await stored()).toEqual({ packs: 1, own: 1 });
      expect(view(await p.docVectorsOf('org/m'))).toEqual(view([rec(docs[0]!.id, S, [[7, 7]]), records()[1]!, records()[2]!]));
      await p.saveDocVectors([rec(docs[0]!.id, S, [[8, 8]], units)], []);
      expect(await stored()).toEqual({ packs: 0, own: 1 });
      expect(view(await p.docVectorsOf('org/m'))).toEqual(view([rec(docs[0]!.id, S, [[8, 8]], units)]));
    }
  });

  it('an import into a stored corpus adds its packs beside the earlier ones; clearing removes them all', async () => {
    g.indexedDB = new IDBFactory();
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    await p.saveImport(corpus(), entries(docs.slice(0, 2)), new Map(), records().slice(0, 2));
    await p.saveImport(corpus(), entries(docs.slice(2)), new Map(), records().slice(2));
    expect(await stored()).toEqual({ packs: 2, own: 0 });
    expect(view(await p.docVectorsOf('org/m'))).toEqual(view(records()));
    await p.clear();
    expect(await stored()).toEqual({ packs: 0, own: 0 });
  });
});
