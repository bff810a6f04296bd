import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as nepali } from '@orama/stemmers/nepali';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import { afr, ara, ben, bul, cat, ces, dan, deu, ell, eng, est, fas, fin, fra, gle, glg, guj, hau, heb, hin, hrv, hun, hye, ind, ita, jpn, kor, lav, lit, mar, msa, mya, nld, nob, panGu, pol, por, ron, rus, slk, slv, som, spa, swa, swe, tgl, tha, tur, ukr, urd, vie, yor, zho, zul } from 'stopword';
import { detectLanguage } from '../segment/language';
import { segments, visitWordsOfMany } from '../segment/segmenters';
import { INVISIBLE_IN_WORDS, normalizeTerm } from '../segment/words';
import { stripKoreanParticles } from './korean';

/**
 * How text becomes BM25 terms. `words`: Intl.Segmenter words, lower case, accents folded
 * (the lab's original analyzer). `stem`: the same words stemmed with the language's
 * Snowball stemmer (English: Porter, as Lucene's and Anserini's English analyzers), after
 * dropping English possessives and French/Italian elisions (l', d') as Lucene does.
 * `+stop` also drops the language's stop words (the `stopword` package's lists).
 * Languages without a stemmer (Chinese, Japanese, Korean, …) keep their words unstemmed.
 */
// The analyzers' names live with the lexical parameters (a light module: the CLI's help reads them without loading a stemmer).
export { ANALYZERS, type AnalyzerName } from './lexical-params';
export { isAnalyzer } from './lexical-params';
import type { AnalyzerName } from './lexical-params';

/** BCP-47 primary tag → Snowball stemmer (@orama/stemmers). */
const STEMMERS: Record<string, (word: string) => string> = {
  // Korean: its particles and the endings of 하다/되다/이다 stripped (korean.ts), Nori's light half.
  ko: stripKoreanParticles,
  en: english, pt: portuguese, es: spanish, de: german, fr: french, it: italian, nl: dutch,
  da: danish, fi: finnish, no: norwegian, nb: norwegian, ro: romanian, ru: russian, sv: swedish, tr: turkish,
  // The rest of @orama/stemmers: without them a Greek, Arabic or Hindi question's form missed the text's
  // inflected one ("Ακρόπολη" / "Ακρόπολης", "مدينة" / "المدينة", "नदी" / "नदियों") under the default stem+stop.
  el: greek, ar: arabic, hi: hindi, uk: ukrainian, bg: bulgarian, hu: hungarian, id: indonesian, ga: irish,
  lt: lithuanian, ne: nepali, sr: serbian, ta: tamil, hy: armenian,
};

const STOP_LISTS: Record<string, string[]> = {
  en: eng, pt: por, es: spa, de: deu, fr: fra, it: ita, nl: nld, da: dan, fi: fin, no: nob, nb: nob, nn: nob, ro: ron, ru: rus, sv: swe, tr: tur,
  el: ell, ar: ara, hi: hin, uk: ukr, bg: bul, hu: hun, id: ind, ga: gle, lt: lit, hy: hye,
  // Every other list the package has for a language the detector names: without them particles and function
  // words (Japanese の, Korean 및, Thai ที่, Vietnamese của, Chinese 的) were content words for BM25 and copy share.
  ca: cat, cs: ces, sk: slk, sl: slv, pl: pol, hr: hrv, et: est, lv: lav, fa: fas, ur: urd, bn: ben, mr: mar, gu: guj, pa: panGu,
  ms: msa, tl: tgl, sw: swa, af: afr, he: heb, gl: glg, so: som, yo: yor, zu: zul, ha: hau, my: mya,
  vi: vie, th: tha, ko: kor, ja: jpn, zh: zho,
};

/**
 * Vietnamese marks spell different words (đô "capital", đó "that"; nội "inner", nơi "place"):
 * folded, its stop list dropped content words. Its stop words are matched as written.
 */
const UNFOLDED_STOP = new Set(['vi']);

