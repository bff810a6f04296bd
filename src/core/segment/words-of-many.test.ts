import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARALLEL_DIR } from '../../../scripts/bench/parallel/parallel-set';
import { analyze, analyzeEach, ANALYZERS, WordMemo } from '../index/analyzer';
import { icuReference, type Seg } from './icu-reference';
import { segments, SEGMENT_WINDOW, visitWordsOfMany } from './segmenters';
import { splitSentences } from './sentences';

/** Each text's word segments as segments() gave them before: ICU's, one text at a time (windows for a text longer than one). */
const oneByOne = (texts: string[], languageOf: (i: number) => string): Seg[][] =>
  texts.map((t, i) => (t.length <= SEGMENT_WINDOW ? icuReference(t, languageOf(i)) : [...segments(t, 0, t.length, languageOf(i), 'word')].map((s): Seg => [s.segment, s.index, Boolean(s.isWordLike)])));

function together(texts: string[], languageOf: (i: number) => string): Seg[][] {
  const out: Seg[][] = [];
  let cur: Seg[] = [];
  visitWordsOfMany(
    texts,
    languageOf,
    (i, segment, index, wordLike) => {
      expect(i).toBe(out.length);
      cur.push([segment, index, wordLike]);
    },
    (i) => {
      expect(i).toBe(out.length);
      out.push(cur);
      cur = [];
    },
  );
  return out;
}

/** The parallel set's paragraphs in 11 languages (Thai, Japanese, Korean, Hindi, Arabic, Greek…), as sentences: the texts BM25 gets. */
function parallelSentences(): { text: string; language: string }[] {
  const out: { text: string; language: string }[] = [];
  for (const file of readdirSync(PARALLEL_DIR).filter((f) => f.endsWith('.txt'))) {
    const language = file.replace('.txt', '');
    for (const line of readFileSync(join(PARALLEL_DIR, file), 'utf8').split('\n')) {
      if (!line.startsWith('P ')) continue;
      const p = line.slice(2);
      for (const s of splitSentences(p, language)) out.push({ text: p.slice(s.start, s.end), language });
    }
  }
  return out;
}

/** Characters where word rules look around them: CR, LF, marks and format characters at a text's start, ZWJ emoji, flags, apostrophes, digits, CJK, Thai. */
const TRICKY = ['a', 'B', 'é', '1', '.', ',', ':', "'", '’', '_', ' ', '\t', '\r', '\n', '\u2029', '\u0301', '\u200d', '\u200b', '\u00ad', '\u202f', '👍', '🏽', '🇵', '🇹', '日', '本', 'カ', 'タ', 'ก', 'ไ', 'ท', 'ย', '한', '"', '-', '@'];

describe('words of many texts segmented together', () => {
  it('are the words of each text segmented alone: the parallel set in 11 languages, texts of mixed languages', () => {
    const items = parallelSentences();
    expect(new Set(items.map((x) => x.language)).size).toBeGreaterThanOrEqual(11);
    const texts = items.map((x) => x.text);
    const languageOf = (i: number) => items[i]!.language;
    expect(together(texts, languageOf)).toEqual(oneByOne(texts, languageOf));
  });

  it('keep texts apart at every edge: empty texts, line breaks, a final CR, a text longer than one call', () => {
    const long = 'word '.repeat(SEGMENT_WINDOW / 4);
    const texts = ['', 'a', 'ends with CR\r', 'b', '\nstarts with a line feed', '', '\u0301mark first', 'U.S. and e.g. NTL:Telewest', long, 'after the long one', '日本の首都は東京です。', 'สะพานข้ามแม่น้ำ', ''];
    expect(together(texts, () => 'en')).toEqual(oneByOne(texts, () => 'en'));
  });

  it('are the words of each text alone for random texts of tricky characters (property)', () => {
    const text = fc.array(fc.constantFrom(...TRICKY), { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), fc.constantFrom('en', 'th', 'ja'), (texts, language) => {
        expect(together(texts, () => language)).toEqual(oneByOne(texts, () => language));
      }),
      { seed: 42, numRuns: 150 },
    );
  });

  it('give analyze()’s terms text by text under every analyzer', () => {
    const items = parallelSentences();
    const texts = items.map((x) => x.text);
    for (const analyzer of ANALYZERS) {
      const each: string[][] = [];
      analyzeEach(texts, (i) => items[i]!.language, analyzer, new WordMemo(), (i, terms) => (each[i] = terms));
      const memo = new WordMemo();
      expect(each).toEqual(texts.map((t, i) => analyze(t, items[i]!.language, analyzer, memo)));
    }
  });
});
