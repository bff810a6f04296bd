import { SHARED_DATA } from '../../node/paths';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language';
import { ApproxTokenCounter, ModelTokenCounter, type EncodingTokenizer } from './tokens';
import { normalizeTerm, words } from './words';

const DEMO = `${SHARED_DATA}/demo_docs`;
const read = (path: string) => readFileSync(`${DEMO}/${path}`, 'utf8');

describe('words', () => {
  it('segments Chinese into dictionary words, not one clause', () => {
    const w = words('中华人民共和国宪法', 'zh');
    expect(w).toEqual(['中华', '人民', '共和国', '宪法']);
    expect(w.join('')).toBe('中华人民共和国宪法');
  });

  it('segments a Chinese sentence and drops its full stop', () => {
    expect(words('国家的一切权力属于人民。', 'zh')).toEqual(['国家', '的', '一切', '权力', '属于', '人民']);
  });

  it('folds accents and lower-cases', () => {
    expect(words('Coração, São Paulo! Ação.', 'pt')).toEqual(['coracao', 'sao', 'paulo', 'acao']);
    expect(words('ÉCOLE Über naïve', 'fr')).toEqual(['ecole', 'uber', 'naive']);
  });

  it('drops punctuation and keeps numbers and contractions as words', () => {
    expect(words('Hello, WORLD... it\'s “quoted” (x) 3.14!')).toEqual(['hello', 'world', "it's", 'quoted', 'x', '3.14']);
    expect(words(' ... — !? ')).toEqual([]);
    expect(words('')).toEqual([]);
  });

  it('normalises compatibility characters (ligatures, full-width letters)', () => {
    expect(words('ﬁnance Ｆｕｌｌ')).toEqual(['finance', 'full']);
  });

  it('gives a query typed without accents the same terms as the accented text', () => {
    expect(words('coracao', 'pt')).toEqual(words('Coração', 'pt'));
  });
});

describe('normalizeTerm', () => {
  it('lower-cases and strips combining marks', () => {
    expect(normalizeTerm('Coração')).toBe('coracao');
    expect(normalizeTerm('CRÈME BRÛLÉE')).toBe('creme brulee');
    // Precomposed and decomposed forms give the same term.
    expect(normalizeTerm('Cafe\u0301')).toBe(normalizeTerm('Café'));
  });

  it('leaves CJK characters unchanged', () => {
    expect(normalizeTerm('宪法')).toBe('宪法');
  });
});

describe('ApproxTokenCounter', () => {
  const counter = new ApproxTokenCounter();

  it('is named "approx"', () => {
    expect(counter.name).toBe('approx');
  });

  it('counts one token per CJK character', () => {
    expect(counter.count('中华人民共和国宪法')).toBe(9);
    expect(counter.count('中文')).toBe(2);
    // 11 characters and one full stop.
    expect(counter.count('国家的一切权力属于人民。')).toBe(12);
  });

  it('counts words by length (about 5 letters a token, at least 1) and each punctuation mark', () => {
    expect(counter.count('')).toBe(0);
    expect(counter.count('   ')).toBe(0);
    expect(counter.count('hello')).toBe(1);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('internationalization')).toBe(4); // 20 letters
    expect(counter.count('a, b.')).toBe(4);
    expect(counter.count('Coração')).toBe(1);
  });

  it('grows with the text', () => {
    expect(counter.count('one two three four')).toBeLessThan(counter.count('one two three four five six seven'));
  });

  it('is close to one token per Han character on the Chinese constitution', () => {
    const text = read('zh/prc_constitution.md');
    const han = (text.match(/\p{Script=Han}/gu) ?? []).length;
    const n = counter.count(text);
    expect(n).toBeGreaterThanOrEqual(han);
    expect(n).toBeLessThan(han * 1.2);
  });

  it('gives a plausible count for English prose (between words and characters/2)', () => {
    const text = read('udhr/udhr_eng.md');
    const wordCount = text.split(/\s+/).filter(Boolean).length;
    const n = counter.count(text);
    expect(n).toBeGreaterThan(wordCount);
    expect(n).toBeLessThan(wordCount * 2);
  });
});

describe('ModelTokenCounter', () => {
  it('counts the tokenizer’s ids without special tokens', () => {
    const calls: { text: string; options?: { add_special_tokens?: boolean } }[] = [];
    const tokenizer: EncodingTokenizer = {
      encode(text, options) {
        calls.push({ text, options });
        return text.split(' ').map((_, i) => i);
      },
    };
    const counter = new ModelTokenCounter(tokenizer, 'MiniLM');
    expect(counter.name).toBe('MiniLM');
    expect(counter.count('a b c')).toBe(3);
    expect(calls).toEqual([{ text: 'a b c', options: { add_special_tokens: false } }]);
  });
});

describe('detectLanguage', () => {
  it('detects the shared demo documents’ languages', () => {
    expect(detectLanguage(read('pt/constituicao_republica_portuguesa.txt'))).toBe('pt');
    expect(detectLanguage(read('udhr/udhr_por_BR.md'))).toBe('pt');
    expect(detectLanguage(read('zh/prc_constitution.md'))).toBe('zh');
    expect(detectLanguage(read('udhr/udhr_cmn_hans.md'))).toBe('zh');
    expect(detectLanguage(read('udhr/udhr_eng.md'))).toBe('en');
    expect(detectLanguage(read('en/factbook/po.md'))).toBe('en');
  });

  it('detects German and Spanish (XQuAD paragraphs)', () => {
    const first = (lang: string) =>
      (JSON.parse(readFileSync(`${SHARED_DATA}/xquad/xquad.${lang}.json`, 'utf8')) as { data: { paragraphs: { context: string }[] }[] })
        .data[0]!.paragraphs[0]!.context;
    expect(detectLanguage(first('de'))).toBe('de');
    expect(detectLanguage(first('es'))).toBe('es');
  });

  it('detects a short start of a document', () => {
    expect(detectLanguage(read('pt/constituicao_republica_portuguesa.txt').slice(0, 300))).toBe('pt');
    expect(detectLanguage(read('udhr/udhr_eng.md').slice(0, 300))).toBe('en');
  });

  it('decides CJK scripts before trigrams: a few Han characters are Chinese, kana is Japanese, Hangul is Korean', () => {
    expect(detectLanguage('人民')).toBe('zh');
    expect(detectLanguage('これは日本語の文章です。ひらがなとカタカナ。')).toBe('ja');
    expect(detectLanguage('대한민국은 민주공화국이다.')).toBe('ko');
  });

  it('returns the fallback when it cannot tell', () => {
    expect(detectLanguage('')).toBe('en');
    expect(detectLanguage('', 'xx')).toBe('xx');
    expect(detectLanguage('12345 67890 ...', 'xx')).toBe('xx');
  });
});

describe('words agree across ICU versions', () => {
  it('a "." or ":" between letters splits the word, as Chromium does (Node 20 keeps it whole)', () => {
    expect(words('The U.S. team, e.g. Amazon.com and NTL:Telewest, scored 3.14 points.')).toEqual([
      'the', 'u', 's', 'team', 'e', 'g', 'amazon', 'com', 'and', 'ntl', 'telewest', 'scored', '3.14', 'points',
    ]);
  });
});
