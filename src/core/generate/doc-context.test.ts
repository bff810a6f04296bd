import { describe, expect, it } from 'vitest';
import { ApproxTokenCounter, type TokenCounter } from '../segment/tokens';
import {
  cleanSummary,
  cleanTitle,
  countWords,
  LANGUAGE_ADDENDUM,
  MAX_TITLE_CHARS,
  summaryMessages,
  titleMessages,
  truncateToTokens,
} from './doc-context';

const approx = new ApproxTokenCounter();

/** Counts calls, so the search for the cut is seen to stay cheap. */
class CountingCounter implements TokenCounter {
  readonly name = 'approx';
  calls = 0;
  count(text: string): number {
    this.calls++;
    return approx.count(text);
  }
}

const TITLE_HEAD = 'INSTRUCTIONS\nWhat is the title of the following document?\n\nYour response MUST be the title of the document, and nothing else. DO NOT respond with anything else.\n\n';

describe('truncateToTokens', () => {
  it('keeps a text within the budget whole', () => {
    expect(truncateToTokens('alpha beta gamma', 3, approx)).toEqual({ text: 'alpha beta gamma', tokens: 3, truncated: false, words: 3 });
  });

  it('cuts at the last word that fits, counted exactly', () => {
    expect(truncateToTokens('alpha beta gamma delta epsilon', 3, approx)).toEqual({ text: 'alpha beta gamma', tokens: 3, truncated: true, words: 3 });
    // "One," is 2 tokens and "One, two." 4: a budget of 3 keeps "One," only.
    expect(truncateToTokens('One, two. Three four', 3, approx)).toEqual({ text: 'One,', tokens: 2, truncated: true, words: 1 });
    // Long words are several tokens: "internationalization" is 4.
    expect(truncateToTokens('an internationalization test', 4, approx)).toEqual({ text: 'an', tokens: 1, truncated: true, words: 1 });
    expect(truncateToTokens('an internationalization test', 5, approx)).toEqual({ text: 'an internationalization', tokens: 5, truncated: true, words: 2 });
    expect(truncateToTokens('internationalization', 2, approx)).toEqual({ text: '', tokens: 0, truncated: true, words: 0 });
  });

  it('cuts between CJK characters', () => {
    expect(truncateToTokens('中文文本测试', 3, approx)).toEqual({ text: '中文文', tokens: 3, truncated: true, words: 3 });
  });

  it('finds the cut in a long text with few counts, and the next word would not fit', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? 'maintenance,' : i % 3 === 0 ? 'nut' : 'the'));
    const text = words.join(' ');
    const counter = new CountingCounter();
    const t = truncateToTokens(text, 4000, counter);
    expect(counter.calls).toBeLessThan(40);
    expect(t.truncated).toBe(true);
    expect(t.tokens).toBe(approx.count(t.text));
    expect(t.tokens).toBeLessThanOrEqual(4000);
    expect(text.startsWith(t.text)).toBe(true);
    const next = text.slice(0, text.indexOf(' ', t.text.length + 1) === -1 ? text.length : text.indexOf(' ', t.text.length + 1));
    expect(approx.count(next)).toBeGreaterThan(4000);
    expect(t.words).toBe(t.text.split(' ').length);
  });
});

describe('countWords', () => {
  it('counts words, CJK characters one by one, and not bare punctuation', () => {
    expect(countWords('Self-locking nuts — stay tight.')).toBe(4);
    expect(countWords('中文 abc 文本')).toBe(5);
    expect(countWords('   ')).toBe(0);
  });
});

describe('titleMessages', () => {
  it("is dsRAG's title prompt as one user message, with empty placeholders folded", () => {
    expect(titleMessages('Aviation Maintenance Technician Handbook\nChapter 7', { counter: approx, maxTokens: 4000 })).toEqual([
      { role: 'user', content: `${TITLE_HEAD}DOCUMENT\nAviation Maintenance Technician Handbook\nChapter 7` },
    ]);
  });

  it('says how many words were kept when the text was cut', () => {
    const [m] = titleMessages('alpha beta gamma delta epsilon', { counter: approx, maxTokens: 3 });
    expect(m!.content).toBe(
      `${TITLE_HEAD}Also note that the document text provided below is just the first ~3 words of the document. That should be plenty for this task. Your response should still pertain to the entire document, not just the text provided below.\n\nDOCUMENT\nalpha beta gamma`,
    );
  });

  it('adds the guidance and, for a document not in English, the language addendum', () => {
    const [m] = titleMessages('Porcas autofrenantes', { counter: approx, maxTokens: 100, language: 'pt', guidance: ' Use the official name. ' });
    expect(m!.content).toBe(`${TITLE_HEAD}Use the official name.\n\n${LANGUAGE_ADDENDUM}\n\nDOCUMENT\nPorcas autofrenantes`);
    expect(titleMessages('x', { counter: approx, maxTokens: 100, language: 'en-US' })[0]!.content).not.toContain(LANGUAGE_ADDENDUM);
  });

  it('leaves braces in the document alone', () => {
    expect(titleMessages('a {truncation_message} b', { counter: approx, maxTokens: 100 })[0]!.content.endsWith('DOCUMENT\na {truncation_message} b')).toBe(true);
  });
});

