import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/wire';
import { retrievalParams } from '../core/retrieve/params';
import { file, labHarness } from './lab-harness';
import type { ColumnSpec } from './protocol';

/** The lab on one end of a MessageChannel, the page's RPC client on the other; BM25 only, storage in fake-indexeddb (as lab.test.ts). */
const { startLab, freshStorage } = labHarness();

const SENTENCE: ColumnSpec = { id: 'sentence', label: 'Sentence hits', strategy: 'sentence', retriever: 'bm25', rerank: false };

// Notes in English about Turkish names, as a Turkish writer keeps them: detected as English, so "İstanbul'da" is one English term.
const TURKISH = "# Travel notes\n\nWe met the bookseller in İstanbul'da, in a small shop near the old harbour. He had come from Ankara'dan by the night train. He told us about the books he sells to students every summer.";
const HARBOUR = '# Harbour\n\nThe harbour opens at dawn. Fishing boats leave before the ferries.';

describe('setDocumentLanguage: the user changes one document\'s language', () => {
  it('re-indexes that document alone in its language, says it was the user\'s choice, and keeps it across a restart', async () => {
    freshStorage();
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
    freshStorage();
    const { client } = await startLab({ fresh: true });
    const added = await client.request('addFiles', { files: [file('harbour.md', HARBOUR)] }).promise;
    const fail = (docId: string, language: string) => client.request('setDocumentLanguage', { docId, language }).promise.then(() => null, (e: RpcError) => e.code);
    expect(await fail(added.added[0]!.id, 'not a tag!')).toBe('bad-language');
    expect(await fail('missing', 'ro')).toBe('document-gone');
  });
});
