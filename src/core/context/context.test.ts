import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../segment/tokens';
import { contextKey, ContextStore, EDITED_SOURCE } from './context-store';
import { contextualText } from './contextual-text';
import { CUT_MARK, documentWindow } from './document-window';
import { checkContextPrompt, contextMessages, DEFAULT_CONTEXT_PROMPT } from './prompt';
import { cleanContext, MAX_CONTEXT_TOKENS } from './reply';

/** One token per whitespace-separated word: counts a reader can check by eye. */
const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
const wordList = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `w${from + i}`).join(' ');

describe('the context store', () => {
  it('keys a context by document id, unit kind and character range, and counts per kind', () => {
    const s = new ContextStore();
    const k = contextKey('doc:a', 'leaf', 10, 42);
    expect(k).toBe('leaf:10-42:doc:a');
    expect(s.version()).toBe(0);
    s.set(k, { text: '  About the budget.  ', source: 'model m' });
    s.set(contextKey('doc:a', 'sentence', 10, 20), { text: 'x', source: 'model m', cut: true });
    expect(s.get(k)).toEqual({ text: 'About the budget.', source: 'model m' });
    expect([s.count(), s.count('leaf'), s.count('sentence'), s.count('chunk')]).toEqual([2, 1, 1, 0]);
    expect([s.version('leaf'), s.version('sentence'), s.version()]).toEqual([1, 1, 2]);
    expect(() => s.set(k, { text: ' \n', source: 'm' })).toThrow('a context cannot be empty: remove it instead');
  });

  it('an edit is marked as the user\'s; blank text removes the context', () => {
    const s = new ContextStore();
    const k = contextKey('d', 'chunk', 0, 5);
    s.set(k, { text: 'first', source: 'endpoint http://x model y', cut: true });
    expect(s.edit(k, ' mine ')).toEqual({ text: 'mine', source: EDITED_SOURCE });
    expect(s.get(k)).toEqual({ text: 'mine', source: 'edited by you' });
    expect(s.edit(k, '')).toBeUndefined();
    expect([s.has(k), s.count('chunk'), s.version('chunk')]).toEqual([false, 0, 3]);
  });

  it('drops the contexts of removed documents only', () => {
    const s = new ContextStore();
    s.set(contextKey('a', 'chunk', 0, 5), { text: 'A', source: 'm' });
    s.set(contextKey('b:1', 'chunk', 0, 5), { text: 'B', source: 'm' });
    expect(s.deleteDocuments(['b:1'])).toBe(1);
    expect([...s.entries()].map((e) => [e.doc, e.kind, e.start, e.end, e.context.text])).toEqual([['a', 'chunk', 0, 5, 'A']]);
  });

  it('round-trips through JSON with its runs, and names the first fault of a bad file', () => {
    const s = new ContextStore();
    s.set(contextKey('d', 'packed', 3, 9), { text: 'T', source: 'm', window: true });
    s.recordRun({ kind: 'packed', source: 'm', prompt: 'p', written: 1, failed: 2, cut: 0, cancelled: true, finished: '2024-01-01T00:00:00.000Z' });
    const json = JSON.parse(JSON.stringify(s));
    expect(json).toEqual({
      format: 'rag-lab-contexts',
      version: 1,
      entries: [{ doc: 'd', kind: 'packed', start: 3, end: 9, text: 'T', source: 'm', window: true }],
      runs: [{ kind: 'packed', source: 'm', prompt: 'p', written: 1, failed: 2, cut: 0, cancelled: true, finished: '2024-01-01T00:00:00.000Z' }],
    });
    const back = ContextStore.fromJSON(json);
    expect(back.toJSON()).toEqual(json);
    expect(() => ContextStore.fromJSON({ ...json, entries: [{ ...json.entries[0], text: '' }] })).toThrow(/^the saved contexts are not readable: entries\[0\]\.text: /);
    expect(() => ContextStore.fromJSON({ ...json, entries: [{ ...json.entries[0], kind: 'semantic' }] })).toThrow(/^the saved contexts are not readable: entries\[0\]\.kind: /);
    expect(() => ContextStore.fromJSON({ ...json, entries: [{ ...json.entries[0], end: 3 }] })).toThrow('the saved contexts are not readable: entries[0]: end must be after start');
    expect(() => ContextStore.fromJSON(null)).toThrow(/^the saved contexts are not readable: /);
  });
});

describe('the contextual text', () => {
  it('is header, context, unit, apart by blank lines; without a context the plain embedded text', () => {
    expect(contextualText('H', 'C', 'T')).toBe('H\n\nC\n\nT');
    expect(contextualText('', 'C', 'T')).toBe('C\n\nT');
    expect(contextualText('H', undefined, 'T')).toBe('H\n\nT');
    expect(contextualText('', undefined, 'T')).toBe('T');
  });
});

