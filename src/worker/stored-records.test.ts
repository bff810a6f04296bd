import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentFromText } from '../core/documents/load';
import type { LabelledQuestion } from '../core/questions/types';
import { structureParams } from '../core/retrieve/params';
import { Persistence } from './persistence';
import { documentList, OrderStamps, readStoredDocument, storedDocuments, type StoredDocument } from './stored-records';

/**
 * The merge rule of the storage every tab shares (stored-records.ts): records, each written on
 * its own; the corpus is the document records in stamp order; a tab writes only under its
 * claim. Sequences of two tabs' writes, interleaved, on one fake IndexedDB.
 */
const g = globalThis as { indexedDB?: unknown };
const original = g.indexedDB;
afterEach(() => {
  g.indexedDB = original;
});

const settings = { structure: structureParams(), model: null };
const doc = (name: string) => documentFromText(`# ${name}\n\n${name} is a document of its own, about ${name}.`, `${name}.md`, 'md');
const [brazil, portugal, chile, fromB] = ['Brazil', 'Portugal', 'Chile', 'FromB'].map(doc) as [ReturnType<typeof doc>, ReturnType<typeof doc>, ReturnType<typeof doc>, ReturnType<typeof doc>];
const question = (id: string, text: string): LabelledQuestion => ({ id, question: text, answers: [], unanswerable: true, source: { kind: 'marked' } });

/** A tab's storage, opened (not claimed: it writes only once it claims). */
async function tab(lost: string[] = [], name = 'tab'): Promise<Persistence> {
  const p = new Persistence({ lost: () => lost.push(name) });
  await p.open();
  return p;
}
const titles = async (p: Persistence) => ((await p.load())?.docs ?? []).map((d) => d.title);

describe('a document record keeps its text apart, as a Blob', () => {
  const long = (text: string) => text.padEnd(2048, ' .');

  it('stores each long text as a Blob of its UTF-8 and gives the same documents back; a short text stays a string', async () => {
    const texts = [long(`${brazil.text} “Curly” quotes, 中文, ß, 😀.`), 'Short: “Curly” 中文.', long('Plain ASCII.'), long('Ελληνικά'), ''];
    const entries = texts.map((text, i) => ({ order: 7 + i, doc: { ...brazil, id: `d${i}`, text } }));
    const records = storedDocuments(entries);
    const asBlob = [true, false, true, true, false];
    expect(records.map((r) => [r.order, r.doc.text, r.text?.size])).toEqual(entries.map((e, i) => (asBlob[i] ? [e.order, '', new TextEncoder().encode(e.doc.text).length] : [e.order, e.doc.text, undefined])));
    expect(await Promise.all(records.map(readStoredDocument))).toEqual(entries);
  });

  it('a text with a lone surrogate (which UTF-8 cannot hold) stays in the document, read as it is; the others beside it are Blobs', async () => {
    const texts = [long('before'), long('a \uD83D b'), long('a \uDE00 b'), long('\uDE00\uD83D'), long('after 😀')];
    const entries = texts.map((text, i) => ({ order: i, doc: { ...brazil, id: `d${i}`, text } }));
    const records = storedDocuments(entries);
    expect(records.map((r) => r.text === undefined)).toEqual([false, true, true, true, false]);
    expect(records.map((r) => r.doc.text)).toEqual(['', ...texts.slice(1, 4), '']);
    expect(await Promise.all(records.map(readStoredDocument))).toEqual(entries);
  });

  it('a record written before (its text in the document) is read as it is; one whose text cannot be read is none', async () => {
    expect(await readStoredDocument({ order: 3, doc: brazil })).toEqual({ order: 3, doc: brazil });
    const [r] = storedDocuments([{ order: 4, doc: { ...brazil, text: long(brazil.text) } }]) as [StoredDocument];
    r.text!.text = () => Promise.reject(new DOMException('gone', 'NotReadableError'));
    expect(await readStoredDocument(r)).toBeNull();
  });

  it('a document whose stored text cannot be read is left out of a reload and named; the others come back', async () => {
    g.indexedDB = new IDBFactory();
    const docs = ['Kept one', 'Lost one', 'Kept two'].map((t) => ({ ...doc(t.replace(' ', '')), title: t, text: long(`${t} has a text of its own.`) }));
    const a = await tab();
    await a.claim('a');
    await a.addDocuments(docs.map((d) => ({ doc: d })), settings);
    const b = await tab();
    const text = Blob.prototype.text;
    const spy = vi.spyOn(Blob.prototype, 'text').mockImplementation(async function (this: Blob) {
      const t = await text.call(this);
      if (t.startsWith('Lost one')) throw new DOMException('gone', 'NotReadableError');
      return t;
    });
    try {
      expect((await b.load())!.docs.map((d) => d.title)).toEqual(['Kept one', 'Kept two']);
      expect(b.lost).toEqual(['Lost one']);
    } finally {
      spy.mockRestore();
    }
    expect((await b.load())!.docs.map((d) => d.title)).toEqual(['Kept one', 'Lost one', 'Kept two']);
    expect(b.lost).toEqual([]);
  });

  it('a reload restores every document\'s text exactly, whatever its script', async () => {
    g.indexedDB = new IDBFactory();
    const texts = [long('Café “au lait” — naïve'), long('东京是日本的首都。'), long('Lone \uD800 surrogate'), brazil.text];
    const docs = texts.map((t, i) => ({ ...doc(`D${i}`), text: t }));
    const a = await tab();
    await a.claim('a');
    await a.addDocuments(docs.map((d) => ({ doc: d })), settings);
    expect((await (await tab()).load())!.docs).toEqual(docs);
  });
});