describe('summaryMessages', () => {
  it("is dsRAG's summarization prompt with the title as the document name", () => {
    const [m] = summaryMessages('alpha beta gamma delta', ' AMT Handbook ', { counter: approx, maxTokens: 2 });
    expect(m!.role).toBe('user');
    const c = m!.content;
    expect(c.startsWith('INSTRUCTIONS\nWhat is the following document, and what is it about? \n\nYour response should be a single sentence, and it shouldn\'t be an excessively long sentence. DO NOT respond with anything else.\n\nYour response should take the form of "This document is about: X"')).toBe(true);
    expect(c).toContain('de divers personnages dans la France du XIXe siècle."\n\nAlso note that the document text provided below is just the first ~2 words of the document.');
    expect(c.endsWith('not just the text provided below.\n\nDOCUMENT\nDocument name: AMT Handbook\n\nalpha beta')).toBe(true);
    expect(c).not.toMatch(/\n\n\n/);
  });

  it('without truncation has no truncation message', () => {
    const c = summaryMessages('short text', 'T', { counter: approx, maxTokens: 8000 })[0]!.content;
    expect(c).not.toContain('Also note');
    expect(c).toContain('XIXe siècle."\n\nDOCUMENT\nDocument name: T\n\nshort text');
  });
});

describe('cleanTitle', () => {
  it.each([
    ['"Aviation Maintenance Technician Handbook"', 'Aviation Maintenance Technician Handbook'],
    ['Title: **AMT General Handbook**\n\nThis handbook covers…', 'AMT General Handbook'],
    ['# Aviation Handbook', 'Aviation Handbook'],
    ['The title of the document is "Hardware and Nuts".', 'Hardware and Nuts'],
    ['Document title: “Les Misérables”', 'Les Misérables'],
    ['<think>The document is about nuts.</think>\n\nSelf-Locking Nuts', 'Self-Locking Nuts'],
    ['\n\n  *Aircraft Hardware*  \n', 'Aircraft Hardware'],
    ['Aircraft Hardware Handbook.', 'Aircraft Hardware Handbook'],
    ['Apple Inc.', 'Apple Inc.'],
    ['Title-based routing', 'Title-based routing'],
    ['', ''],
  ])('%j → %j', (reply, title) => {
    expect(cleanTitle(reply)).toBe(title);
  });

  it('caps a long reply at a word', () => {
    const t = cleanTitle(`${'word '.repeat(60)}end`);
    expect(t.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(t).toBe(`${'word '.repeat(29)}word…`);
  });
});

describe('cleanSummary', () => {
  it.each([
    ['This document is about: self-locking nuts.', 'This document is about: self-locking nuts.'],
    ['"This document is about: the U.S. FAA handbook on aircraft hardware. It has many figures."', 'This document is about: the U.S. FAA handbook on aircraft hardware.'],
    ['Summary: This document is about: nuts, e.g. self-locking ones. More here.', 'This document is about: nuts, e.g. self-locking ones.'],
    ['**This document is about:** bolts\nand nuts in version 3.5 of the manual. Second.', 'This document is about: bolts and nuts in version 3.5 of the manual.'],
    ['本文档是关于：螺母。第二句。', '本文档是关于：螺母。'],
    ['This document is about: nuts', 'This document is about: nuts'],
    ['<think>hm</think>This document is about: Dr. Smith\'s notes. Next.', "This document is about: Dr. Smith's notes."],
    ['“This document is about: rivets.”', 'This document is about: rivets.'],
  ])('%j → %j', (reply, summary) => {
    expect(cleanSummary(reply)).toBe(summary);
  });
});
