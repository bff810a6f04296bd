import { describe, expect, it, vi } from 'vitest';
import { RpcError } from '../rpc/wire';
import { retrievalParams } from '../core/retrieve/params';
import { file, labHarness } from './lab-harness';
import type { ColumnSpec } from './protocol';

/** The lab as the page sees it (src/worker/lab-harness.ts), BM25 only. */
const { startLab, freshStorage } = labHarness();


const TEA = '# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation. Oolong sits between the two.';
const SENTENCE: ColumnSpec = { id: 'sentence', label: 'Sentence hits', strategy: 'sentence', retriever: 'bm25', rerank: false };
const FUSION: ColumnSpec = { id: 'fusion', label: 'Query fusion', strategy: 'window', retriever: 'bm25', rerank: false, fusion: true };

describe('the lab worker, through its RPC', () => {
  it('after a reload, a document whose stored text cannot be read is left out and named, until its file is dropped again', async () => {
    freshStorage();
    const long = (title: string, line: string) => `# ${title}\n\n${`${line} `.repeat(60)}`;
    const harbour = file('harbour.md', long('Harbour', 'The harbour opens at dawn and the boats leave before six.'));
    const first = await startLab({ fresh: true });
    await first.client.request('addFiles', { files: [file('tea.md', long('Tea', 'Black tea is fully oxidised before drying.')), harbour] }).promise;
    const text = Blob.prototype.text;
    const spy = vi.spyOn(Blob.prototype, 'text').mockImplementation(async function (this: Blob) {
      const t = await text.call(this);
      if (t.includes('The harbour opens at dawn')) throw new DOMException('gone', 'NotReadableError');
      return t;
    });
    const again = await startLab({});
    spy.mockRestore();
    expect(again.init.status.docs.map((d) => d.title)).toEqual(['Tea']);
    expect(again.init.status.persistence.lost).toEqual(['Harbour']);
    await again.client.request('addFiles', { files: [harbour] }).promise;
    await again.until((s) => s.docs.map((d) => d.title).join() === 'Tea,Harbour');
    expect(again.latest().persistence.lost).toBeUndefined();
  });

  it('indexes, searches and answers with views of the blocks', async () => {
    freshStorage();
    const { client, statuses } = await startLab({ fresh: true });
    const seen: string[] = [];
    const added = await client.request('addFiles', { files: [file('tea.md', TEA), file('tea-copy.md', TEA)] }, { onProgress: (p) => seen.push(`${p.file}:${p.stage}`) }).promise;
    expect(added.added.map((d) => d.fileName)).toEqual(['tea.md']);
    expect(added.duplicates).toEqual(['tea-copy.md']);
    expect(seen).toEqual(['tea.md:parse', 'tea.md:split', 'tea.md:done', 'tea-copy.md:parse', 'tea-copy.md:split', 'tea-copy.md:duplicate']);
    // The heading is a sentence too.
    expect(statuses.at(-1)!.docs.map((d) => d.sentences)).toEqual([4]);

    const r = await client.request('search', { query: 'how is black tea oxidised', params: retrievalParams({ topK: 2 }), columns: [SENTENCE] }).promise;
    const [first] = r.columns[0]!.result.blocks;
    expect(first!.text).toBe('Black tea is fully oxidised before drying.');
    expect(first!.docTitle).toBe('Tea');
    expect(first!.hitSpans).toEqual([[0, first!.text.length]]);
  });

  it('the columns the page shows come first, in a message of their own; the answer holds the others', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    const WINDOW: ColumnSpec = { id: 'window', label: 'Sentence window', strategy: 'window', retriever: 'bm25', rerank: false };
    const NAIVE: ColumnSpec = { id: 'naive', label: 'Naive chunks', strategy: 'naive', retriever: 'bm25', rerank: false };
    const ask = { query: 'green tea', params: retrievalParams({ topK: 2 }), columns: [SENTENCE, WINDOW, NAIVE] };
    const whole = await client.request('search', ask).promise;
    const firsts: typeof whole.columns[] = [];
    const split = await client.request('search', { ...ask, first: ['window', 'naive'] }, { onProgress: (p) => firsts.push(p.columns) }).promise;
    // Each answer has a number of its own (sent-answers.ts); the rest is the same.
    const unnumbered = (cs: typeof whole.columns) => cs.map(({ answer: _, ...c }) => c);
    expect(firsts.map(unnumbered)).toEqual([unnumbered(whole.columns.slice(1))]);
    expect(split.columns.map((c) => c.column.id)).toEqual(['sentence']);
    expect(split.columns[0]!.result).toEqual(whole.columns[0]!.result);
    // Every column in sight (or none): one answer, as before.
    const none: unknown[] = [];
    const all = await client.request('search', { ...ask, first: ['sentence', 'window', 'naive'] }, { onProgress: (p) => none.push(p) }).promise;
    expect(none).toEqual([]);
    expect(all.columns.map((c) => c.column.id)).toEqual(['sentence', 'window', 'naive']);
  });

  it('a column that answers exactly as the one the page holds is named `same`, not sent again', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    const WINDOW: ColumnSpec = { id: 'window', label: 'Sentence window', strategy: 'window', retriever: 'bm25', rerank: false };
    const ask = (before: number, held?: Partial<Record<'sentence' | 'window', number>>) =>
      client.request('search', { query: 'green tea', params: retrievalParams({ topK: 1, window: { before, after: 0, bySection: false } }), columns: [SENTENCE, WINDOW], ...(held ? { held } : {}) }).promise;
    const a = await ask(0);
    expect(a.same).toBeUndefined();
    const [sentence, window] = a.columns;
    expect(sentence!.answer).toEqual(expect.any(Number));
    const held = { sentence: sentence!.answer!, window: window!.answer! };
    // A window-size step changes only the window column: the sentence column is not sent again.
    const b = await ask(1, held);
    expect(b.same).toEqual(['sentence']);
    expect(b.columns.map((c) => c.column.id)).toEqual(['window']);
    expect(b.columns[0]!.result.blocks[0]!.text).toBe('Black tea is fully oxidised before drying. Green tea is steamed to stop oxidation.');
    expect(b.columns[0]!.answer).not.toBe(window!.answer);
    // Back to the first value: the window column equals what the page held before, but the page now holds the newer one.
    const c = await ask(0, { sentence: held.sentence, window: b.columns[0]!.answer! });
    expect(c.same).toEqual(['sentence']);
    expect(c.columns[0]!.result).toEqual(window!.result);
    // Without `held`, or naming a number the worker did not send last, every column comes whole.
    expect((await ask(0)).same).toBeUndefined();
    expect((await ask(0, { sentence: held.sentence + 1000 })).columns.map((c) => c.column.id)).toEqual(['sentence', 'window']);
    // A new document changes the answer: the column comes whole even though the page names its last number.
    const d = await ask(0);
    await client.request('addText', { name: 'Pasted text 2', text: 'Green tea green tea: green tea is the greenest tea.' }).promise;
    const e = await ask(0, { sentence: d.columns[0]!.answer!, window: d.columns[1]!.answer! });
    expect(e.same).toBeUndefined();
    expect(e.columns[0]!.result.blocks[0]!.text).toBe('Green tea green tea: green tea is the greenest tea.');
  });

  it('a new analyzer or BM25 variant rebuilds only the lexical index: the next search scores with it', async () => {
    freshStorage();
    const { client, statuses } = await startLab({ fresh: true });
    await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    const ask = async () => (await client.request('search', { query: 'steaming green teas', params: retrievalParams({ topK: 1 }), columns: [SENTENCE] }).promise).columns[0]!.result.blocks;
    // Plain words: only "green" matches; stemmed, "steaming" and "teas" match too.
    const structure = statuses.at(-1)!.structure;
    // The default is stemmed Lucene BM25 without stop words: start from plain words (BM25+).
    expect(structure.lexical).toEqual({ analyzer: 'stem+stop', bm25: 'lucene' });
    await client.request('setStructure', { structure: { ...structure, lexical: { analyzer: 'words', bm25: 'bm25plus' } } }).promise;
    const before = await ask();
    expect(before[0]!.provenance.lexical).toMatch(/words/);
    await client.request('setStructure', { structure: { ...structure, lexical: { analyzer: 'stem', bm25: 'lucene' } } }).promise;
    const after = await ask();
    expect(after[0]!.text).toBe('Green tea is steamed to stop oxidation.');
    expect(after[0]!.provenance.lexical).toMatch(/Lucene BM25 · stem/);
    expect(after[0]!.score).not.toBe(before[0]!.score);
  });

  it('answers with codes, not sentences: fusion without variants, the map without vectors, lost documents', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    const r = await client.request('search', { query: 'green tea', params: retrievalParams(), columns: [FUSION] }).promise;
    expect(r.columns[0]!.result.notices).toEqual([{ code: 'fusion-needs-generator' }]);
    expect(r.columns[0]!.result.blocks).toEqual([]);
    const repeated = await client.request('search', { query: 'green tea', params: retrievalParams(), columns: [FUSION], rewrite: { transform: 'multiquery', rewrite: { kind: 'multiquery', variants: ['Green  tea?'] }, tools: [] } }).promise;
    expect(repeated.columns[0]!.result.notices).toEqual([{ code: 'fusion-repeats-question' }]);
    expect(repeated.columns[0]!.result.blocks.length).toBeGreaterThan(0);
    // Sub-questions: each retrieved by its tool, the blocks saying which found them.
    const subs = await client.request('search', {
      query: 'green tea and oolong',
      params: retrievalParams(),
      columns: [FUSION],
      rewrite: { transform: 'subquestions', rewrite: { kind: 'subquestions', subquestions: [{ question: 'green tea?', tool: 'kw' }, { question: 'oolong?', tool: 'kw' }] }, tools: [{ name: 'kw', retriever: 'bm25', description: 'words' }] },
    }).promise;
    expect(subs.columns[0]!.result.queries).toEqual([
      { text: 'green tea?', role: 'sub', retriever: 'bm25', tool: 'kw' },
      { text: 'oolong?', role: 'sub', retriever: 'bm25', tool: 'kw' },
    ]);
    expect(subs.columns[0]!.result.blocks.every((b) => b.foundBy!.length > 0)).toBe(true);

    expect(await client.request('projection', { method: 'pca' }).promise).toEqual({ state: 'unavailable', reason: { code: 'no-embedder' } });
    expect(await client.request('mapQuery', { method: 'pca', query: 'tea' }).promise).toEqual({ key: '', xy: null, how: null });
    const gone = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);
    expect(await gone(client.request('getDocument', { docId: 'nope' }).promise)).toMatchObject({ code: 'document-gone' });
    expect(await gone(client.request('mapPoint', { index: 999, query: '' }).promise)).toMatchObject({ code: 'sentence-gone' });
    const noSet = await gone(client.request('evalQuestion', { questionId: 'q1', points: [] }).promise);
    expect(noSet).toBeInstanceOf(RpcError);
    expect(noSet).toMatchObject({ code: 'no-eval-set' });
  });

  it('a search does not wait behind indexing, and a cancel stops indexing with the files done kept', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    const files = Array.from({ length: 40 }, (_, i) => file(`note-${i}.txt`, `Note ${i} is about the harbour number h${i}x and its ${i} boats.`));
    const order: string[] = [];
    const adding = client.request('addFiles', { files });
    const indexing = adding.promise.then((r) => (order.push('addFiles'), r));
    const search = client.request('search', { query: 'black tea', params: retrievalParams(), columns: [SENTENCE] }).promise.then((r) => (order.push('search'), r));
    await search;
    expect(await adding.cancel()).toBe(true);
    const r = await indexing;
    expect(order).toEqual(['search', 'addFiles']);
    expect(r.cancelled).toBe(true);
    expect(r.added.length).toBeGreaterThan(0);
    expect(r.added.length).toBeLessThan(40);
    const status = await client.request('setEmbedding', { running: true }).promise;
    expect(status.docs).toHaveLength(1 + r.added.length);
    expect(await adding.cancel()).toBe(false);
  });

  it('a pause is answered at once, not after the files being added', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    const files = Array.from({ length: 40 }, (_, i) => file(`note-${i}.txt`, `Note ${i} is about the harbour number h${i}x and its ${i} boats.`));
    const order: string[] = [];
    const adding = client.request('addFiles', { files }).promise.then((r) => (order.push('addFiles'), r));
    const paused = await client.request('setEmbedding', { running: false }).promise.then((s) => (order.push('setEmbedding'), s));
    const added = await adding;
    expect(order).toEqual(['setEmbedding', 'addFiles']);
    expect(paused.embedding.paused).toBe(true);
    expect(added.added).toHaveLength(40);
  });

  it('a new lab restores the stored corpus; removing and clearing replace the engine', async () => {
    freshStorage();
    const first = await startLab({ fresh: true });
    await first.client.request('addFiles', { files: [file('tea.md', TEA), file('harbour.txt', 'The harbour opens at dawn.')] }).promise;
    const second = await startLab();
    expect(second.init.status.restored).toBe(true);
    expect(second.init.status.docs.map((d) => d.fileName)).toEqual(['tea.md', 'harbour.txt']);
    const teaId = second.init.status.docs[0]!.id;
    const after = await second.client.request('removeDocument', { docId: teaId }).promise;
    expect(after.docs.map((d) => d.fileName)).toEqual(['harbour.txt']);
    const r = await second.client.request('search', { query: 'black tea', params: retrievalParams(), columns: [SENTENCE] }).promise;
    expect(r.columns[0]!.result.blocks.every((b) => b.docTitle !== 'Tea')).toBe(true);
    const withContext = await second.client.request('setDocumentContext', { docId: after.docs[0]!.id, context: { title: '  Port  notes ', by: 'user' } }).promise;
    expect(withContext.docs[0]!.context).toEqual({ title: 'Port notes', by: 'user' });
    expect((await second.client.request('clear', {}).promise).docs).toEqual([]);
  });
});

