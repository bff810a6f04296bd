import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FUZZY_THRESHOLD, locateAnswer } from './locate';

const P = 'The Eiffel Tower was completed in March 1889.\nIt was  designed by the engineering firm of Gustave Eiffel.';

describe('locateAnswer', () => {
  it('finds an exact quote at its offsets', () => {
    expect(locateAnswer(P, 'March 1889')).toEqual({ match: { start: 34, end: 44, text: 'March 1889', method: 'exact', score: 1 }, bestScore: 1 });
  });

  it('finds a quote differing in case, spaces and line breaks, with the ORIGINAL offsets', () => {
    const r = locateAnswer(P, 'in march 1889. it was designed');
    expect(r.match).toEqual({ start: 31, end: 62, text: 'in March 1889.\nIt was  designed', method: 'normalised', score: 1 });
    expect(P.slice(r.match!.start, r.match!.end)).toBe(r.match!.text);
  });

  it('drops the quote marks and final full stop a model adds, and folds curly quotes', () => {
    expect(locateAnswer(P, '“Gustave Eiffel.”').match).toEqual({ start: 90, end: 104, text: 'Gustave Eiffel', method: 'normalised', score: 1 });
    expect(locateAnswer('He said "yes" twice.', 'said “yes”').match).toMatchObject({ start: 3, end: 13, method: 'normalised' });
  });

  it('takes the best word window above the threshold as a fuzzy match', () => {
    // One word of five changed ("company" for "firm"): F1 = 2*4/(5+5) = 0.8, which reaches the default.
    const r = locateAnswer(P, 'the engineering company of Gustave');
    expect(FUZZY_THRESHOLD).toBe(0.8);
    expect(r.match).toEqual({ start: 66, end: 97, text: 'the engineering firm of Gustave', method: 'fuzzy', score: 0.8 });
  });

  it('reports not found with the best score when nothing reaches the threshold', () => {
    expect(locateAnswer(P, 'built by workers from Paris')).toEqual({ match: null, bestScore: 0.2222 });
    expect(locateAnswer(P, 'the engineering company of Gustave', { threshold: 0.9 })).toEqual({ match: null, bestScore: 0.8 });
    expect(locateAnswer(P, '   ')).toEqual({ match: null, bestScore: 0 });
  });

  it('works in Chinese (word segmentation by language) and keeps accents', () => {
    const zh = '埃菲尔铁塔于1889年3月建成。它由古斯塔夫·埃菲尔的公司设计。';
    expect(locateAnswer(zh, '1889年3月').match).toEqual({ start: 6, end: 13, text: '1889年3月', method: 'exact', score: 1 });
    const fuzzy = locateAnswer(zh, '古斯塔夫·埃菲尔的工程公司', { language: 'zh' });
    expect(fuzzy.match).toEqual({ start: 18, end: 29, text: '古斯塔夫·埃菲尔的公司', method: 'fuzzy', score: 0.9474 });
    const pt = 'A construção começou em São Paulo.';
    expect(locateAnswer(pt, 'SÃO PAULO').match).toEqual({ start: 24, end: 33, text: 'São Paulo', method: 'normalised', score: 1 });
    // Accents dropped by the model: words fold accents, so the fuzzy step finds it.
    expect(locateAnswer(pt, 'construcao comecou', { language: 'pt' }).match).toEqual({ start: 2, end: 20, text: 'construção começou', method: 'fuzzy', score: 1 });
  });
});

describe('locateAnswer on text in another Unicode form', () => {
  it('a quote typed in NFC is found, normalised and at whole characters, in a passage stored in NFD (and back)', () => {
    const nfd = 'Le café est fermé. Nguyễn Du viết Truyện Kiều. 한강이 흐릅니다.'.normalize('NFD');
    const vi = locateAnswer(nfd, 'Nguyễn Du viết'.normalize('NFC'), { threshold: 1.01 });
    expect(vi.match).toMatchObject({ start: 21, end: 39, method: 'normalised', score: 1 });
    expect(vi.match!.text).toBe('Nguyễn Du viết'.normalize('NFD'));
    expect(locateAnswer(nfd, '한강이', { threshold: 1.01 }).match).toMatchObject({ start: 57, end: 65, method: 'normalised' });
    // A prefix of a decomposed letter is no match: "caf" + "e" would end before the accent.
    expect(locateAnswer(nfd, 'le cafe', { threshold: 1.01 }).match).toBeNull();
    const nfc = 'São Paulo é enorme.';
    expect(locateAnswer(nfc, 'São Paulo é'.normalize('NFD')).match).toEqual({ start: 0, end: 11, text: 'São Paulo é', method: 'normalised', score: 1 });
  });

  it('soft hyphens and zero-width characters in the passage do not stop a match', () => {
    const p = 'The infor\u00ADmation sys\u00ADtem was up\u00ADdated. Zero\u200Bwidth here.';
    expect(locateAnswer(p, 'information system was updated', { threshold: 1.01 }).match).toEqual({
      start: 4, end: 37, text: 'infor\u00ADmation sys\u00ADtem was up\u00ADdated', method: 'normalised', score: 1,
    });
    expect(locateAnswer(p, 'zerowidth', { threshold: 1.01 }).match).toMatchObject({ start: 39, end: 49, method: 'normalised' });
  });

  it('compatibility forms (full-width letters, ligatures) match their plain letters', () => {
    expect(locateAnswer('Ｔｏｋｙｏ ﬁnance', 'tokyo finance', { threshold: 1.01 }).match).toMatchObject({ start: 0, end: 12, method: 'normalised' });
  });
});

describe('locateAnswer on generated text', () => {
  const word = fc.constantFrom('The', 'tower', 'Été', 'São', 'PAULO', '1889', '铁塔', 'naïve', '“quoted”', 'end.');
  const space = fc.constantFrom(' ', '  ', '\n', '\n\n', '\t');
  const text = fc.array(fc.tuple(word, space), { minLength: 1, maxLength: 30 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

  it('finds any run of words quoted with other spacing and case, at offsets holding the original text', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (passage, a, b) => {
        const words = [...passage.matchAll(/\S+/g)];
        const i = a % words.length;
        const j = i + (b % (words.length - i));
        const from = words[i]!.index!;
        const to = words[j]!.index! + words[j]![0].length;
        const quoted = squash(passage.slice(from, to));
        const r = locateAnswer(passage, quoted);
        expect(r.match).not.toBeNull();
        expect(passage.slice(r.match!.start, r.match!.end)).toBe(r.match!.text);
        // The same words, maybe an earlier occurrence of them.
        expect(squash(r.match!.text).replace(/[“”]/g, '"')).toBe(quoted.replace(/[“”]/g, '"'));
      }),
      { numRuns: 300, seed: 26 },
    );
  });
});