describe('the merge rule: the list follows the records', () => {
  it('lists documents by stamp, then id; a record without a document is no document', () => {
    const r = (order: number, d: ReturnType<typeof doc>): StoredDocument => ({ order, doc: d });
    const list = documentList([r(30, chile), r(10, brazil), r(20, portugal), { order: 5 } as StoredDocument]);
    expect(list.map((d) => d.title)).toEqual(['Brazil', 'Portugal', 'Chile']);
    // Two writers' equal stamps: one order, the same in every tab.
    const tie = [r(7, brazil), r(7, portugal)];
    const byId = [brazil, portugal].sort((a, b) => (a.id < b.id ? -1 : 1)).map((d) => d.title);
    expect(documentList(tie).map((d) => d.title)).toEqual(byId);
    expect(documentList([...tie].reverse()).map((d) => d.title)).toEqual(byId);
  });

  it('stamps follow the clock but never fall back below one already seen', () => {
    const s = new OrderStamps();
    expect(s.next(1000)).toBe(1000);
    expect(s.next(1000)).toBe(1001);
    expect(s.next(900)).toBe(1002);
    s.saw(5000);
    expect(s.next(1003)).toBe(5001);
    expect(s.next(9000)).toBe(9000);
  });
});

describe('two tabs writing one storage, interleaved', () => {
  it('the issue\'s sequence: B adds a file, then A removes Brazil: a third tab has both changes', async () => {
    g.indexedDB = new IDBFactory();
    const lost: string[] = [];
    const a = await tab(lost, 'A');
    const b = await tab(lost, 'B');
    await a.claim('A');
    expect(await a.addDocuments([{ doc: brazil }, { doc: portugal }, { doc: chile }], settings)).toBe(true);
    // B takes the lab: it claims, then reads what is stored, then adds its file.
    await b.claim('B');
    expect(await titles(b)).toEqual(['Brazil', 'Portugal', 'Chile']);
    expect(await b.addDocuments([{ doc: fromB }], settings)).toBe(true);
    // A, still holding its old list in memory, tries to write: refused, and told it lost the lab.
    expect(await a.removeDocuments([brazil.id])).toBe(false);
    expect(lost).toEqual(['A']);
    expect(a.owner).toBe(false);
    expect(await titles(b)).toEqual(['Brazil', 'Portugal', 'Chile', 'FromB']);
    // A takes it back: claims, reads (B's file is there), removes Brazil; B's next write is refused.
    await a.claim('A');
    expect(await titles(a)).toEqual(['Brazil', 'Portugal', 'Chile', 'FromB']);
    expect(await a.removeDocuments([brazil.id])).toBe(true);
    expect(await b.addDocuments([{ doc: brazil }], settings)).toBe(false);
    expect(lost).toEqual(['A', 'B']);
    const third = await tab();
    expect(await titles(third)).toEqual(['Portugal', 'Chile', 'FromB']);
  });

  it('records merge: each tab\'s added documents keep their place, a removal removes only its record, a document added again goes last', async () => {
    g.indexedDB = new IDBFactory();
    const a = await tab();
    const b = await tab();
    await a.claim('A');
    await a.addDocuments([{ doc: brazil }], settings);
    // Each tab reads after it claims (as the lab does), so its stamps come after every stored one.
    await b.claim('B');
    await b.load();
    await b.addDocuments([{ doc: portugal }], settings);
    await a.claim('A');
    await a.load();
    await a.addDocuments([{ doc: chile }], settings);
    await b.claim('B');
    await b.load();
    await b.removeDocuments([portugal.id]);
    await b.addDocuments([{ doc: portugal }], settings);
    expect(await titles(await tab())).toEqual(['Brazil', 'Chile', 'Portugal']);
  });

  it('questions are records too: one tab\'s edit and the other\'s deletion and addition all stay', async () => {
    g.indexedDB = new IDBFactory();
    const a = await tab();
    const b = await tab();
    await a.claim('A');
    await a.putQuestions([question('q1', 'Where is Brazil?'), question('q2', 'Where is Chile?')]);
    await b.claim('B');
    await b.load();
    await b.deleteQuestions(['q2']);
    await b.putQuestions([question('q3', 'Where is Portugal?')]);
    await a.claim('A');
    await a.load();
    // An edit keeps the question's place in the set.
    await a.putQuestions([question('q1', 'Where lies Brazil?')]);
    await a.addQuestionRun({ model: 'test', asked: 2, kept: 1, rejected: {} });
    const set = (await (await tab()).loadQuestions())!;
    expect(set.questions.map((q) => [q.id, q.question])).toEqual([
      ['q1', 'Where lies Brazil?'],
      ['q3', 'Where is Portugal?'],
    ]);
    expect(set.runs).toEqual([{ model: 'test', asked: 2, kept: 1, rejected: {} }]);
  });

  it('clear in one tab: the other reads an empty corpus, and a write it had on its way is refused, not replayed', async () => {
    g.indexedDB = new IDBFactory();
    const a = await tab();
    const b = await tab();
    await a.claim('A');
    await a.addDocuments([{ doc: brazil }, { doc: chile }], settings);
    await a.putQuestions([question('q1', 'Where is Brazil?')]);
    await b.claim('B');
    await b.clear();
    expect(await a.addDocuments([{ doc: portugal }], settings)).toBe(false);
    const after = await tab();
    expect(await titles(after)).toEqual([]);
    // The question set is kept with the corpus cleared (its questions say their documents are missing).
    expect((await after.loadQuestions())!.questions.map((q) => q.id)).toEqual(['q1']);
  });

  it('a write that dies part way (a tab crashed, a refused put) leaves no part of it and every earlier record', async () => {
    g.indexedDB = new IDBFactory();
    const a = await tab();
    await a.claim('A');
    await a.addDocuments([{ doc: brazil }], settings);
    let puts = 0;
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      // The third record of the drop fails, after two were queued.
      if (++puts === 3) throw new DOMException('the tab is gone', 'AbortError');
      return put.apply(this, args);
    };
    try {
      expect(await a.addDocuments([{ doc: portugal }, { doc: chile }, { doc: fromB }], settings)).toBe(false);
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    const next = await tab();
    expect(await titles(next)).toEqual(['Brazil']);
    const db = await openDB('rag-context-lab');
    expect((await db.getAllKeys('docs')).length).toBe(1);
    db.close();
  });
});

