import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import type { ChatMessage } from '../generate/openai';
import type { TokenCounter } from '../segment/tokens';
import { contextKey, ContextStore } from './context-store';
import { contextCalls, contextTargets, generateContexts, planContexts, type ContextCall, type ContextGenerator } from './generate-contexts';
import { promptOverheadChars, DEFAULT_CONTEXT_PROMPT } from './prompt';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

function engine(): RetrievalEngine {
  const e = new RetrievalEngine();
  e.addDocuments([
    documentFromText('Alpha one is here. Alpha two follows. Alpha three ends.', 'a.txt'),
    documentFromText('Beta one starts. Beta two ends.', 'b.txt'),
  ]);
  return e;
}

/** A generator that answers "About <first two words of the chunk>." and records each call. */
function fakeGenerator(reply: (chunk: string, call: number) => string | Error = (c) => `About ${c.split(' ').slice(0, 2).join(' ')}.`): ContextGenerator & { calls: ChatMessage[][] } {
  const calls: ChatMessage[][] = [];
  return {
    calls,
    source: 'model fake (test)',
    contextTokens: 1000,
    counter: words,
    async complete(messages) {
      calls.push(messages);
      const chunk = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(messages[0]!.content)![1]!;
      const r = reply(chunk, calls.length);
      if (r instanceof Error) throw r;
      return r;
    },
  };
}

const chunkOf = (m: ChatMessage[]) => /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(m[0]!.content)![1]!;

describe('planning contexts', () => {
  it('counts calls, documents and tokens before anything is sent, and leaves out units that have one', () => {
    const e = engine();
    const store = new ContextStore();
    const overhead = Math.ceil(promptOverheadChars(DEFAULT_CONTEXT_PROMPT) / 4);
    const plan = planContexts(e, 'sentence', store, { generator: { contextTokens: 1000, counter: words } });
    // Document a: 10 words, three sentences of 4, 3, 3 words; b: 6 words, 3 and 3.
    expect(plan).toEqual({
      kind: 'sentence',
      units: 5,
      have: 0,
      calls: 5,
      documents: 2,
      windowed: 0,
      promptTokens: 3 * (overhead + 10) + 10 + 2 * (overhead + 6) + 6,
      cachedPrefixTokens: 2 * 10 + 1 * 6,
      replyTokens: 5 * 75,
      seconds: Math.round((5 * overhead + 58) / 150 + 375 / 15),
      rate: 'assumed',
      notes: [],
    });
    const t = contextTargets(e, 'sentence', store);
    store.set(t[0]!.key, { text: 'x', source: 'edited by you' });
    expect(planContexts(e, 'sentence', store, { generator: { contextTokens: 1000, counter: words } })).toMatchObject({ have: 1, calls: 4, documents: 2 });
  });

  it('says when documents are longer than the model takes', () => {
    const plan = planContexts(engine(), 'sentence', new ContextStore(), { generator: { contextTokens: Math.ceil(promptOverheadChars(DEFAULT_CONTEXT_PROMPT) / 4) + 4 + 120 + 80 + 32 + 8, counter: words } });
    expect([plan.windowed, plan.notes]).toEqual([1, ["1 document is longer than the model's context (" + (Math.ceil(promptOverheadChars(DEFAULT_CONTEXT_PROMPT) / 4) + 244) + " tokens): each unit of it sees a window of the document around it, marked […] where text is left out"]]);
  });
});

