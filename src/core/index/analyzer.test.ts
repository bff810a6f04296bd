import { describe, expect, it } from 'vitest';
import { ANALYZERS, analyze, analyzerWords, isAnalyzer, queryLanguage, stems, WordMemo } from './analyzer';
import { words } from '../segment/words';

/** One sentence per language, its terms under `stem` and `stem+stop` (Snowball; English Porter). */
const CASES: { lang: string; text: string; stem: string[]; stemStop: string[] }[] = [
  {
    lang: 'en',
    text: "The runners were running quickly to the world's stations.",
    stem: ['the', 'runner', 'were', 'run', 'quickli', 'to', 'the', 'world', 'station'],
    stemStop: ['runner', 'run', 'quickli', 'world', 'station'],
  },
  {
    lang: 'pt',
    text: 'As corações das cidades não são iguais às nações.',
    stem: ['as', 'coraco', 'das', 'cidad', 'na', 'sa', 'igu', 'as', 'naco'],
    stemStop: ['coraco', 'cidad', 'sa', 'igu', 'naco'],
  },
  {
    lang: 'es',
    text: 'Los niños estaban corriendo por las ciudades antiguas.',
    stem: ['los', 'nin', 'estab', 'corr', 'por', 'las', 'ciudad', 'antigu'],
    stemStop: ['nin', 'estab', 'corr', 'ciudad', 'antigu'],
  },
  {
    lang: 'de',
    text: 'Die Häuser der Städte wurden schnell gebaut.',
    stem: ['die', 'haus', 'der', 'stadt', 'wurd', 'schnell', 'gebaut'],
    stemStop: ['haus', 'stadt', 'schnell', 'gebaut'],
  },
  {
    lang: 'fr',
    text: "L'homme mangeait des pommes dans les jardins.",
    stem: ['homm', 'mang', 'de', 'pomm', 'dan', 'le', 'jardin'],
    stemStop: ['homm', 'mang', 'pomm', 'jardin'],
  },
  {
    lang: 'it',
    text: "L'uomo mangiava delle mele nei giardini.",
    stem: ['uom', 'mang', 'dell', 'mel', 'nei', 'giardin'],
    stemStop: ['uom', 'mang', 'mel', 'giardin'],
  },
  {
    lang: 'nl',
    text: 'De kinderen liepen door de mooie steden.',
    stem: ['de', 'kinder', 'liep', 'dor', 'de', 'mooi', 'sted'],
    stemStop: ['kinder', 'liep', 'mooi', 'sted'],
  },
];

