/**
 * Languages and scripts the shared data never had (the lab was tuned on English, Spanish,
 * Chinese, German, Portuguese): each case is a defect a user of that language would see.
 */
import { describe, expect, it } from 'vitest';
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

  it('NFD and NFC text give the same terms in every script', () => {
    for (const w of ['Nguyễn', 'की', 'が', '한강이', 'แม่น้ำ', 'Ελλάδα']) expect(normalizeTerm(w.normalize('NFD'))).toBe(normalizeTerm(w.normalize('NFC')));
  });

  it('Turkish: dotless ı folds to i like the other accents, so "IĞDIR" and a typed "ığdır" are one term', () => {
    expect(normalizeTerm('IĞDIR')).toBe('igdir');
    expect(normalizeTerm('ığdır')).toBe('igdir');
    expect(normalizeTerm('İstanbul')).toBe('istanbul');
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
