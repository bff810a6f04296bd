import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARALLEL_DIR } from '../../../scripts/bench/parallel/parallel-set';
import { SHARED_DATA } from '../../node/paths';
import { Cls, cls, PROBE_CHARS } from './simple-words';
import { icuReference, type Seg } from './icu-reference';
import { segments, simpleWordsAgree } from './segmenters';

const now = (text: string, language = 'en'): Seg[] => [...segments(text, 0, text.length, language, 'word')].map((s) => [s.segment, s.index, Boolean(s.isWordLike)]);

/** Every character the rules handle, by class. */
function simpleChars(): Map<Cls, string[]> {
  const out = new Map<Cls, string[]>();
  for (let c = 0; c < 0x2100; c++) {
    const ch = String.fromCharCode(c);
    const k = cls(ch, 0);
    if (k !== Cls.None) out.set(k, [...(out.get(k) ?? []), ch]);
  }
  return out;
}

describe('simple-text word rules', () => {
  it('agree with ICU on every three probe characters in a row, in the languages the lab names most', () => {
    for (const language of ['en', 'de', 'fr', 'pt', 'es', 'it', 'nl', 'ru', 'el', 'vi', 'tr', 'pl', 'fi', 'sv', 'und']) expect(simpleWordsAgree(language), language).toBe(true);
  });

  it('give ICU’s words for every letter and symbol they handle, alone and joined to letters and digits', () => {
    const chars = [...simpleChars().values()].flat();
    expect(chars.length).toBeGreaterThan(1400);
    const contexts = chars.flatMap((x) => [x, `a${x}`, `${x}a`, `a${x}b`, `0${x}1`, `a'${x}`, `${x}'a`, `${x}_`, `${x}.${x}`, `${x} ${x}`]);
    // Line feeds break on both sides: one string, one comparison.
    const text = contexts.join('\n');
    expect(now(text.slice(0, 2000))).toEqual(icuReference(text.slice(0, 2000)));
    for (let from = 0; from < text.length; ) {
      let to = Math.min(text.length, from + 1500);
      while (to < text.length && text[to - 1] !== '\n') to++;
      const part = text.slice(from, to);
      expect(now(part)).toEqual(icuReference(part));
      from = to;
    }
  });

  it('give ICU’s words for random strings of probe characters, letters of every handled script and unhandled ones (property)', () => {
    const others = ['\u0301', '\u200d', '\u00ad', '\u202f', '👍', '日', 'ก', 'µ', 'ʰ', '²', '\u2028', '\u000b'];
    const alphabet = [...PROBE_CHARS, 'É', 'ß', 'ł', 'ș', 'ế', 'ά', 'ἀ', 'Ж', 'ё', '9', '‘', ';', '—', '”', '…', ...others];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 16 }), (cs) => {
        const text = cs.join('');
        expect(now(text)).toEqual(icuReference(text));
      }),
      { seed: 3, numRuns: 2000 },
    );
  });

  it('give ICU’s words for real paragraphs (XQuAD en, de, es; the parallel set in ru, el, tr, ro, vi), with a few unhandled characters among them', () => {
    const paragraphs: [string, string][] = [];
    for (const lang of ['en', 'de', 'es']) {
      const data = JSON.parse(readFileSync(join(SHARED_DATA, `xquad/xquad.${lang}.json`), 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
      for (const p of data.data.flatMap((a) => a.paragraphs.map((x) => x.context)).filter((x) => x.length <= 2048).slice(0, 30)) paragraphs.push([p, lang]);
    }
    for (const lang of ['ru', 'el', 'tr', 'ro', 'vi']) {
      for (const line of readFileSync(join(PARALLEL_DIR, `${lang}.txt`), 'utf8').split('\n')) if (line.startsWith('P ')) paragraphs.push([line.slice(2), lang]);
    }
    expect(paragraphs.length).toBeGreaterThan(150);
    for (const [p, lang] of paragraphs) {
      expect(now(p, lang)).toEqual(icuReference(p, lang));
      const mixed = `${p.slice(0, 200)} 日本語の文。 naïve µ-meter e\u0301t\u00e9 👍🏽 ${p.slice(200, 400)}`;
      expect(now(mixed, lang)).toEqual(icuReference(mixed, lang));
    }
  });
});