/** Stop words folded as terms are, so "não" and a typed "nao" are both dropped (as written, in UNFOLDED_STOP's languages). */
const stopSets = new Map<string, Set<string>>();
function stopSet(lang: string): Set<string> | undefined {
  const list = STOP_LISTS[lang];
  if (!list) return undefined;
  let set = stopSets.get(lang);
  if (!set) stopSets.set(lang, (set = new Set(list.map(UNFOLDED_STOP.has(lang) ? (w) => lower(w, lang) : normalizeTerm))));
  return set;
}

/** Whether a word (lower-cased) is one of the language's stop words. */
function isStop(stop: Set<string>, word: string, lang: string): boolean {
  return stop.has(UNFOLDED_STOP.has(lang) ? word : normalizeTerm(word));
}

/** The languages whose words are stemmed (the rest keep their words). */
export function stems(language: string): boolean {
  return primary(language) in STEMMERS;
}

function primary(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0]!;
}

/** Languages whose capitals lower-case differently (Turkish, Azerbaijani: I → ı, İ → i). */
const LOCALE_CASE = new Set(['tr', 'az']);

/**
 * Lower case and NFKC, accents kept (stemmers read them), format characters dropped. In the
 * Turkish locale, so the stemmer sees "IĞDIR" and "Iğdır" as the "ığdır" it knows, not "iğdir"
 * (and "İstanbul" as "istanbul", not "i" + a combining dot).
 */
function lower(term: string, lang: string): string {
  const t = term.replace(INVISIBLE_IN_WORDS, '').normalize('NFKC');
  return LOCALE_CASE.has(lang) ? t.toLocaleLowerCase(lang) : t.toLowerCase();
}

