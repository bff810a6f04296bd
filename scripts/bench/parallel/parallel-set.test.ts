import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSquad } from '../../../src/core/eval/squad';
import { PARALLEL_DIR, ParallelSetError, parallelLanguages, readParallel, readParallelText, shapeOf, toSquad } from './parallel-set';

describe('the parallel set', () => {
  const languages = parallelLanguages();
  const english = shapeOf(readParallel('en'));

  it('has English and ten translations', () => {
    expect(languages).toEqual(['en', 'ar', 'el', 'hi', 'ja', 'ko', 'ro', 'ru', 'th', 'tr', 'vi']);
  });

  it('every translation has English\'s articles, paragraphs and questions, in NFC, each answer located in its paragraph', () => {
    for (const language of languages) {
      const raw = readFileSync(join(PARALLEL_DIR, `${language}.txt`), 'utf8');
      expect(raw.normalize('NFC'), language).toBe(raw);
      const set = readSquad(toSquad(readParallel(language)));
      expect(shapeOf(readParallel(language)), language).toEqual(english);
      expect(set.questions.length, language).toBe(40);
      expect(set.skipped, language).toEqual([]);
      for (const q of set.questions) {
        const doc = set.docs.find((d) => d.id === q.targets[0]!.doc)!;
        for (const s of q.targets[0]!.spans!) expect(doc.text.slice(s.start, s.end)).toBe(q.answers[0]);
      }
    }
  });

  it('says which line is wrong', () => {
    expect(() => readParallelText('# T\nP The bridge has seven arches.\nQ How many? | eight', 'x.txt')).toThrow(new ParallelSetError('x.txt:3: the answer "eight" is not in its paragraph'));
    expect(() => readParallelText('P no title', 'x.txt')).toThrow('x.txt:1: a paragraph or question before the first "# title"');
  });
});