describe('writing contexts', () => {
  it('asks once per unit, document by document, with one shared prompt prefix per document, and stores each', async () => {
    const e = engine();
    const store = new ContextStore();
    const g = fakeGenerator();
    const seen: string[] = [];
    const r = await generateContexts({ units: e, kind: 'sentence', store, generator: g, onContext: (t, c) => seen.push(`${t.id}:${c.text}`) });
    expect(g.calls.map(chunkOf)).toEqual(['Alpha one is here.', 'Alpha two follows.', 'Alpha three ends.', 'Beta one starts.', 'Beta two ends.']);
    const prefix = (m: ChatMessage[]) => m[0]!.content.slice(0, m[0]!.content.indexOf('<chunk>'));
    expect(new Set(g.calls.slice(0, 3).map(prefix)).size).toBe(1);
    expect(prefix(g.calls[3]!)).not.toBe(prefix(g.calls[0]!));
    expect(prefix(g.calls[0]!)).toBe('<document>\nAlpha one is here. Alpha two follows. Alpha three ends.\n</document>\nHere is the chunk we want to situate within the whole document\n');
    expect(seen).toEqual(['0:About Alpha one.', '1:About Alpha two.', '2:About Alpha three.', '3:About Beta one.', '4:About Beta two.']);
    const docA = e.corpus.docs[0]!.id;
    expect(store.get(contextKey(docA, 'sentence', 19, 37))).toEqual({ text: 'About Alpha two.', source: 'model fake (test)' });
    expect(r.progress).toMatchObject({ done: 5, total: 5, written: 5, failed: 0, cut: 0, calls: 5 });
    expect(r.run).toMatchObject({ kind: 'sentence', source: 'model fake (test)', written: 5, failed: 0, cancelled: false });
    expect(store.runs).toHaveLength(1);
  });

  it('runs from calls handed over in batches (the page: units in the worker), keeping contexts where it is told', async () => {
    const e = engine();
    const store = new ContextStore();
    const g = fakeGenerator();
    const kept = new Map<string, string>();
    // The worker's side: the next two calls after the last unit id asked for.
    let after = -1;
    let batch: ContextCall[] = [];
    const total = contextCalls(e, 'sentence', store, { generator: g }).total;
    const calls = {
      total,
      async next() {
        if (!batch.length) {
          const src = contextCalls(e, 'sentence', store, { generator: g, after });
          batch = [src.next(), src.next()].filter((c): c is ContextCall => c !== null);
        }
        const c = batch.shift() ?? null;
        if (c) after = c.target.id;
        return c;
      },
    };
    const r = await generateContexts({ kind: 'sentence', generator: g, calls, has: (k) => kept.has(k), put: (t, c) => void kept.set(t.key, c.text) });
    expect([r.progress.total, r.progress.written, kept.size, store.count()]).toEqual([5, 5, 5, 0]);
    expect(g.calls.map(chunkOf)).toEqual(['Alpha one is here.', 'Alpha two follows.', 'Alpha three ends.', 'Beta one starts.', 'Beta two ends.']);
    await expect(generateContexts({ kind: 'sentence', generator: g })).rejects.toThrow('generateContexts needs the units and a store, or calls');
  });

  it('cancelled halfway keeps what was written; the next run sends only the rest', async () => {
    const e = engine();
    const store = new ContextStore();
    const stop = new AbortController();
    const first = fakeGenerator((c, call) => {
      if (call === 2) stop.abort();
      return `About ${c.split(' ')[1]}.`;
    });
    const r = await generateContexts({ units: e, kind: 'sentence', store, generator: first, signal: stop.signal });
    // The call that was answering when the cancel came is not kept.
    expect([r.cancelled, r.progress.written, store.count('sentence'), first.calls.length]).toEqual([true, 1, 1, 2]);
    expect(store.runs[0]).toMatchObject({ written: 1, cancelled: true });
    const again = fakeGenerator();
    const r2 = await generateContexts({ units: e, kind: 'sentence', store, generator: again });
    expect(again.calls.map(chunkOf)).toEqual(['Alpha two follows.', 'Alpha three ends.', 'Beta one starts.', 'Beta two ends.']);
    expect([r2.cancelled, r2.progress.total, store.count('sentence')]).toEqual([false, 4, 5]);
  });

  it('never re-sends a unit that got a context meanwhile, and waits while paused', async () => {
    const e = engine();
    const store = new ContextStore();
    const targets = contextTargets(e, 'sentence', store);
    let open!: () => void;
    const paused = new Promise<void>((res) => (open = res));
    const g = fakeGenerator();
    const run = generateContexts({ units: e, kind: 'sentence', store, generator: g, gate: () => paused });
    await new Promise((res) => setTimeout(res, 10));
    expect(g.calls).toHaveLength(0);
    store.edit(targets[1]!.key, 'Mine.');
    open();
    const r = await run;
    expect(g.calls.map(chunkOf)).not.toContain('Alpha two follows.');
    expect([r.progress.calls, store.get(targets[1]!.key)!.source]).toEqual([4, 'edited by you']);
  });

  it('says so when every call of a short run failed', async () => {
    const one = new RetrievalEngine();
    one.addDocuments([documentFromText('Only one sentence here.', 'one.txt')]);
    const r = await generateContexts({ units: one, kind: 'sentence', store: new ContextStore(), generator: fakeGenerator(() => new Error('HTTP 401: invalid api key')) });
    expect([r.error, r.run.error]).toEqual(['every call failed: HTTP 401: invalid api key', 'every call failed: HTTP 401: invalid api key']);
  });

  it('stops when the first three calls fail, with the reason, and stores nothing', async () => {
    const store = new ContextStore();
    const g = fakeGenerator(() => new Error('could not reach http://127.0.0.1:9/v1/chat/completions'));
    const r = await generateContexts({ units: engine(), kind: 'sentence', store, generator: g });
    expect(r.error).toBe('the first 3 calls all failed, so the run stopped: could not reach http://127.0.0.1:9/v1/chat/completions');
    expect([g.calls.length, store.count(), r.failed.length, store.runs[0]!.error]).toEqual([3, 0, 3, r.error]);
  });

  it('stops after five failures in a row once it had worked, keeping the contexts written', async () => {
    const big = new RetrievalEngine();
    big.addDocuments([documentFromText(Array.from({ length: 10 }, (_, i) => `Sentence number ${i} is here.`).join(' '), 'c.txt')]);
    const store = new ContextStore();
    const g = fakeGenerator((c, call) => (call <= 2 ? `About ${c}` : new Error('HTTP 500')));
    const r = await generateContexts({ units: big, kind: 'sentence', store, generator: g });
    expect(r.error).toBe('5 calls in a row failed, so the run stopped (the 2 contexts written are kept): HTTP 500');
    expect([g.calls.length, store.count('sentence'), r.progress.failed]).toEqual([7, 2, 5]);
  });

  it('an empty reply is a failed unit that keeps its plain text; a long one is cut and flagged', async () => {
    const store = new ContextStore();
    const long = Array.from({ length: 130 }, (_, i) => `w${i}`).join(' ');
    const g = fakeGenerator((_, call) => (call === 1 ? '<think>hmm</think>' : long));
    const r = await generateContexts({ units: engine(), kind: 'sentence', store, generator: g });
    expect(r.failed).toEqual([{ key: contextTargets(engine(), 'sentence', new ContextStore())[0]!.key, reason: 'the reply holds no context (only a label, quotes or reasoning)' }]);
    expect([r.progress.written, r.progress.cut, store.count(), r.error]).toEqual([4, 4, 4, undefined]);
    const [one] = [...store.entries()];
    expect(one!.context).toEqual({ text: `${Array.from({ length: 119 }, (_, i) => `w${i}`).join(' ')}…`, source: 'model fake (test)', cut: true });
  });
});