describe('the context prompt', () => {
  it("follows Anthropic's prompt: the document first, then the chunk, then the request", () => {
    const m = contextMessages(DEFAULT_CONTEXT_PROMPT, { document: 'The whole {chunk} doc.', chunk: 'A chunk.', title: 'T', language: 'pt' });
    expect(m).toEqual([
      {
        role: 'user',
        content:
          '<document>\nThe whole {chunk} doc.\n</document>\nHere is the chunk we want to situate within the whole document\n<chunk>\nA chunk.\n</chunk>\n' +
          'Please give a short succinct context to situate this chunk within the overall document for the purposes of improving search retrieval of the chunk. ' +
          'Answer only with the succinct context and nothing else, in the language of the document (pt).',
      },
    ]);
    // Two units of one document: the same prompt up to the chunk (an endpoint's prompt cache reuses it).
    const a = contextMessages(DEFAULT_CONTEXT_PROMPT, { document: 'D', chunk: 'one', title: 'T', language: 'en' })[0]!.content;
    const b = contextMessages(DEFAULT_CONTEXT_PROMPT, { document: 'D', chunk: 'two', title: 'T', language: 'en' })[0]!.content;
    expect(a.slice(0, a.indexOf('one'))).toBe(b.slice(0, b.indexOf('two')));
  });

  it('says what is wrong with an edited prompt, and warns when the chunk comes first', () => {
    expect(checkContextPrompt(DEFAULT_CONTEXT_PROMPT)).toEqual({ errors: [], warnings: [] });
    expect(checkContextPrompt({ system: '{chunk}', user: 'Situate {chunk} in {doc}.' })).toEqual({
      errors: ['the prompt must contain {document}', 'the prompt has an unknown placeholder {doc} (known: {document}, {chunk}, {title}, {language})', '{chunk} belongs in the user message'],
      warnings: [],
    });
    expect(checkContextPrompt({ system: 'You help search.', user: '{chunk}\n\nin\n\n{document}' })).toEqual({
      errors: [],
      warnings: ['{chunk} comes before {document}: the document can no longer be a shared prompt prefix, so endpoints that cache prompts re-read it for every unit'],
    });
    expect(contextMessages({ system: 'Be brief about {title}.', user: '{document}|{chunk}' }, { document: 'D', chunk: 'C', title: 'T', language: 'en' })).toEqual([
      { role: 'system', content: 'Be brief about T.' },
      { role: 'user', content: 'D|C' },
    ]);
  });
});

describe('the document window', () => {
  const doc = wordList(0, 100);

  it('is the whole document when it fits', () => {
    expect(documentWindow(doc, 190, 193, 100, words)).toEqual({ text: doc, start: 0, end: doc.length, cut: false, tokens: 100 });
  });

  it('cuts a long document to a window on a grid around the unit, marked where text is left out', () => {
    // 30 tokens: 26 for text (2 marks, 2 spare); ~101 characters a window, a grid step of 50.
    const unit = doc.indexOf('w50');
    expect(unit).toBe(190);
    const w = documentWindow(doc, unit, unit + 3, 30, words);
    expect(w).toEqual({ text: `${CUT_MARK} ${wordList(40, 65)} ${CUT_MARK}`, start: 150, end: 250, cut: true, tokens: 27 });
    // Units in the same grid step get the very same window (a shared prompt prefix); the next step another.
    expect(documentWindow(doc, doc.indexOf('w52'), doc.indexOf('w52') + 3, 30, words).text).toBe(w.text);
    // (the grid point 200 falls inside "w52": the window starts at the next word)
    expect(documentWindow(doc, doc.indexOf('w53'), doc.indexOf('w53') + 3, 30, words).start).toBe(doc.indexOf('w53'));
    // At the start: no mark before; at the end: no mark after.
    expect(documentWindow(doc, 0, 2, 30, words).text).toBe(`${wordList(0, 26)} ${CUT_MARK}`);
    const last = documentWindow(doc, doc.indexOf('w99'), doc.length, 30, words);
    expect([last.text.startsWith(CUT_MARK), last.text.endsWith('w99'), last.tokens <= 30]).toEqual([true, true, true]);
  });

  it('never goes over the budget, even where the mean length misjudges the stretch', () => {
    const uneven = `${'a '.repeat(200)}${'longerword '.repeat(20)}`.trim();
    for (let at = 0; at < uneven.length; at += 37) {
      const w = documentWindow(uneven, at, Math.min(uneven.length, at + 1), 40, words);
      expect(w.tokens, `at ${at}`).toBeLessThanOrEqual(40);
    }
  });
});

describe('cleaning a reply into a context', () => {
  it('drops reasoning, labels, fences, emphasis and quotes', () => {
    const ok = (text: string) => ({ ok: true, text, cut: false, tokens: words.count(text) });
    expect(cleanContext("<think>the user wants…</think>\n\nContext: This chunk is from ACME's Q2 2023 report.", words)).toEqual(ok("This chunk is from ACME's Q2 2023 report."));
    expect(cleanContext('"Here is the succinct context: The section on revenue."', words)).toEqual(ok('The section on revenue.'));
    expect(cleanContext('**Context:** From the chapter on\nrivers.', words)).toEqual(ok('From the chapter on rivers.'));
    expect(cleanContext('```\nThe chunk describes X.\n```', words)).toEqual(ok('The chunk describes X.'));
    expect(cleanContext('test model answer: the sources say so [1].', words)).toEqual(ok('test model answer: the sources say so [1].'));
  });

  it('says why a reply holds none', () => {
    expect(cleanContext('   ', words)).toEqual({ ok: false, reason: 'the reply is empty' });
    expect(cleanContext('<think>only thinking', words)).toEqual({ ok: false, reason: 'the reply holds no context (only a label, quotes or reasoning)' });
    expect(cleanContext('Context: ""', words)).toEqual({ ok: false, reason: 'the reply holds no context (only a label, quotes or reasoning)' });
  });

  it(`cuts a context over ${MAX_CONTEXT_TOKENS} tokens at a word, with an ellipsis, and flags it`, () => {
    expect(cleanContext(wordList(0, 200), words)).toEqual({ ok: true, text: `${wordList(0, 119)}…`, cut: true, tokens: 119 });
    expect(cleanContext(wordList(0, 120), words)).toEqual({ ok: true, text: wordList(0, 120), cut: false, tokens: 120 });
    expect(cleanContext('one two, three four', words, 3)).toEqual({ ok: true, text: 'one two…', cut: true, tokens: 2 });
  });
});