const ELISION = /^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu|dell|dall|nell|sull|all|un)['’]/u;

/**
 * What words became under one analyzer, per language (segment → term, '' for a dropped stop
 * word), shared by the analyze() calls of one batch. Folding, stop-word lookup and stemming
 * cost several string passes a word and words repeat (Zipf), so a batch of many units analyses
 * each distinct word once. Made per batch and dropped with it: a module-wide cache would keep
 * a corpus's whole vocabulary in the tab.
 */
export class WordMemo {
  private readonly byLanguage = new Map<string, Map<string, string>>();
  of(language: string): Map<string, string> {
    let m = this.byLanguage.get(language);
    if (!m) this.byLanguage.set(language, (m = new Map()));
    return m;
  }
}

/**
 * The BM25 terms of `text` in `language` under an analyzer: a pure function of its
 * arguments, used for units and queries alike (and by any engine that must match the lab).
 * `memo` only saves work (the same memo must not be shared across analyzers).
 */
export function analyze(text: string, language = 'en', analyzer: AnalyzerName = 'words', memo?: WordMemo): string[] {
  const term = termMaker(language, analyzer, memo);
  const out: string[] = [];
  for (const s of segments(text, 0, text.length, language, 'word')) {
    if (!s.isWordLike) continue;
    const t = term(s.segment);
    if (t || analyzer === 'words') out.push(t);
  }
  return out;
}

/** A word segment → its term under an analyzer in a language ('' for a dropped stop word), through the memo when given. */
function termMaker(language: string, analyzer: AnalyzerName, memo?: WordMemo): (segment: string) => string {
  const lang = primary(language);
  const stem = analyzer.startsWith('stem') ? STEMMERS[lang] : undefined;
  const stop = analyzer.endsWith('+stop') ? stopSet(lang) : undefined;
  const seen = memo?.of(analyzer === 'words' ? language : lang);
  return (segment) => {
    let term = seen?.get(segment);
    if (term === undefined) {
      term = analyzer === 'words' ? normalizeTerm(segment) : analyzeWord(segment, lang, stem, stop);
      seen?.set(segment, term);
    }
    return term;
  };
}

/**
 * analyze() of many texts, each in its own language: `each(i, terms)` for every text in order,
 * with exactly the terms analyze(texts[i], languageOf(i), analyzer, memo) gives — but the words
 * of consecutive texts are segmented together (visitWordsOfMany), which in a browser costs a
 * third of one segmenter call a text.
 */
export function analyzeEach(texts: readonly string[], languageOf: (i: number) => string, analyzer: AnalyzerName, memo: WordMemo, each: (i: number, terms: string[]) => void): void {
  let language: string | null = null;
  let term: (segment: string) => string = () => '';
  let terms: string[] = [];
  visitWordsOfMany(
    texts,
    languageOf,
    (i, segment, _index, isWordLike) => {
      if (!isWordLike) return;
      const lang = languageOf(i);
      if (lang !== language) {
        language = lang;
        term = termMaker(lang, analyzer, memo);
      }
      const t = term(segment);
      if (t || analyzer === 'words') terms.push(t);
    },
    (i) => {
      each(i, terms);
      terms = [];
    },
  );
}

/**
 * Turkish and Azerbaijani write a proper noun's suffixes after an apostrophe (İstanbul'da,
 * Alder Nehri'ni): the word is what comes before it, as Lucene's ApostropheFilter has it.
 */
const APOSTROPHE_SUFFIX = /['’].*$/u;

/**
 * The Snowball Romanian stemmer (@orama/stemmers) spells ş and ţ with a cedilla, as Romanian
 * was typed before Unicode had the comma-below letters; today's text writes ș and ț. Without
 * this, "inundația" lost only its article where "inundaţia" was stemmed to "inund".
 */
const ROMANIAN_COMMA_BELOW = /[șțȘȚ]/gu;
const CEDILLA: Record<string, string> = { ș: 'ş', ț: 'ţ', Ș: 'Ş', Ț: 'Ţ' };

function analyzeWord(segment: string, lang: string, stem: ((w: string) => string) | undefined, stop: Set<string> | undefined): string {
  let w = lower(segment, lang);
  if (lang === 'en') w = w.replace(/['’]s$/u, '');
  else if (lang === 'fr' || lang === 'it') w = w.replace(ELISION, '');
  else if (LOCALE_CASE.has(lang)) w = w.replace(APOSTROPHE_SUFFIX, '') || w;
  else if (lang === 'ro') w = w.replace(ROMANIAN_COMMA_BELOW, (c) => CEDILLA[c]!);
  if (stop && isStop(stop, w, lang)) return '';
  return normalizeTerm(stem ? stem(w) : w);
}

/** How an analyzer is said beside a score: "stemmed (Snowball en)", "words". */
export function analyzerWords(analyzer: AnalyzerName, language?: string): string {
  const stop = analyzer.endsWith('+stop') ? ', stop words dropped' : '';
  if (!analyzer.startsWith('stem')) return `words${stop}`;
  const lang = language ? primary(language) : undefined;
  if (lang && !(lang in STEMMERS)) return `words (no stemmer for ${lang})${stop}`;
  if (lang === 'ko') return `particles stripped (ko)${stop}`;
  return `stemmed${lang ? ` (${lang === 'en' ? 'Porter' : 'Snowball'} ${lang})` : ''}${stop}`;
}

/**
 * The language a query is analysed in, given its corpus's document languages (one per
 * document). Stemming makes this matter: a query stemmed for another language misses the
 * units' stems, and trigram detection misreads about one short question in twelve (SQuAD:
 * 8 % not English). So a one-language corpus analyses every query in its language; in a
 * mixed corpus the detected language counts when the corpus has it, else the corpus's most
 * common language (ties: the first document's).
 */
export function queryLanguage(query: string, languages: readonly string[]): string {
  if (!languages.length) return detectLanguage(query, 'en');
  const counts = new Map<string, number>();
  for (const l of languages) counts.set(l, (counts.get(l) ?? 0) + 1);
  let common = languages[0]!;
  for (const [l, n] of counts) if (n > counts.get(common)!) common = l;
  if (counts.size === 1) return common;
  const detected = detectLanguage(query, common);
  return counts.has(detected) ? detected : common;
}
