/**
 * Languages and scripts the shared data never had (the lab was tuned on English, Spanish,
 * Chinese, German, Portuguese): each case is a defect a user of that language would see.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../index/analyzer';
import { detectLanguage } from './language';
import { splitSentences } from './sentences';
import { ApproxTokenCounter } from './tokens';
import { normalizeTerm, words } from './words';

const sentences = (text: string, language: string) => splitSentences(text, language).map((s) => text.slice(s.start, s.end));

describe('normalizeTerm keeps the marks that spell a word (Indic vowel signs, Thai vowels and tones, kana voicing)', () => {
  it('Hindi: की, के and को (three postpositions) stay three terms, and बहती is not बहुत', () => {
    expect(words('दिल्ली की नदी के पास को बहती बहुत', 'hi')).toEqual(['दिल्ली', 'की', 'नदी', 'के', 'पास', 'को', 'बहती', 'बहुत']);
  });

  it('Thai: แม่น้ำ (river) keeps its vowel and tone marks', () => {
    // NFKC writes sara am (ำ) as nikhahit + sara aa: the same for text and query.
    expect(normalizeTerm('แม่น้ำ')).toBe('แม่น้ำ'.normalize('NFKC'));
    expect(normalizeTerm('แม่น้ำ')).not.toBe(normalizeTerm('แมนา'));
    expect(normalizeTerm('ไม่')).not.toBe(normalizeTerm('ไม้'));
  });

  it('Japanese: が is not か, バス is not ハス, and a decomposed が is the composed one', () => {
    expect(normalizeTerm('が')).toBe('が');
    expect(normalizeTerm('バス')).toBe('バス');
    expect(normalizeTerm('か\u3099')).toBe('が');
    expect(normalizeTerm('ｶﾞｽ')).toBe('ガス');
  });

  it('accents of Latin, Greek, Cyrillic and Arabic/Hebrew pointing are still folded', () => {
    expect(normalizeTerm('Coração')).toBe('coracao');
    expect(normalizeTerm('Hồ Hoàn Kiếm')).toBe('ho hoan kiem');
    expect(normalizeTerm('Θεσσαλονίκη')).toBe(normalizeTerm('ΘΕΣΣΑΛΟΝΙΚΗ'));
    expect(normalizeTerm('ёлка')).toBe('елка');
    expect(normalizeTerm('أين')).toBe('اين');
    expect(normalizeTerm('שָׁלוֹם')).toBe('שלום');
  });

  it('Arabic: the tatweel (kashida) that stretches a word for justification is dropped', () => {
    expect(words('اللغة العـــربية', 'ar')).toEqual(words('اللغة العربية', 'ar'));
    expect(analyze('العـــربية', 'ar', 'stem')).toEqual(analyze('العربية', 'ar', 'stem'));
  });

  it('NFD and NFC text give the same terms in every script', () => {
    for (const w of ['Nguyễn', 'की', 'が', '한강이', 'แม่น้ำ', 'Ελλάδα']) expect(normalizeTerm(w.normalize('NFD'))).toBe(normalizeTerm(w.normalize('NFC')));
  });

  it('Turkish: dotless ı folds to i like the other accents, so "IĞDIR" and a typed "ığdır" are one term', () => {
    expect(normalizeTerm('IĞDIR')).toBe('igdir');
    expect(normalizeTerm('ığdır')).toBe('igdir');
    expect(normalizeTerm('İstanbul')).toBe('istanbul');
  });

  it('Greek: final ς folds to σ (case folding), so a word ending in Σ meets its lower-case form', () => {
    expect(normalizeTerm('ΠΟΛΗΣ')).toBe('πολησ');
    expect(normalizeTerm('πόλης')).toBe('πολησ');
    expect(normalizeTerm('Σ')).toBe(normalizeTerm('ς'));
  });
});

describe('ApproxTokenCounter counts a combining mark or a format character with its word', () => {
  const counter = new ApproxTokenCounter();

  it('a decomposed (NFD) text counts as its composed (NFC) form', () => {
    for (const t of ['Nguyễn Du viết Truyện Kiều.', 'Le café est fermé.']) expect(counter.count(t.normalize('NFD'))).toBe(counter.count(t.normalize('NFC')));
    expect(counter.count('Nguyễn Du viết Truyện Kiều.'.normalize('NFD'))).toBe(6);
  });

  it('Hindi vowel signs do not cut a word into pieces', () => {
    // Five words and a danda.
    expect(counter.count('दिल्ली भारत की राजधानी है।')).toBe(6);
  });

  it('soft hyphens and zero-width joiners are not punctuation', () => {
    expect(counter.count('The infor\u00ADmation sys\u00ADtem')).toBe(counter.count('The information system'));
  });
});

describe('detectLanguage names the languages franc tells by script, instead of falling back to English', () => {
  it('Greek, Thai, Hebrew, Bengali, Urdu, Persian and Tamil documents', () => {
    expect(detectLanguage('Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Η Ακρόπολη βρίσκεται στο κέντρο της πόλης.')).toBe('el');
    expect(detectLanguage('กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีประชากรประมาณสิบล้านคน')).toBe('th');
    expect(detectLanguage('ירושלים היא עיר עתיקה. בעיר יש אתרים היסטוריים רבים.')).toBe('he');
    expect(detectLanguage('ঢাকা বাংলাদেশের রাজধানী। এটি একটি বড় শহর এবং এখানে অনেক মানুষ বাস করে।')).toBe('bn');
    expect(detectLanguage('لاہور پاکستان کا ایک بڑا شہر ہے۔ یہ پنجاب میں ہے اور بہت پرانا ہے۔')).toBe('ur');
    expect(detectLanguage('تهران پایتخت ایران است. این شهر بسیار بزرگ است و جمعیت زیادی دارد.')).toBe('fa');
    expect(detectLanguage('சென்னை தமிழ்நாட்டின் தலைநகரம் ஆகும். இது ஒரு பெரிய நகரம்.')).toBe('ta');
  });

  it('so a detected Greek document splits at its question mark ";" (ICU does so for el, not for en)', () => {
    const text = 'Ποιος έχτισε τον Παρθενώνα; Τον έχτισαν οι αρχαίοι Αθηναίοι.';
    expect(sentences(text, detectLanguage(text))).toEqual(['Ποιος έχτισε τον Παρθενώνα;', 'Τον έχτισαν οι αρχαίοι Αθηναίοι.']);
  });
});

describe('a 50,000-character line without a space', () => {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

  it('is cut into segmenter windows at grapheme boundaries: no sentence or word holds half an emoji or a bare mark', () => {
    for (const unit of ['a😀', 'ab👨‍👩‍👧', 'क्षि']) {
      const text = unit.repeat(Math.ceil(50_000 / unit.length));
      const spans = splitSentences(text, 'en');
      expect(spans.length).toBeGreaterThan(20);
      for (const s of spans) {
        const t = text.slice(s.start, s.end);
        expect(lone.test(t)).toBe(false);
        expect(t).not.toMatch(/^[\p{M}\u200d]/u);
      }
      expect(words(text).filter((w) => lone.test(w))).toEqual([]);
    }
  });
});

describe('a long Japanese run without whitespace', () => {
  it('is cut into segmenter windows after punctuation, so no word is cut in two at a window edge', () => {
    const ja = '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。';
    const text = ja.repeat(Math.ceil(50_000 / ja.length));
    const once = words(ja, 'ja');
    expect(words(text, 'ja')).toEqual(Array.from({ length: text.length / ja.length }, () => once).flat());
  });
});
