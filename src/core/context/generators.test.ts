import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestGenerator } from '../../../scripts/make-test-lm';
import { startContextMock, type ContextMock } from '../../node/context-mock-server';
import { setupNode } from '../../node/setup';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { hashEmbedder } from '../export/hostile-fixture';
import { LocalGenerator, TEST_GENERATOR_ID } from '../generate/local';
import { ContextStore } from './context-store';
import { generateContexts, planContexts } from './generate-contexts';
import { endpointContextGenerator, localContextGenerator } from './generators';

const DOCS = [
  documentFromText('The hangar was built in 1929. It housed the largest airship of its time. Crowds came to watch it land.', 'hangar.txt'),
  documentFromText('Stars differ in brightness. Some distant objects outshine whole galaxies.', 'sky.txt'),
];

function engine(): RetrievalEngine {
  const e = new RetrievalEngine({ embedder: hashEmbedder() });
  e.addDocuments(DOCS);
  return e;
}

describe('contexts written by the TEST generator (transformers.js, in Node)', () => {
  let gen: LocalGenerator;
  beforeAll(async () => {
    ensureTestGenerator();
    setupNode();
    gen = await LocalGenerator.load({ model: TEST_GENERATOR_ID });
  });
  afterAll(async () => {
    await gen?.dispose();
  });

  it('writes, is used by the column, is cancelled halfway and resumes with the rest only', async () => {
    const e = engine();
    await e.embedUnits('sentence');
    const g = localContextGenerator(gen);
    expect([g.source, g.contextTokens]).toEqual(['model rag-lab/test-generator (test model)', 2048]);
    const plan = planContexts(e, 'sentence', e.contexts.store, { generator: g });
    expect([plan.calls, plan.documents, plan.windowed]).toEqual([5, 2, 0]);
    const stop = new AbortController();
    const first = await generateContexts({ units: e, kind: 'sentence', store: e.contexts.store, generator: g, signal: stop.signal, onContext: () => e.contexts.store.count() === 2 && stop.abort() });
    expect([first.cancelled, first.progress.written, e.contexts.store.count('sentence')]).toEqual([true, 2, 2]);
    // The column meanwhile: two units with their context, the rest plain, and it says so.
    await e.contexts.embed('sentence');
    const [r] = await e.search('test model answer sources', ['contextual'], { retriever: 'hybrid', topK: 5, contextual: { unit: 'sentence' } });
    expect(r!.notes).toEqual(['contexts cover 2 of 5 sentences: the other 3 are retrieved by their plain text']);
    const withContext = r!.blocks.filter((b) => b.context);
    expect(withContext.map((b) => [b.text, b.context])).toEqual([
      ['The hangar was built in 1929.', { text: 'test model answer: the sources say so [1].', source: 'model rag-lab/test-generator (test model)' }],
      ['It housed the largest airship of its time.', { text: 'test model answer: the sources say so [1].', source: 'model rag-lab/test-generator (test model)' }],
    ]);
    // BM25 ranks the two units whose context holds the query's words first.
    expect(r!.blocks.slice(0, 2).every((b) => b.context)).toBe(true);
    const second = await generateContexts({ units: e, kind: 'sentence', store: e.contexts.store, generator: g });
    expect([second.cancelled, second.progress.total, second.progress.written, e.contexts.store.count('sentence')]).toEqual([false, 3, 3, 5]);
    expect(e.contexts.store.runs.map((x) => [x.written, x.cancelled])).toEqual([
      [2, true],
      [3, false],
    ]);
  });
});

describe('contexts written by an OpenAI-compatible endpoint (a mock on 127.0.0.1)', () => {
  let mock: ContextMock;
  beforeAll(async () => {
    mock = await startContextMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  it('sends each unit once with its document first, so one document\'s calls share their prompt prefix', async () => {
    const e = engine();
    const store = new ContextStore();
    mock.requests.length = 0;
    const g = endpointContextGenerator({ baseUrl: `${mock.url}/v1`, model: 'ctx' });
    expect(g.source).toBe(`endpoint ${mock.url}/v1/chat/completions model ctx`);
    const r = await generateContexts({ units: e, kind: 'leaf', store, generator: g });
    expect([r.error, r.progress.written, store.count('leaf')]).toEqual([undefined, e.unitCount('leaf'), e.unitCount('leaf')]);
    expect(mock.requests).toHaveLength(e.unitCount('leaf'));
    const [first] = [...store.entries()];
    expect(first!.context.text).toBe('this part of "The hangar was built" is about airship, largest, crowds.');
    // Every call after a document's first repeats its prompt up to the chunk: what a prompt cache reuses.
    const sends = mock.requests.map((q) => q.messages[0]!.content);
    const docOf = (s: string) => s.slice(0, s.indexOf('</document>'));
    const repeats = sends.map((s, i) => (i > 0 && docOf(sends[i - 1]!) === docOf(s) ? sends[i - 1]!.slice(0, s.indexOf('<chunk>')) === s.slice(0, s.indexOf('<chunk>')) : null)).filter((x) => x !== null);
    expect(repeats).toEqual(Array(e.unitCount('leaf') - 2).fill(true));
    expect(mock.requests.every((q) => q.body?.temperature === 0)).toBe(true);
  });

  it('an endpoint that refuses stops the run after three calls, naming the reason; nothing is stored', async () => {
    const store = new ContextStore();
    mock.requests.length = 0;
    const r = await generateContexts({ units: engine(), kind: 'sentence', store, generator: endpointContextGenerator({ baseUrl: mock.url, model: 'refuse' }) });
    expect(r.error).toMatch(/^the first 3 calls all failed, so the run stopped: .*401/);
    expect([mock.requests.length, store.count()]).toEqual([3, 0]);
  });

  it('a server that goes away mid-run leaves the contexts written and the rest plain, and a new run fills the rest', async () => {
    const failing = await startContextMock({ failFrom: 2 });
    const e = new RetrievalEngine({ embedder: hashEmbedder() });
    e.addDocuments([documentFromText(Array.from({ length: 9 }, (_, i) => `Line ${i} of the log.`).join(' '), 'log.txt')]);
    try {
      const r = await generateContexts({ units: e, kind: 'sentence', store: e.contexts.store, generator: endpointContextGenerator({ baseUrl: failing.url, model: 'ctx' }, { retries: 0 }) });
      expect(r.error).toMatch(/^5 calls in a row failed, so the run stopped \(the 2 contexts written are kept\): .*500/);
      expect([failing.requests.length, e.contexts.store.count('sentence'), e.contexts.coverage('sentence')]).toEqual([7, 2, { written: 2, embedded: 0, total: 9 }]);
    } finally {
      await failing.close();
    }
    mock.requests.length = 0;
    const again = await generateContexts({ units: e, kind: 'sentence', store: e.contexts.store, generator: endpointContextGenerator({ baseUrl: mock.url, model: 'ctx' }) });
    expect([again.progress.total, mock.requests.length, e.contexts.store.count('sentence')]).toEqual([7, 7, 9]);
  });
});
