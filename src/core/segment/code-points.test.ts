import { expressions } from 'franc/expressions.js';
import { describe, expect, it } from 'vitest';
import { CodePointClasses, codePointCounts } from './code-points';
import { SCRIPT_LANGUAGES } from './language-tags';

/** Every BMP character but the surrogates, every 61st astral one, lone surrogates of both kinds, and a pair cut at the end. */
function everyCharacter(): string {
  const parts: string[] = [];
  for (let cp = 0; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) parts.push(String.fromCharCode(cp));
  for (let cp = 0x10000; cp <= 0x10ffff; cp += 61) parts.push(String.fromCodePoint(cp));
  parts.push('\ud800x', 'y\udc00', '\udbff\udbff\udfff', '\udfff\ud800', '𠮷𠮷', '\ud842');
  return parts.join('');
}

describe('codePointCounts', () => {
  it('counts code points as a regular expression reads them: a pair once, a lone surrogate as itself', () => {
    const counts = codePointCounts('aé𠮷a\ud800x\udc00𠮷\ud842');
    expect([...counts].sort((x, y) => x[0] - y[0])).toEqual([
      [0x61, 2],
      [0x78, 1],
      [0xe9, 1],
      [0xd800, 1],
      [0xd842, 1],
      [0xdc00, 1],
      [0x20bb7, 2],
    ]);
    expect(codePointCounts('').size).toBe(0);
  });
});

describe('CodePointClasses', () => {
  const text = everyCharacter();
  const counts = codePointCounts(text);
  const count = (re: RegExp) => (text.match(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`)) ?? []).length;

  it("tallies franc's script expressions as their global matches count them, over every character", () => {
    const classes = Object.values(expressions);
    const tally = new CodePointClasses(classes).tally(counts);
    expect(tally).toEqual(classes.map(count));
    // Not vacuous: Latin, Han and Cyrillic letters are there by the thousand.
    expect(Math.min(...tally.slice(0, 3))).toBeGreaterThan(200);
  });

  it("tallies the language guess's Unicode classes (letters, kana, Hangul, Han, the scripts franc has no model for) alike", () => {
    const classes = [/[\p{L}\p{M}]/u, /[\p{Script=Hiragana}\p{Script=Katakana}]/u, /\p{Script=Hangul}/u, /\p{Script=Han}/u, ...SCRIPT_LANGUAGES.map(([re]) => re)];
    const tally = new CodePointClasses(classes).tally(counts);
    expect(tally).toEqual(classes.map(count));
    expect(tally[0]).toBeGreaterThan(40_000);
  });

  it('refuses more classes than a 32-bit mask holds', () => {
    expect(() => new CodePointClasses(Array.from({ length: 33 }, () => /a/))).toThrow(/at most 32/);
  });
});
