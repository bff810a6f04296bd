import { describe, expect, it } from 'vitest';
import { detectLanguage, guessLanguage } from './language';

// Paragraphs of the lab's parallel set (scripts/bench/parallel): franc-min named the Romanian one
// "ron", which the lab did not map, and the Hindi one Magahi ("mag"): both were listed as English.
const ROMANIAN = 'Orașul Kestrow a crescut acolo unde vechiul drum al sării traversa râul Alder. Timp de secole, călătorii plăteau un luntraș ca să-i treacă peste apă, iar iarna trecerea era adesea închisă săptămâni întregi.';
const HINDI = 'वार्नेल ने मॉर्ले हिल की खदानों से लाए गए भूरे ग्रेनाइट से सात मेहराबों वाला पुल बनाया। काम 1784 के वसंत में शुरू हुआ और नौ साल चला, क्योंकि बाढ़ ने दो बार लकड़ी के उन ढाँचों को तोड़ दिया जो गारा सूखने तक मेहराबों को थामे रखते थे।';

describe('guessLanguage names the language and says how sure it is', () => {
  it('a Romanian and a Hindi paragraph', () => {
    expect(guessLanguage(ROMANIAN)).toMatchObject({ language: 'ro', sure: true, by: 'trigrams' });
    expect(guessLanguage(HINDI)).toMatchObject({ language: 'hi', sure: true, by: 'trigrams' });
    expect([guessLanguage(ROMANIAN).confidence, guessLanguage(HINDI).confidence]).toEqual([0.85, 0.88]);
  });

  it('languages the analyzer stems that franc-min did not know: Danish, Finnish, Lithuanian', () => {
    expect(guessLanguage('Danmark er et land i Nordeuropa. Hovedstaden er København, og landet har omkring seks millioner indbyggere, som taler dansk. Landet består af halvøen Jylland og mange øer, hvoraf Sjælland og Fyn er de største.').language).toBe('da');
    expect(guessLanguage('Suomi on valtio Pohjois-Euroopassa. Pääkaupunki on Helsinki, ja maassa asuu noin viisi ja puoli miljoonaa ihmistä. Suomessa on paljon järviä ja metsiä, ja talvet ovat pitkiä ja kylmiä.').language).toBe('fi');
    expect(guessLanguage('Lietuva yra valstybė Europos šiaurės rytuose, prie Baltijos jūros. Sostinė yra Vilnius, o šalyje gyvena beveik trys milijonai žmonių, kurie kalba lietuviškai.').language).toBe('lt');
  });

  it('a heading-only English file is English (French by trigrams by a hair), and says it is unsure', () => {
    const g = guessLanguage('Introduction\n\nInstallation\n\nConfiguration\n\nUsage\n\nLicense');
    expect(g).toMatchObject({ language: 'en', sure: false, by: 'trigrams' });
    expect(g.alternatives).toContain('fr');
  });

  it('two languages the trigrams barely tell apart are unsure, the other one offered', () => {
    const g = guessLanguage('Norge er et land i Skandinavia. Hovedstaden er Oslo, og landet har omkring fem millioner innbyggere.');
    expect(g.sure).toBe(false);
    expect([g.language, ...g.alternatives].slice(0, 2).sort()).toEqual(['da', 'nb']);
  });

  it('a script of one language is sure from a sentence on, and says so', () => {
    expect(guessLanguage('Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.')).toMatchObject({ language: 'el', sure: true });
    expect(guessLanguage('서울은 한국의 수도이다.')).toMatchObject({ language: 'ko', sure: true, by: 'script' });
    expect(guessLanguage('北京市')).toMatchObject({ language: 'zh', sure: false });
  });

  it('a decomposed (NFD) text is told as its composed form', () => {
    for (const t of [ROMANIAN, HINDI, 'Hà Nội là thủ đô của Việt Nam, một thành phố có lịch sử hơn một nghìn năm với nhiều hồ nước và đền chùa.']) {
      expect(guessLanguage(t.normalize('NFD'))).toEqual(guessLanguage(t.normalize('NFC')));
    }
  });

  it('too few letters to tell: "none", and detectLanguage falls back to the caller\'s choice', () => {
    expect(guessLanguage('12 345 — 6.7')).toMatchObject({ by: 'none', sure: false, confidence: 0 });
    expect(detectLanguage('12 345', 'pt')).toBe('pt');
  });
});
