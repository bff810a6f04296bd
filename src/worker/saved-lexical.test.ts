import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { RetrievalEngine } from '../core/engine';
import type { LexicalParams } from '../core/index/lexical-index';
import { structureParams } from '../core/retrieve/params';
import { Persistence } from './persistence';
import { adoptStoredLexical, packLexical, readStoredLexical, storedLexical, type SavedLexical, type StoredLexical } from './saved-lexical';
import { addStoredDocuments, packSplits } from './saved-split';

const docs = () => [
  documentFromText('# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation. Oolong sits between the two teas.', 'tea.md', 'md'),
  documentFromText('The harbour opens at dawn. Fishing boats leave the harbour before the ferries. The lighthouse keeper logs every ship in the harbour.', 'harbour.txt'),
];
const QUERIES = ['harbour ships', 'green tea oxidation', 'boats at dawn'];

describe('BM25 indexes kept as postings across a reload', () => {
  for (const lexical of [
    { analyzer: 'stem+stop', bm25: 'lucene' },
    { analyzer: 'words', bm25: 'bm25plus' },
  ] as LexicalParams[]) {
    it(`rebuilt from their postings, they answer with the same units and scores (${lexical.bm25}, ${lexical.analyzer})`, () => {
      const original = new RetrievalEngine({ structure: { chunkLevels: [64, 16], lexical } });
      original.addDocuments(docs());
      const kinds = ['sentence', 'leaf', 'chunk'] as const;
      const saved = kinds.map((k) => packLexical(original, k)!);
      expect(saved.every((s) => s !== null)).toBe(true);

      const restored = new RetrievalEngine({ structure: { chunkLevels: [64, 16], lexical } });
      addStoredDocuments(restored, docs(), packSplits(original));
      expect(adoptStoredLexical(restored, saved)).toEqual([...kinds]);
      for (const k of kinds) {
        for (const q of QUERIES) expect(restored.lexicalIndex(k).search(q, 5)).toEqual(original.lexicalIndex(k).search(q, 5));
        expect(Array.from(restored.lexicalIndex(k).lengths())).toEqual(Array.from(original.lexicalIndex(k).lengths()));
      }
    });
  }

  it('are not taken by an engine whose units or analyzer differ', () => {
    const original = new RetrievalEngine();
    original.addDocuments(docs());
    const saved = [packLexical(original, 'sentence')!];
    const otherAnalyzer = new RetrievalEngine({ structure: { lexical: { analyzer: 'words', bm25: 'lucene' } } });
    otherAnalyzer.addDocuments(docs());
    expect(adoptStoredLexical(otherAnalyzer, saved)).toEqual([]);
    const fewerDocs = new RetrievalEngine();
    fewerDocs.addDocuments(docs().slice(0, 1));
    expect(adoptStoredLexical(fewerDocs, saved)).toEqual([]);
  });
});

describe('BM25 postings in storage', () => {
  const g = globalThis as { indexedDB?: unknown };
  const original = g.indexedDB;
  afterEach(() => {
    g.indexedDB = original;
  });
  const plain = (l: SavedLexical) => ({ ...l, offsets: Array.from(l.offsets), unit: Array.from(l.unit), tf: Array.from(l.tf) });
  const engine = () => {
    const e = new RetrievalEngine();
    e.addDocuments(docs());
    return e;
  };

  it('their terms, unit and tf columns are stored as Blobs (the terms as JSON, the columns exactly their bytes), and read back the same', async () => {
    const l = packLexical(engine(), 'sentence')!;
    const s = storedLexical(l);
    expect(s.unit).toBeInstanceOf(Blob);
    expect(s.tf).toBeInstanceOf(Blob);
    expect([(s.unit as Blob).size, (s.tf as Blob).size]).toEqual([l.unit.length * 4, l.tf.length * 4]);
    expect(JSON.parse(await (s.terms as Blob).text())).toEqual(l.terms);
    expect(plain((await readStoredLexical(s))!)).toEqual(plain(l));
    // As stored before: a term list and typed arrays, taken as they are.
    expect(plain((await readStoredLexical(l))!)).toEqual(plain(l));
  });

  it('terms that are not Latin-1 come back exactly', async () => {
    const l = packLexical(engine(), 'sentence')!;
    const terms = l.terms.map((t, i) => (i === 0 ? 'çà中文ß' : i === 1 ? '😀' : t));
    expect((await readStoredLexical(storedLexical({ ...l, terms })))!.terms).toEqual(terms);
  });

  it('a record whose columns do not match its offsets, or whose Blob cannot be read, is left out (the index is built from the text)', async () => {
    const l = packLexical(engine(), 'sentence')!;
    expect(await readStoredLexical({ ...storedLexical(l), tf: new Blob([Uint32Array.from([1])]) })).toBeNull();
    expect(await readStoredLexical({ ...l, unit: l.unit.subarray(1) })).toBeNull();
    // Terms that are not a list of strings, or one term fewer than the offsets name.
    expect(await readStoredLexical({ ...storedLexical(l), terms: new Blob(['{"a":1}']) })).toBeNull();
    expect(await readStoredLexical({ ...storedLexical(l), terms: new Blob([JSON.stringify(l.terms.slice(1))]) })).toBeNull();
    expect(await readStoredLexical({ ...storedLexical(l), terms: new Blob(['not json']) })).toBeNull();
    const s = storedLexical(l);
    vi.spyOn(s.unit as Blob, 'arrayBuffer').mockRejectedValue(new DOMException('gone', 'NotReadableError'));
    expect(await readStoredLexical(s)).toBeNull();
  });

  it('an import\'s postings are stored as Blobs and a reload takes them: the restored engine adopts every kind', async () => {
    g.indexedDB = new IDBFactory();
    const e = engine();
    const kinds = ['sentence', 'leaf', 'chunk'] as const;
    const lexical = kinds.map((k) => packLexical(e, k)!);
    const p = new Persistence();
    await p.open();
    await p.claim('tab');
    const corpus = { structure: structureParams(), model: null };
    const splits = packSplits(e);
    expect(await p.saveImport(corpus, e.corpus.docs.map((doc) => ({ doc, split: splits.get(doc.id) })), new Map(), [], lexical)).toBe(true);
    const db = await openDB('rag-context-lab');
    const stored = (await db.getAll('lexical')) as StoredLexical[];
    db.close();
    expect(stored.map((s) => [s.kind, s.unit instanceof Blob, s.tf instanceof Blob])).toEqual([
      ['chunk', true, true],
      ['leaf', true, true],
      ['sentence', true, true],
    ]);
    // The next start.
    const next = new Persistence();
    await next.open();
    const saved = (await next.load())!;
    expect(saved.lexical.map(plain).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual(lexical.map(plain).sort((a, b) => a.kind.localeCompare(b.kind)));
    const restored = new RetrievalEngine();
    addStoredDocuments(restored, saved.docs, saved.splits);
    expect(adoptStoredLexical(restored, saved.lexical).sort()).toEqual([...kinds].sort());
    for (const k of kinds) for (const q of QUERIES) expect(restored.lexicalIndex(k).search(q, 5)).toEqual(e.lexicalIndex(k).search(q, 5));
  });
});
