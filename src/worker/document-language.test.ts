import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../rpc/client';
import { serve } from '../rpc/server';
import { RpcError, type RpcPort } from '../rpc/wire';
import { retrievalParams } from '../core/retrieve/params';
import { Lab } from './lab';
import { labHandlers } from './lab-handlers';
import { LAB_TAG, type ColumnSpec, type InitOptions, type LabApi, type LabEvents } from './protocol';

/** The lab on one end of a MessageChannel, the page's RPC client on the other; BM25 only, storage in fake-indexeddb (as lab.test.ts). */
const g = globalThis as { indexedDB?: unknown };
const original = g.indexedDB;
let channels: MessageChannel[] = [];
afterEach(() => {
  g.indexedDB = original;
  for (const c of channels) {
    c.port1.close();
    c.port2.close();
  }
  channels = [];
});

const OPTIONS: InitOptions = { modelsUrl: 'http://127.0.0.1/models/', ortWasm: { mjs: '', wasm: '' }, threads: 1, pdfWorkerUrl: '', voyWasm: '' };

async function startLab(options: Partial<InitOptions> = {}) {
  const channel = new MessageChannel();
  channels.push(channel);
  const server = serve<LabApi, LabEvents>(channel.port1 as unknown as RpcPort, LAB_TAG, labHandlers(async () => lab));
  const lab = new Lab((s) => server.emit('status', s));
  const client = new RpcClient<LabApi, LabEvents>(channel.port2 as unknown as RpcPort, LAB_TAG);
  const init = await client.request('init', { options: { ...OPTIONS, ...options } }).promise;
  return { client, init };
}

const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text).buffer as ArrayBuffer });
const SENTENCE: ColumnSpec = { id: 'sentence', label: 'Sentence hits', strategy: 'sentence', retriever: 'bm25', rerank: false };

// Notes in English about Turkish names, as a Turkish writer keeps them: detected as English, so "İstanbul'da" is one English term.
const TURKISH = "# Travel notes\n\nWe met the bookseller in İstanbul'da, in a small shop near the old harbour. He had come from Ankara'dan by the night train. He told us about the books he sells to students every summer.";
const HARBOUR = '# Harbour\n\nThe harbour opens at dawn. Fishing boats leave before the ferries.';

describe('setDocumentLanguage: the user changes one document\'s language', () => {
  it('re-indexes that document alone in its language, says it was the user\'s choice, and keeps it across a restart', async () => {
    g.indexedDB = new IDBFactory();
    const { client } = await startLab({ fresh: true });
    const added = await client.request('addFiles', { files: [file('notes.md', TURKISH), file('harbour.md', HARBOUR)] }).promise;
    const [notes, harbour] = added.added;
    expect(notes!.language).toBe('en');
    expect(notes!.languageInfo).toMatchObject({ source: 'detected' });
    const ask = (query: string) => client.request('search', { query, params: retrievalParams({ topK: 3 }), columns: [SENTENCE] }).promise.then((r) => r.columns[0]!.result.blocks.map((b) => b.text));
    expect(await ask('İstanbul')).toEqual([]);

    const status = await client.request('setDocumentLanguage', { docId: notes!.id, language: 'tr' }).promise;
    const changed = status.docs.find((d) => d.id === notes!.id)!;
    expect(changed).toMatchObject({ language: 'tr', languageInfo: { source: 'user' }, sentences: 4 });
    // The other document is as it was.
    expect(status.docs.find((d) => d.id === harbour!.id)).toMatchObject({ language: 'en', sentences: harbour!.sentences });
    // A Turkish query of a Turkish corpus document: the apostrophe's suffix is cut, the word found.
    expect(await ask('İstanbul')).toEqual(["We met the bookseller in İstanbul'da, in a small shop near the old harbour."]);
    // The same choice again changes nothing.
    expect((await client.request('setDocumentLanguage', { docId: notes!.id, language: 'tr' }).promise).docs).toEqual(status.docs);

    const restarted = await startLab();
    expect(restarted.init.status.docs.find((d) => d.id === notes!.id)).toMatchObject({ language: 'tr', languageInfo: { source: 'user' } });
  });

  it('refuses a tag that is not a language, and a document that is gone, by name', async () => {
    g.indexedDB = new IDBFactory();
    const { client } = await startLab({ fresh: true });
    const added = await client.request('addFiles', { files: [file('harbour.md', HARBOUR)] }).promise;
    const fail = (docId: string, language: string) => client.request('setDocumentLanguage', { docId, language }).promise.then(() => null, (e: RpcError) => e.code);
    expect(await fail(added.added[0]!.id, 'not a tag!')).toBe('bad-language');
    expect(await fail('missing', 'ro')).toBe('document-gone');
  });
});