describe('bundles, through the lab RPC', () => {
  const HARBOUR = '# Harbour\n\nThe harbour opens at dawn. Fishing boats leave before the ferries. The lighthouse keeper logs every ship.';
  const ask = (client: Awaited<ReturnType<typeof startLab>>['client'], query: string) =>
    client.request('search', { query, params: retrievalParams({ topK: 3 }), columns: [SENTENCE] }).promise.then((r) => r.columns[0]!.result.blocks.map((b) => `${b.docTitle}: ${b.text}`));

  it('exports the corpus as a zip, and a fresh lab imports it: the same documents, the same blocks, kept across a restart', async () => {
    freshStorage();
    const first = await startLab({ fresh: true });
    await first.client.request('addFiles', { files: [file('tea.md', TEA), file('harbour.md', HARBOUR)] }).promise;
    const phases: string[] = [];
    const exported = await first.client.request(
      'exportBundle',
      { strategy: 'window', params: retrievalParams({ retriever: 'bm25' }), questions: { source: 'typed', questions: ['When does the harbour open?', '  ', 'When does the harbour open?', 'green tea'] } },
      { onProgress: (p) => phases.push(p.phase) },
    ).promise;
    expect(exported.zip).toBeInstanceOf(Blob);
    expect(exported.zip.size).toBeGreaterThan(1000);
    expect([...new Set(phases)]).toEqual(['export', 'zip']);
    // Blank and repeated lines are dropped; without vectors, the golden run is BM25's four SQL strategies.
    expect(exported).toMatchObject({ documents: 2, questions: 2, runs: 4, strategy: 'window', retriever: 'bm25', vectorKinds: [], model: null });
    expect(exported.targets.some((t) => t.status === 'generated only')).toBe(true);
    const before = await ask(first.client, 'When does the harbour open?');
    expect(before[0]).toBe('Harbour: The harbour opens at dawn.');

    freshStorage();
    const second = await startLab({ fresh: true });
    const zip = await exported.zip.arrayBuffer();
    const imported = await second.client.request('importBundle', { name: 'bundle.zip', zip }, { transfer: [zip] }).promise;
    expect(imported).toMatchObject({ added: ['Tea', 'Harbour'], duplicates: [], strategy: 'window', retriever: 'bm25', model: null });
    expect(imported.status.docs.map((d) => d.fileName)).toEqual(['tea.md', 'harbour.md']);
    expect(await ask(second.client, 'When does the harbour open?')).toEqual(before);

    // Stored like indexed documents: a restarted lab finds them.
    const third = await startLab();
    expect(third.init.status.docs.map((d) => d.fileName)).toEqual(['tea.md', 'harbour.md']);
  });

  it('refuses a damaged zip, a zip without a manifest and an empty corpus, with the corpus unchanged', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as RpcError);
    expect(await refusal(client.request('exportBundle', { strategy: 'window', params: retrievalParams(), questions: { source: 'typed', questions: [] } }).promise)).toMatchObject({ code: 'export-empty' });
    expect(await refusal(client.request('exportBundle', { strategy: 'window', params: retrievalParams(), questions: { source: 'eval-set', limit: 5 } }).promise)).toMatchObject({
      code: 'export-empty',
    });
    await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    expect(await refusal(client.request('exportBundle', { strategy: 'window', params: retrievalParams(), questions: { source: 'eval-set', limit: 5 } }).promise)).toMatchObject({ code: 'no-eval-set' });
    const { zip } = await client.request('exportBundle', { strategy: 'sentence', params: retrievalParams({ retriever: 'bm25' }), questions: { source: 'typed', questions: ['green tea'] } }).promise;
    const bytes = new Uint8Array(await zip.arrayBuffer());

    const cut = await refusal(client.request('importBundle', { name: 'cut.zip', zip: bytes.slice(0, bytes.length >> 1).buffer }).promise);
    expect(cut).toMatchObject({ code: 'bundle-refused' });
    expect((cut!.data as { message: string }).message).toMatch(/^the zip cannot be read: it is (truncated|corrupt)/);
    const { zipSync } = await import('fflate');
    const notBundle = await refusal(client.request('importBundle', { name: 'notes.zip', zip: zipSync({ 'notes.txt': new TextEncoder().encode('hi') }).buffer }).promise);
    expect(notBundle).toMatchObject({ code: 'bundle-refused', data: { message: 'not a RAG Context Lab bundle: the zip holds no manifest.json' } });
    // The same bundle again: every document is already there, nothing is added twice.
    const again = await client.request('importBundle', { name: 'again.zip', zip: bytes.slice().buffer }).promise;
    expect(again.added).toEqual([]);
    expect(again.duplicates).toEqual(['Tea']);
    expect(again.status.docs).toHaveLength(1);
  });

  /** A bundle of TEA and HARBOUR as the lab exports it (zip bytes). */
  async function teaHarbourZip(): Promise<Uint8Array> {
    freshStorage();
    const maker = await startLab({ fresh: true });
    await maker.client.request('addFiles', { files: [file('tea.md', TEA), file('harbour.md', HARBOUR)] }).promise;
    const { zip } = await maker.client.request('exportBundle', { strategy: 'window', params: retrievalParams({ retriever: 'bm25' }), questions: { source: 'typed', questions: ['green tea'] } }).promise;
    return new Uint8Array(await zip.arrayBuffer());
  }
  const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as RpcError);
  const OPEN = '# Open\n\nThe open corpus mentions the word quokka.';

  it('a bundle too large for the tab is refused from its manifest alone, before any table is read; nothing is lost; "load anyway" loads it', async () => {
    const bytes = await teaHarbourZip();
    const { unzipSync, zipSync } = await import('fflate');
    // The manifest alone: an import that read a table would fail on the missing file instead.
    const manifestOnly = zipSync({ 'manifest.json': unzipSync(bytes)['manifest.json']! });
    freshStorage();
    const { client } = await startLab({ fresh: true, memory: { overrideBytes: 1_000 } });
    await client.request('addText', { name: 'Pasted text 1', text: OPEN }).promise;
    const before = await ask(client, 'quokka');
    // As bytes, and as the dropped File (a Blob: its manifest is read first, alone).
    for (const zip of [manifestOnly.slice().buffer, bytes.slice().buffer, new Blob([manifestOnly])]) {
      const refused = await failure(client.request('importBundle', { name: 'big.zip', zip }).promise);
      expect(refused).toMatchObject({ code: 'load-refused', cancelled: false, data: { file: 'big.zip', source: 'bundle', sentences: 8, vectorKinds: [], limit: 'budget', budget: { bytes: 1_000, basis: 'override' } } });
      const data = refused!.data as { needBytes: number; heldBytes: number };
      expect(data.heldBytes + data.needBytes).toBeGreaterThan(1_000);
    }
    expect(await ask(client, 'quokka')).toEqual(before);
    // Nothing was stored of it: a restarted lab has the open corpus and no unfinished import.
    const restarted = await startLab({ memory: { overrideBytes: 1_000 } });
    expect(restarted.init.status.docs.map((d) => d.title)).toEqual(['Open']);
    expect(restarted.init.status.unfinishedImport).toBeUndefined();
    // Loaded anyway, on purpose.
    const forced = await restarted.client.request('importBundle', { name: 'big.zip', zip: bytes.slice().buffer, force: true }).promise;
    expect(forced.status.docs.map((d) => d.title)).toEqual(['Open', 'Tea', 'Harbour']);
  });

  it('a dropped file too large for the tab is refused alone, by its estimate from its size; the others of the drop go in', async () => {
    freshStorage();
    // 20,000 bytes of text: about 200 sentences, ~152 kB in the engine; the small note: one sentence.
    const { client } = await startLab({ fresh: true, memory: { overrideBytes: 100_000 } });
    const big = file('big.txt', 'The harbour logbook lists ships and tides. '.repeat(465));
    const r = await client.request('addFiles', { files: [big, file('small.txt', 'Quokkas live on Rottnest Island.')] }).promise;
    expect(r.added.map((d) => d.fileName)).toEqual(['small.txt']);
    expect(r.errors).toMatchObject([{ file: 'big.txt', problem: { code: 'too-large', refusal: { file: 'big.txt', source: 'document', fileBytes: 19_995, sentences: 200, vectorKinds: [], limit: 'budget' } } }]);
    const forced = await client.request('addFiles', { files: [file('big.txt', 'The harbour logbook lists ships and tides. '.repeat(465))], force: true }).promise;
    expect(forced.added.map((d) => d.fileName)).toEqual(['big.txt']);
  });

  it('a cancelled import stops in the worker and leaves the corpus and its storage as before: no half-stored import, no notice', async () => {
    const bytes = await teaHarbourZip();
    freshStorage();
    // #faults: a bundle named __slow__ has every table read held back until it is cancelled.
    const { client } = await startLab({ fresh: true, faults: true });
    await client.request('addText', { name: 'Pasted text 1', text: OPEN }).promise;
    const before = await ask(client, 'harbour quokka');
    let reading!: () => void;
    const read = new Promise<void>((r) => (reading = r));
    const importing = client.request('importBundle', { name: '__slow__.zip', zip: bytes.slice().buffer }, { onProgress: (p) => p.phase === 'read' && reading() });
    await read;
    expect(await importing.cancel()).toBe(true);
    const cancelled = await failure(importing.promise);
    expect(cancelled).toMatchObject({ cancelled: true });
    expect(await ask(client, 'harbour quokka')).toEqual(before);
    // Cancelled while it waited behind another request: it never starts.
    const queued = client.request('importBundle', { name: 'queued.zip', zip: bytes.slice().buffer });
    const adding = client.request('addText', { name: 'Pasted text 2', text: HARBOUR });
    void queued.cancel();
    expect(await failure(queued.promise)).toMatchObject({ cancelled: true });
    await adding.promise;
    const restarted = await startLab();
    expect(restarted.init.status.docs.map((d) => d.title)).toEqual(['Open', 'Harbour']);
    expect(restarted.init.status.unfinishedImport).toBeUndefined();
  });
});

