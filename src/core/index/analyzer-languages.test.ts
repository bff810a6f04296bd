/**
 * BM25 in languages whose words the analyzer used to miss: Korean particles, Romanian comma-below
 * letters, Turkish apostrophes, and the stop words of the languages that had no list.
 */
import { describe, expect, it } from 'vitest';
import { RetrievalEngine } from '../engine';
import { documentFromText } from '../documents/load';
import { copyShare } from '../questions/filters';
import { analyze, analyzerWords } from './analyzer';
import { stripKoreanParticles } from './korean';

describe('Korean: particles and the endings of 하다/되다/이다 are stripped (the light half of Nori)', () => {
  it('a noun is the same term whatever particle it carries', () => {
    expect(['서울은', '서울을', '서울에서는', '서울의', '서울'].map(stripKoreanParticles)).toEqual(['서울', '서울', '서울', '서울', '서울']);
    expect(analyze('대한민국의 수도는 서울이다. 의회가 다리를 짓기로 결정했다.', 'ko', 'stem')).toEqual(['대한민국', '수도', '서울', '의회', '다리', '짓기', '결정']);
  });

  it('a syllable that also ends nouns is stripped only when two syllables are left', () => {
    expect(['국가', '국가가', '수도', '수도가', '강을', '회의', '회의에서'].map(stripKoreanParticles)).toEqual(['국가', '국가', '수도', '수도', '강', '회의', '회의']);
  });

  it('a Korean question finds its answer by BM25', async () => {
    const doc = documentFromText(
      [
        '케스트로 마을은 옛 소금길이 앨더강을 건너는 곳에서 자라났다. 1782년 마을 의회는 돌다리를 놓기로 결정하고 기술자 토머스 바넬에게 설계도를 그려 달라고 요청했다.',
        '그레이포인트 등대는 샐로베이 항구 입구의 바위 위에 서 있다. 1839년 폭풍으로 고깃배 열한 척이 가라앉자 항만 위원회는 탑을 세울 돈을 모았다.',
        '앨더 계곡 철도는 브렌로 광산의 석탄을 샐로베이 항구까지 실어 나르기 위해 1868년에 개통되었다.',
      ].join('\n\n'),
      'ko.txt',
    );
    expect(doc.language).toBe('ko');
    const engine = new RetrievalEngine({ embedder: null });
    engine.addDocuments([doc]);
    const top = async (q: string) => (await engine.search(q, ['sentence'], { retriever: 'bm25', topK: 1, budgetTokens: null }))[0]!.blocks[0]?.text;
    expect(await top('케스트로를 지나 흐르는 강은 무엇인가요?')).toBe('케스트로 마을은 옛 소금길이 앨더강을 건너는 곳에서 자라났다.');
    expect(await top('의회가 다리를 짓기로 결정한 해는 언제인가요?')).toBe('1782년 마을 의회는 돌다리를 놓기로 결정하고 기술자 토머스 바넬에게 설계도를 그려 달라고 요청했다.');
    expect(await top('철도는 광산에서 무엇을 실어 날랐나요?')).toBe('앨더 계곡 철도는 브렌로 광산의 석탄을 샐로베이 항구까지 실어 나르기 위해 1868년에 개통되었다.');
    expect(analyzerWords('stem+stop', 'ko')).toBe('particles stripped (ko), stop words dropped');
  });
});

describe('Romanian and Turkish words meet their inflected forms', () => {
  it('Romanian: comma-below ș ț (today\'s spelling) stem as the cedilla ş ţ the Snowball stemmer knows', () => {
    expect(analyze('inundația inundațiile', 'ro', 'stem')).toEqual(['inund', 'inund']);
    expect(analyze('inundația', 'ro', 'stem')).toEqual(analyze('inundaţia', 'ro', 'stem'));
  });

  it('Turkish: a proper noun\'s suffixes after the apostrophe go (İstanbul\'da, Nehri\'ni), as Lucene\'s ApostropheFilter does', () => {
    expect(analyze("İstanbul'da Alder Nehri'ni", 'tr', 'stem')).toEqual(['istanbul', 'alder', 'nehri']);
    expect(analyze("İstanbul’dan", 'tr', 'stem')).toEqual(analyze('İstanbul', 'tr', 'stem'));
  });
});

describe('stop words for the languages that had no list', () => {
  it('Japanese, Korean, Thai, Vietnamese and Chinese particles are not content words', () => {
    expect(analyze('東京は日本の首都です', 'ja', 'words+stop')).toEqual(['東京', '日本', '首都']);
    // Matched as written: đô (capital) is not đó (that), nội not nơi.
    expect(analyze('Hà Nội là thủ đô của Việt Nam', 'vi', 'words+stop')).toEqual(['ha', 'noi', 'thu', 'đo', 'viet', 'nam']);
    expect(analyze('กรุงเทพเป็นเมืองหลวงของประเทศไทย', 'th', 'words+stop')).not.toContain('ของ');
  });

  it('so the copy share of a Japanese question counts its content words only', () => {
    // 日本 首都 are the question's content words (は, の, です, か are stop words, どこ a question word): both in the passage.
    expect(copyShare('日本の首都はどこですか', '東京は日本の首都である。', 'ja')).toBe(1);
    // 서울 나라 수도 (어느 asks): 서울 and 수도 are in the passage with other particles, 나라 is not (it used to be 0: no word matched as written).
    expect(copyShare('서울은 어느 나라의 수도인가요?', '한국의 수도는 서울이다.', 'ko')).toBe(0.6667);
  });
});
