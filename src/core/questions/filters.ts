/**
 * The filters a generated question must pass, each alone testable, each threshold a named
 * default: the don't-know filter (AutoRAG's), near-duplicates (token Jaccard), and the copy
 * share (how many of the question's content words the passage already has: copied questions
 * favour BM25, so the worst are dropped and every question records its share).
 */
import { analyze } from '../index/analyzer';
import { stripKoreanParticles } from '../index/korean';
import { normalizeTerm, words } from '../segment/words';

/** A question whose normalised word set overlaps a kept one's by MORE than this (Jaccard) is a near-duplicate. */
export const DUPLICATE_THRESHOLD = 0.7;
/** A question whose copy share is MORE than this is dropped (0.8: with five content words, all five copied). */
export const COPY_SHARE_THRESHOLD = 0.8;

export interface Thresholds {
  /** Lowest token F1 of a fuzzy answer match (locate.ts FUZZY_THRESHOLD). */
  fuzzy: number;
  duplicate: number;
  copyShare: number;
}

/**
 * Replies that say "I cannot answer" instead of answering, in the lab's main languages. Whole
 * answers for single words ("unknown" inside a quoted span is kept), phrases anywhere.
 */
const DONT_KNOW_WHOLE = [
  'unknown', 'none', 'n/a', 'na', 'no answer', 'not applicable', 'nothing', 'null', 'unanswerable',
  'desconhecido', 'nenhum', 'nenhuma', 'desconocido', 'ninguno', 'ninguna', 'inconnu', 'aucun', 'aucune', 'unbekannt', 'keine',
  '未知', '无', '無', '不知道', '不明',
  // "Unknown", "none" alone (inside an answer they may be a real one: an unknown soldier).
  'неизвестно', 'غير معروف', 'לא ידוע', 'άγνωστο', 'bilinmiyor', 'なし', '없음', 'ไม่ทราบ',
].map(fold);
const DONT_KNOW_PHRASES = [
  /\b(?:i|we) (?:do not|don'?t|cannot|can'?t) (?:know|tell|say|find)\b/,
  /\bnot (?:in|found in|present in|mentioned in|stated in|given in|provided in|contained in) the (?:passage|text|context|document)/,
  /\b(?:is|are) not (?:mentioned|stated|given|provided|specified|available)\b/,
  /\b(?:cannot|can'?t|could not|couldn'?t) be (?:answered|determined|found)\b/,
  /\bno (?:answerable|relevant|such) (?:fact|question|information)/,
  /\b(?:the passage|the text|the context) (?:does not|doesn'?t) (?:say|mention|contain|state|provide)/,
  /\bnao (?:sei|ha informacao|e possivel responder|esta no (?:trecho|texto|passagem)|e mencionad)/,
  /\bno (?:lo )?se\b|\bno (?:se menciona|hay informacion|es posible responder|esta en el (?:texto|pasaje))/,
  /\bje ne sais pas\b|\bpas (?:mentionne|dans le (?:texte|passage))|\bne peut pas etre repondu/,
  /\bich wei(?:ss|ß) (?:es )?nicht\b|\bnicht (?:im text|erwahnt|angegeben)/,
  /无法回答|無法回答|没有提到|沒有提到|未提及|文中没有|文中沒有/,
];

/**
 * Refusals in languages the patterns above do not cover (ru, ja, ko, ar, he, hi, tr, vi, el, th),
 * as phrases found anywhere once folded like the answer (word boundaries \b are ASCII-only).
 */
const DONT_KNOW_ANYWHERE = [
  'не знаю', 'не указан', 'не упоминается', 'не упомянут', 'нет информации', 'не сказано', 'невозможно ответить', 'нельзя ответить',
  'わかりません', '分かりません', 'わからない', '分からない', '記載されていません', '記載がありません', '言及されていません', '書かれていません', '答えられません', '回答できません', '情報がありません',
  '모르겠', '알 수 없', '언급되지 않', '나와 있지 않', '정보가 없', '답할 수 없',
  'لا أعرف', 'غير مذكور', 'لم يذكر', 'لم يتم ذكر', 'لا يمكن الإجابة', 'لا توجد معلومات',
  'לא יודע', 'לא מוזכר', 'לא צוין', 'אין מידע',
  'पता नहीं', 'नहीं पता', 'ज्ञात नहीं', 'उल्लेख नहीं', 'जानकारी नहीं', 'उत्तर नहीं दिया जा सकता',
  'bilmiyorum', 'belirtilmemiş', 'bahsedilmemiş', 'cevap verilemez', 'yanıtlanamaz', 'bilgi yok',
  'không biết', 'không được đề cập', 'không có thông tin', 'không thể trả lời',
  'δεν ξέρω', 'δεν γνωρίζω', 'δεν αναφέρεται',
  'ไม่รู้', 'ไม่ได้ระบุ', 'ไม่มีข้อมูล',
];

/**
 * Lower case, accents folded as BM25 terms fold them (Latin, Greek, Cyrillic, Arabic accents;
 * Indic and Thai vowel signs kept), Turkish ı as i, spaces collapsed, end punctuation dropped.
 */
function fold(s: string): string {
  return normalizeTerm(s).replace(/\s+/g, ' ').trim().replace(/^["'“”‘’«»]+|["'“”‘’«».!?。！？؟।]+$/gu, '').trim();
}

const ANYWHERE = DONT_KNOW_ANYWHERE.map(fold);

/** True when the answer says the passage does not answer (or is empty): AutoRAG's don't-know filter. */
export function isDontKnow(answer: string): boolean {
  const a = fold(answer);
  if (!a) return true;
  if (DONT_KNOW_WHOLE.includes(a)) return true;
  return DONT_KNOW_PHRASES.some((re) => re.test(a)) || ANYWHERE.some((p) => a.includes(p));
}

/** Normalised word set of a text (the lab's word segmentation, case and accents folded). */
export function wordSet(text: string, language = 'en'): Set<string> {
  return new Set(words(text, language));
}

/** Jaccard similarity of two word sets (0 when both are empty). */
export function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return common / (a.size + b.size - common);
}

/** The kept question `question` most resembles, when above the threshold: its index and similarity. */
export function findNearDuplicate(question: string, kept: readonly string[], language = 'en', threshold = DUPLICATE_THRESHOLD): { index: number; similarity: number } | null {
  const q = wordSet(question, language);
  let best: { index: number; similarity: number } | null = null;
  kept.forEach((k, index) => {
    const similarity = jaccard(q, wordSet(k, language));
    if (similarity > threshold && (!best || similarity > best.similarity)) best = { index, similarity };
  });
  return best;
}

/**
 * Question words, folded as terms are: a question needs them whatever the passage says, so
 * they are not content words (the stop-word lists lack some, e.g. English "when").
 */
const QUESTION_WORDS = new Set(
  [
    'what', 'when', 'where', 'who', 'whom', 'whose', 'which', 'why', 'how',
    'quando', 'onde', 'quem', 'qual', 'quais', 'como', 'porque', 'cuando', 'donde', 'quien', 'quienes', 'cual', 'cuales', 'por',
    'quand', 'ou', 'qui', 'quel', 'quelle', 'quels', 'quelles', 'comment', 'pourquoi', 'wann', 'wo', 'wer', 'wen', 'wem', 'welche', 'welcher', 'welches', 'wie', 'warum',
    // it, nl, ro, ru, tr, el, hi, ar, vi, ja, ko, th, zh
    'cosa', 'chi', 'dove', 'perché', 'quale', 'quanto', 'wat', 'wie', 'wanneer', 'waar', 'hoe', 'waarom', 'welke', 'hoeveel',
    'ce', 'cine', 'când', 'unde', 'cum', 'care', 'cât', 'câte', 'câți', 'что', 'кто', 'где', 'когда', 'почему', 'как', 'какой', 'какая', 'какое', 'какие', 'сколько', 'чей',
    'ne', 'kim', 'nerede', 'neden', 'nasıl', 'hangi', 'kaç', 'τι', 'ποιος', 'ποια', 'ποιο', 'πότε', 'πού', 'πώς', 'γιατί', 'πόσο', 'πόσα', 'πόσες', 'πόσοι',
    'क्या', 'कौन', 'कब', 'कहाँ', 'कैसे', 'क्यों', 'कितना', 'कितने', 'कितनी', 'किस', 'किसने', 'ما', 'ماذا', 'من', 'متى', 'أين', 'كيف', 'لماذا', 'كم', 'أي', 'هل',
    'gì', 'ai', 'đâu', 'nào', 'sao', 'bao', 'nhiêu', 'どこ', 'なに', 'なん', '何', 'だれ', '誰', 'いつ', 'どう', 'なぜ', 'どの', 'どれ', 'いくつ', 'いくら',
    '무엇', '누구', '언제', '어디', '어떻게', '왜', '몇', '어느', '얼마', 'อะไร', 'ใคร', 'เมื่อไร', 'ที่ไหน', 'อย่างไร', 'ทำไม', 'กี่', 'เท่าไร', 'ใด', 'ไหน',
    '什么', '谁', '哪', '哪里', '哪一', '何时', '怎么', '为什么', '多少', '几',
  ].map(normalizeTerm),
);

/**
 * A text's words for the copy share: the analyzer's words with the language's stop words dropped,
 * unstemmed ("verbatim"), and Korean words without their particles (서울은 and 서울을 are one word copied).
 */
function copyWords(text: string, language: string): string[] {
  const terms = analyze(text, language, 'words+stop').filter(Boolean);
  return language.toLowerCase().startsWith('ko') ? terms.map(stripKoreanParticles) : terms;
}

/**
 * Share (0–1) of the question's content words (copyWords, question words dropped) that occur
 * in the passage. 0 for a question without content words. Rounded to 4 decimals so it reads and
 * compares the same everywhere.
 */
export function copyShare(question: string, passage: string, language = 'en'): number {
  const content = copyWords(question, language).filter((t) => !QUESTION_WORDS.has(t));
  if (!content.length) return 0;
  const inPassage = new Set(copyWords(passage, language));
  const found = content.filter((t) => inPassage.has(t)).length;
  return Math.round((found / content.length) * 1e4) / 1e4;
}

/** The copy share of each question as a histogram of `bins` equal bins over [0, 1] (the last includes 1). */
export function copyShareHistogram(shares: readonly number[], bins = 5): number[] {
  const out = new Array<number>(bins).fill(0);
  for (const s of shares) out[Math.min(bins - 1, Math.floor(s * bins))]! += 1;
  return out;
}
