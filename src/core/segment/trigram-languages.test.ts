/**
 * trigramLanguages must be franc's francAll, tuple for tuple and score for score: on real text
 * of every language the shared data and the parity set hold (whole samples and short prefixes),
 * with the lab's language list and with none, and on what has no language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { francAll } from 'franc';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../node/paths';
import { SHARED_DATA } from '../../node/setup';
import { TRIGRAM_LANGUAGES } from './language-tags';
import { trigramCounts, trigramLanguages } from './trigram-languages';

const ONLY = Object.keys(TRIGRAM_LANGUAGES);

function squadContexts(file: string, n: number): string[] {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
  return json.data.flatMap((a) => a.paragraphs.map((p) => p.context)).slice(0, n);
}

const parallel = join(PROJECT_ROOT, 'scripts/bench/parallel');
const texts: string[] = [
  ...['en', 'es', 'de', 'zh'].flatMap((l) => squadContexts(`${SHARED_DATA}/xquad/xquad.${l}.json`, 6)),
  ...readdirSync(parallel)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => readFileSync(join(parallel, f), 'utf8')),
  ...['udhr_eng.md', 'udhr_por_BR.md', 'udhr_cmn_hans.md'].map((f) => readFileSync(`${SHARED_DATA}/demo_docs/udhr/${f}`, 'utf8')),
  'Dansk er et nordgermansk sprog. Det tales af omkring seks millioner mennesker i Danmark.',
  'Suomi on uralilainen kieli, jota puhuu äidinkielenään noin viisi miljoonaa ihmistä.',
  'Українська мова належить до східнослов’янської групи.',
  'עברית היא שפה שמית.',
  'Tiếng Việt là ngôn ngữ của người Việt.',
  '12345 67.89 !!! ???',
  'a',
  'ab',
  '🙂🙂🙂 \ud83d',
  // Astral characters (surrogate pairs: Han Extension B, Gothic, Adlam), lone surrogates and a pair cut at 2,048 units.
  '𠮷野家の𠀋と𡈽 \udc00 \ud840x 𐌰𐌱𐌲 𞤀𞤁𞤂',
  `${'a'.repeat(2047)}𠮷 tail`,
  'Mixed: English words, 中文字, русские слова, ελληνικά.',
];

describe('trigramLanguages is francAll', () => {
  it('on real text of every language here, whole and as short prefixes, with the lab list and with none', () => {
    let compared = 0;
    for (const text of texts)
      for (const length of [3, 12, 40, 200, 2048, 5000]) {
        const sample = text.slice(0, length);
        for (const only of [ONLY, []]) {
          expect(trigramLanguages(sample, only), JSON.stringify(sample.slice(0, 40))).toEqual(francAll(sample, { minLength: 1, only }));
          compared++;
        }
      }
    expect(compared).toBeGreaterThan(400);
  });

  it('tells nothing from nothing: empty text, and a script of one language outside the list', () => {
    expect(trigramLanguages('')).toEqual([['und', 1]]);
    expect(francAll('', { minLength: 1 })).toEqual([['und', 1]]);
    expect(trigramLanguages('ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ', ['eng'])).toEqual(francAll('ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ', { minLength: 1, only: ['eng'] }));
  });

  it('counts trigrams as trigram-utils does: punctuation and digits out, spaces collapsed, lower case, padded', () => {
    expect([...trigramCounts('Ab, ab!  1 AB')]).toEqual([
      [' ab', 3],
      ['ab ', 3],
      ['b a', 2],
    ]);
  });
});
