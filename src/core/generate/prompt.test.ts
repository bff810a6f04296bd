import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../segment/tokens';
import { citedSources, parseCitations } from './citations';
import { assemblePrompt, DEFAULT_INSTRUCTIONS, sourceLabel, type PromptBlock } from './prompt';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
const block = (id: string, text: string, extra: Partial<PromptBlock> = {}): PromptBlock => ({ id, text, docTitle: 'Manual', sectionPath: ['Manual', 'Setup'], ...extra });

describe('prompt assembly', () => {
  it('numbers the sources in rank order, with labels and headers, and puts the question last', () => {
    const p = assemblePrompt(
      'How do I install it?',
      [block('a', 'Run the installer.', { header: "Document context: the following excerpt is from a document titled 'Manual'.", pageStart: 3 }), block('b', 'Restart after.', { sectionPath: [], pageStart: 4, pageEnd: 5 })],
      { contextTokens: 1000, answerTokens: 100, counter: words },
    );
    expect(p.system).toBe(DEFAULT_INSTRUCTIONS);
    expect(p.user).toBe(
      "Sources:\n\n[1] Manual › Setup · p. 3\nDocument context: the following excerpt is from a document titled 'Manual'.\nRun the installer.\n\n[2] Manual · pp. 4–5\nRestart after.\n\nQuestion: How do I install it?",
    );
    expect(p.sources.map((s) => [s.n, s.blockId, s.label])).toEqual([
      [1, 'a', 'Manual › Setup · p. 3'],
      [2, 'b', 'Manual · pp. 4–5'],
    ]);
    expect(p.left).toEqual([]);
  });

  it('keeps within L − |C|: blocks that do not fit are left out, smaller later ones still go in', () => {
    const system = 'Answer.'; // 1 word
    const q = 'Why?'; // "Question: Why?" = 2 words
    // C = 1 + 2 + answer 10 = 13; L = 30 → 17 words of sources.
    // Entry "[n] Manual › Setup\n<text>\n\n" = 4 words + text words.
    const blocks = [block('a', 'one two three four five six'), block('b', 'x '.repeat(20).trim()), block('c', 'seven eight')];
    const p = assemblePrompt(q, blocks, { contextTokens: 30, answerTokens: 10, counter: words, instructions: system });
    expect(p.fixedTokens).toBe(13);
    expect(p.sources.map((s) => [s.blockId, s.tokens])).toEqual([
      ['a', 10],
      ['c', 6],
    ]);
    expect(p.left).toEqual(['b']);
    // Source numbers stay consecutive even though b was skipped.
    expect(p.user).toContain('[2] Manual › Setup\nseven eight');
    expect(p.promptTokens).toBeLessThanOrEqual(30 - 10);
  });

  it('without room for any block it says there are no sources; without room for the question it throws', () => {
    const p = assemblePrompt('Why?', [block('a', 'one two three')], { contextTokens: 14, answerTokens: 10, counter: words, instructions: 'Answer.' });
    expect(p.sources).toEqual([]);
    expect(p.user).toBe('There are no sources.\n\nQuestion: Why?');
    expect(() => assemblePrompt('Why?', [], { contextTokens: 5, answerTokens: 10, counter: words })).toThrow(/do not fit the model's context of 5 tokens/);
  });

  it('leaves headers out when asked', () => {
    const p = assemblePrompt('Q?', [block('a', 'Text.', { header: 'HEADER' })], { contextTokens: 200, answerTokens: 10, counter: words, headers: false });
    expect(p.user).not.toContain('HEADER');
  });

  it('labels drop a first section that only repeats the title', () => {
    expect(sourceLabel(block('a', 't', { sectionPath: ['Manual', 'Setup', 'Linux'], pageStart: 2, pageEnd: 2 }))).toBe('Manual › Setup › Linux · p. 2');
  });
});

describe('citations in answers', () => {
  it('splits text and markers, expanding lists and ranges', () => {
    expect(parseCitations('Run it [1]. Then restart [2, 3][4] and see [2-3].', 4)).toEqual([
      { kind: 'text', text: 'Run it ' },
      { kind: 'cite', text: '[1]', sources: [1], unknown: [] },
      { kind: 'text', text: '. Then restart ' },
      { kind: 'cite', text: '[2, 3]', sources: [2, 3], unknown: [] },
      { kind: 'cite', text: '[4]', sources: [4], unknown: [] },
      { kind: 'text', text: ' and see ' },
      { kind: 'cite', text: '[2-3]', sources: [2, 3], unknown: [] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('flags numbers that name no source and reads "[Source 2]"', () => {
    expect(parseCitations('A [7]; B [Source 2].', 3)).toEqual([
      { kind: 'text', text: 'A ' },
      { kind: 'cite', text: '[7]', sources: [], unknown: [7] },
      { kind: 'text', text: '; B ' },
      { kind: 'cite', text: '[Source 2]', sources: [2], unknown: [] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leaves brackets that are not citations alone, and lists cited sources in order', () => {
    expect(parseCitations('An array [a] and [x1].', 2)).toEqual([{ kind: 'text', text: 'An array [a] and [x1].' }]);
    expect(citedSources('x [3] y [1][3] z [2-3]', 3)).toEqual([3, 1, 2]);
    expect(parseCitations('Odd [5-2] range.', 5).find((p) => p.kind === 'cite')).toEqual({ kind: 'cite', text: '[5-2]', sources: [5, 2], unknown: [] });
  });
});