describe('analyze', () => {
  it('`words` is exactly the original analyzer (Intl.Segmenter words, folded)', () => {
    for (const c of CASES) expect(analyze(c.text, c.lang, 'words')).toEqual(words(c.text, c.lang));
    expect(analyze('As corações das cidades', 'pt', 'words')).toEqual(['as', 'coracoes', 'das', 'cidades']);
  });

  for (const c of CASES) {
    it(`stems ${c.lang} with its Snowball stemmer, and drops its stop words with +stop`, () => {
      expect(analyze(c.text, c.lang, 'stem')).toEqual(c.stem);
      expect(analyze(c.text, c.lang, 'stem+stop')).toEqual(c.stemStop);
      expect(stems(c.lang)).toBe(true);
    });
  }

  it('keeps stop words out without stemming under words+stop', () => {
    expect(analyze('The runners were running.', 'en', 'words+stop')).toEqual(['runners', 'running']);
  });

  it('keeps Chinese and Japanese words, unstemmed, under every analyzer; +stop drops their particles (的, 是, は, の)', () => {
    for (const a of ANALYZERS) {
      const stop = a.endsWith('+stop');
      expect(analyze('中国是世界上历史最悠久的国家之一。', 'zh', a)).toEqual(stop ? ['中国', '世界上', '历史', '最', '悠久', '国家', '之一'] : ['中国', '是', '世界上', '历史', '最', '悠久', '的', '国家', '之一']);
      expect(analyze('東京は日本の首都', 'ja', a)).toEqual(stop ? ['東京', '日本', '首都'] : ['東京', 'は', '日本', 'の', '首都']);
    }
    expect(stems('zh')).toBe(false);
    expect(stems('ja')).toBe(false);
  });

  it('stems before folding accents (the stemmers read them), so singular and plural meet', () => {
    expect(analyze('cidade', 'pt', 'stem')).toEqual(analyze('Cidades', 'pt', 'stem'));
    expect(analyze('nações', 'pt', 'stem')).toEqual(['naco']);
    expect(analyze('Städte', 'de-DE', 'stem')).toEqual(['stadt']);
  });

  it('gives the same terms with a batch memo as without, per language (the same word stems differently in each)', () => {
    for (const a of ANALYZERS) {
      const memo = new WordMemo();
      // Twice over: the second round reads every word from the memo.
      for (const round of [1, 2]) {
        for (const c of CASES) expect(analyze(c.text, c.lang, a, memo), `${a} ${c.lang} round ${round}`).toEqual(analyze(c.text, c.lang, a));
        expect(analyze('The runners', 'de', a, memo)).toEqual(analyze('The runners', 'de', a));
      }
    }
    // The shared word is stemmed per language even with one memo: English drops "the" and stems, German keeps it.
    const memo = new WordMemo();
    expect(analyze('The runners', 'en', 'stem+stop', memo)).toEqual(['runner']);
    expect(analyze('The runners', 'de', 'stem+stop', memo)).toEqual(['the', 'runn']);
  });

  it('Turkish capitals are lower-cased the Turkish way before stemming: "IĞDIR", "Iğdır" and "ığdır" give one term', () => {
    // Without the locale "IĞDIR" became "iğdir" (stem "ik") and "Iğdır" "iğdır" (stem "igdir"): a query missed the heading.
    expect(analyze('IĞDIR', 'tr', 'stem')).toEqual(['ik']);
    expect(analyze('Iğdır', 'tr', 'stem')).toEqual(['ik']);
    expect(analyze('ığdır', 'tr', 'stem')).toEqual(['ik']);
    expect(analyze('İSTANBUL İstanbul', 'tr', 'stem+stop')).toEqual(['istanbul', 'istanbul']);
    // Unstemmed, dotless ı folds to i as ğ folds to g.
    expect(analyze('IĞDIR ığdır', 'tr', 'words')).toEqual(['igdir', 'igdir']);
  });

  it('stems the languages @orama/stemmers has beyond the first fifteen: a question\'s singular meets the text\'s inflected form', () => {
    // Greek (genitive), Arabic (article), Hindi (oblique plural), Ukrainian (case endings), Hungarian, Indonesian (suffix).
    expect(analyze('Ακρόπολη', 'el', 'stem')).toEqual(analyze('ΑΚΡΟΠΟΛΗΣ', 'el', 'stem'));
    expect(analyze('πόλη πόλεις', 'el', 'stem')).toEqual(['πολ', 'πολ']);
    expect(analyze('المدينة مدينة', 'ar', 'stem')).toEqual(['مدين', 'مدين']);
    expect(analyze('नदी नदियों', 'hi', 'stem')).toEqual(['नद', 'नद']);
    expect(analyze('столиця столиці', 'uk', 'stem')).toEqual(['столиц', 'столиц']);
    expect(analyze('házak házakban', 'hu', 'stem')).toEqual(['haz', 'haz']);
    // Stop words of their `stopword` lists are dropped.
    expect(analyze('Η πρωτεύουσα της Ελλάδας', 'el', 'stem+stop')).toEqual(analyze('πρωτεύουσα Ελλάδας', 'el', 'stem'));
    expect(stems('el')).toBe(true);
    expect(analyzerWords('stem', 'el')).toBe('stemmed (Snowball el)');
  });

  it('names itself', () => {
    expect(isAnalyzer('stem+stop')).toBe(true);
    expect(isAnalyzer('porter')).toBe(false);
    expect(analyzerWords('stem', 'en')).toBe('stemmed (Porter en)');
    expect(analyzerWords('stem+stop', 'de')).toBe('stemmed (Snowball de), stop words dropped');
    expect(analyzerWords('stem', 'zh')).toBe('words (no stemmer for zh)');
    expect(analyzerWords('words')).toBe('words');
  });
});

describe('queryLanguage', () => {
  // franc reads this short English question as Spanish: stemmed as Spanish, "store" and "energy" would miss.
  const misread = 'How do batteries store energy?';

  it('a one-language corpus analyses every query in its language, whatever detection says', () => {
    expect(queryLanguage(misread, ['en', 'en'])).toBe('en');
    expect(analyze(misread, queryLanguage(misread, ['en']), 'stem')).toEqual(['how', 'do', 'batteri', 'store', 'energi']);
    expect(queryLanguage('Wer hat das Haus gebaut und wann?', ['en'])).toBe('en');
  });

  it('a mixed corpus takes the detected language when it has it, else its most common one', () => {
    expect(queryLanguage('Quem construiu a casa e quando foi isso?', ['en', 'pt', 'pt'])).toBe('pt');
    expect(queryLanguage('Wer hat das Haus gebaut und wann war das?', ['en', 'pt', 'pt'])).toBe('pt');
    expect(queryLanguage(misread, ['en', 'pt'])).toBe('en');
    expect(queryLanguage('个人信息安全', ['en', 'zh'])).toBe('zh');
  });

  it('no documents: the detected language, English when unsure', () => {
    expect(queryLanguage('个人信息安全', [])).toBe('zh');
    expect(queryLanguage('hi', [])).toBe('en');
  });
});