describe('a database of version 4 opens as records', () => {
  it('its list becomes stamps in the same order, a document no list named goes, and its question set becomes a record per question', async () => {
    g.indexedDB = new IDBFactory();
    const old = await openDB('rag-context-lab', 4, {
      upgrade(db, _o, _n, tx) {
        for (const name of ['docs', 'vectors', 'meta', 'splits', 'lexical', 'semantic', 'vectorPacks']) db.createObjectStore(name);
        db.createObjectStore('docVectors');
        tx.objectStore('docVectors').createIndex('model', 'model');
        tx.objectStore('vectorPacks').createIndex('model', 'model');
        tx.objectStore('vectorPacks').createIndex('doc', 'docIds', { multiEntry: true });
      },
    });
    for (const d of [brazil, portugal, chile]) await old.put('docs', d, d.id);
    await old.put('meta', { ...settings, docIds: [chile.id, brazil.id] }, 'corpus');
    await old.put('meta', { questions: [question('q2', 'Second?'), question('q1', 'First?')], runs: [{ model: 'm', asked: 1, kept: 1, rejected: {} }] }, 'questions');
    old.close();
    const p = await tab();
    const loaded = (await p.load())!;
    expect(loaded.docs.map((d) => d.title)).toEqual(['Chile', 'Brazil']);
    expect(loaded.corpus).toEqual(settings);
    expect(loaded.questions!.questions.map((q) => q.id)).toEqual(['q2', 'q1']);
    expect(loaded.questions!.runs).toHaveLength(1);
    // A document added now goes after them.
    await p.claim('A');
    await p.addDocuments([{ doc: portugal }], settings);
    expect(await titles(p)).toEqual(['Chile', 'Brazil', 'Portugal']);
  });
});
