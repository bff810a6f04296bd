import { describe, expect, it } from 'vitest';
import { COPY_SHARE_THRESHOLD, copyShare, copyShareHistogram, DUPLICATE_THRESHOLD, findNearDuplicate, isDontKnow, jaccard, wordSet } from './filters';

describe("the don't-know filter", () => {
  it('catches refusals in several languages and empty answers', () => {
    for (const a of ['unknown', 'Unknown.', '', '  ', 'N/A', 'I don\'t know', 'The answer is not in the passage.', 'This cannot be answered from the text', 'The passage does not mention it',
      'Não sei', 'desconhecido', 'No lo sé', 'je ne sais pas', 'Ich weiß nicht', '无法回答', '不知道']) {
      expect([a, isDontKnow(a)]).toEqual([a, true]);
    }
  });
  it('catches refusals in languages beyond the first six (a model asked in the passage\'s language answers in it)', () => {
    for (const a of ['Не знаю.', 'В тексте это не указано', 'わかりません。', '本文には記載されていません', '모르겠습니다', '본문에 언급되지 않았습니다',
      'لا أعرف', 'غير مذكور في النص', 'לא ידוע', 'मुझे नहीं पता', 'Bilmiyorum', 'METİNDE BELİRTİLMEMİŞ', 'Tôi không biết', 'Không được đề cập trong đoạn văn',
      'Δεν ξέρω', 'ไม่ทราบ', 'なし', 'Неизвестно.', 'Άγνωστο']) {
      expect([a, isDontKnow(a)]).toEqual([a, true]);
    }
    for (const a of ['Москва', 'Петром I', '静岡県と山梨県', '한강', 'في الجيزة', 'יפו', 'यमुना नदी', 'Iğdır', 'Hồ Hoàn Kiếm', 'Θεσσαλονίκη', 'แม่น้ำเจ้าพระยา', 'могила неизвестного солдата', 'ο άγνωστος στρατιώτης', '梨なしで']) {
      expect([a, isDontKnow(a)]).toEqual([a, false]);
    }
  });

  it('keeps real answers, even ones containing "unknown" or "none"', () => {
    for (const a of ['1889', 'Gustave Eiffel', 'an unknown soldier', 'none of the above options were tested', 'São Paulo', '埃菲尔']) {
      expect([a, isDontKnow(a)]).toEqual([a, false]);
    }
  });
});

describe('near-duplicates', () => {
  it('measures normalised token Jaccard', () => {
    expect(jaccard(wordSet('When was the Eiffel Tower built?'), wordSet('when was THE eiffel tower built'))).toBe(1);
    expect(jaccard(wordSet('When was the tower built?'), wordSet('When was the bridge built?'))).toBe(4 / 6);
    expect(jaccard(new Set(), new Set())).toBe(0);
  });
  it('flags a question above the threshold against the kept ones, naming the closest', () => {
    expect(DUPLICATE_THRESHOLD).toBe(0.7);
    const kept = ['Who designed the bridge?', 'When was the Eiffel Tower completed?'];
    expect(findNearDuplicate('When was the Eiffel tower completed', kept)).toEqual({ index: 1, similarity: 1 });
    // 7 shared of 8 distinct words: 0.875 > 0.7.
    expect(findNearDuplicate('In what year was the Eiffel Tower completed?', ['What year was the Eiffel Tower completed?'])).toEqual({ index: 0, similarity: 7 / 8 });
    // 4 shared of 6: 0.667, kept.
    expect(findNearDuplicate('When was the tower built?', ['When was the bridge built?'])).toBeNull();
    expect(findNearDuplicate('When was the tower built?', ['When was the bridge built?'], 'en', 0.6)).toEqual({ index: 0, similarity: 4 / 6 });
  });
});

describe('copy share', () => {
  const passage = 'The Eiffel Tower was completed in March 1889 for the World Fair in Paris.';
  it('is the share of content words (stop words dropped) found verbatim in the passage', () => {
    expect(COPY_SHARE_THRESHOLD).toBe(0.8);
    // eiffel, tower, completed: all in the passage.
    expect(copyShare('When was the Eiffel Tower completed?', passage)).toBe(1);
    // year, iron, landmark, finished: none; paris: yes → 1 of 5.
    expect(copyShare('In which year was the iron landmark of Paris finished?', passage)).toBe(0.2);
    // "complete" is not "completed": verbatim words only (no stemming); "when" is a question word.
    expect(copyShare('When did they complete the tower?', passage)).toBe(0.5);
    expect(copyShare('What is it?', passage)).toBe(0);
  });
  it('works in Portuguese and Chinese', () => {
    // "quando" is a question word, "foi" not a stop word there: torre, foi, construida all copied.
    expect(copyShare('Quando a torre foi construída?', 'A torre foi construída em 1889.', 'pt')).toBe(1);
    expect(copyShare('Em que ano terminaram a torre?', 'A torre foi construída em 1889.', 'pt')).toBe(0.3333);
    // Chinese stop words (是, 年, 的) and the question word 哪一 dropped: 铁 塔 建成, all in the passage.
    expect(copyShare('铁塔是哪一年建成的？', '埃菲尔铁塔于1889年建成。', 'zh')).toBe(1);
  });
  it('bins shares for the distribution shown with the set', () => {
    expect(copyShareHistogram([0, 0.1, 0.2, 0.5, 0.8, 1, 1])).toEqual([2, 1, 1, 0, 3]);
  });
});
