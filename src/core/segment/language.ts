import { SCRIPT_LANGUAGES, TRIGRAM_LANGUAGES } from './language-tags';
import { CodePointClasses, codePointCounts } from './code-points';
import { trigramGuess } from './trigram-languages';

/**
 * Language detection: the script first, then franc's trigrams among the languages of that script
 * the lab names. franc (187 languages, not franc-min's 82): without it Danish, Norwegian, Finnish,
 * Lithuanian, Slovak, Catalan… — languages the analyzer stems or has stop words for — were named
 * as some other language; its trigram data costs ~136 KB more in the worker's bundle.
 */

/**
 * How common each language's text is (roughly, its share of the web), most common first. Used
 * only to choose between candidates the trigrams cannot tell apart (a heading-only file, a
 * few words): "Introduction / Installation / Usage" is French by trigrams by a hair, and English
 * far more often. Languages not listed come after these, in franc's order.
 */
const PREVALENCE = ['en', 'es', 'de', 'ru', 'ja', 'fr', 'pt', 'it', 'zh', 'nl', 'pl', 'tr', 'fa', 'vi', 'id', 'ko', 'cs', 'ar', 'uk', 'sv', 'hu', 'el', 'ro', 'da', 'fi', 'he', 'nb', 'sk', 'th', 'bg', 'hr', 'sr', 'lt', 'hi', 'sl', 'et', 'lv', 'ca', 'ms', 'bn', 'kk', 'az'];

/** How sure a guess is. */
export interface LanguageGuess {
  /** BCP-47 primary tag. */
  language: string;
  /** 0–1: the share of letters in the script for a script-told language; from the trigram margin and the sample's size otherwise. */
  confidence: number;
  /** Confident enough to act on without asking: at least SURE_CONFIDENCE. */
  sure: boolean;
  /** `script`: the script has one language; `trigrams`: franc among the script's languages; `none`: too few letters to tell. */
  by: 'script' | 'trigrams' | 'none';
  /** The next candidates, most likely first (what the page offers to switch to). */
  alternatives: string[];
}

/** A guess at least this confident is "sure"; below it a document's list entry says its language is unsure. */
export const SURE_CONFIDENCE = 0.5;
/** Letters a trigram guess needs for full confidence (a paragraph); fewer scale it down (a heading, a few words). */
const LETTERS_FOR_CONFIDENCE = 200;
/**
 * Trigram margin (the winner's score over the runner-up's, per distinct trigram) that counts as a
 * clear win. Measured on 1,100 paragraphs in 12 languages (XQuAD, FaQuAD, the lab's parallel set):
 * every paragraph whose margin was 0.02 or more was told right.
 */
const CLEAR_MARGIN = 0.04;
/**
 * On a few words two candidates this close are a tie, decided by PREVALENCE. The margin shrinks to
 * nothing as the sample grows to LETTERS_FOR_CONFIDENCE letters: on a paragraph the trigrams know
 * better than any prior (with a fixed tie margin, Portuguese paragraphs went to Spanish).
 */
const TIE_MARGIN = 0.1;
/** Fewer letters than this: nothing for trigrams to tell (a script still tells its language). */
const MIN_LETTERS = 3;

/** What the guess counts in a sample: letters with their marks (an Indic or Thai word spells its vowels as marks, and is no shorter for it), kana, Hangul, Han, then each of SCRIPT_LANGUAGES' scripts. */
const SAMPLE_CLASSES = new CodePointClasses([
  /[\p{L}\p{M}]/u,
  /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
  /\p{Script=Hangul}/u,
  /\p{Script=Han}/u,
  ...SCRIPT_LANGUAGES.map(([script]) => script),
]);

const rank = (language: string) => {
  const i = PREVALENCE.indexOf(language);
  return i < 0 ? PREVALENCE.length : i;
};

/**
 * Guesses the language of a document from a sample of its text, and says how sure. Script
 * first (Chinese is told from Japanese by kana, franc confuses short samples of them); then
 * franc's trigrams among the script's languages. The text is read as NFC, so a decomposed
 * (NFD) document is told as its composed form.
 */
export function guessLanguage(text: string): LanguageGuess {
  const sample = text.slice(0, 4000).normalize('NFC');
  // Each class's count from the sample's distinct characters (code-points.ts), as the regular expressions would count them.
  const [letters = 0, kanaCount = 0, hangulCount = 0, hanCount = 0, ...scriptCounts] = SAMPLE_CLASSES.tally(codePointCounts(sample));
  const none: LanguageGuess = { language: 'und', confidence: 0, sure: false, by: 'none', alternatives: [] };
  if (!letters) return none;
  const share = (re: RegExp) => (sample.match(re) ?? []).length / letters;
  const kana = kanaCount / letters;
  const hangul = hangulCount / letters;
  const han = hanCount / letters;
  const byScript = (language: string, s: number, alternatives: string[] = []): LanguageGuess => {
    // A few letters of a script are a label or a name, not a document: sure from a sentence on.
    const confidence = Math.min(1, s) * Math.min(1, letters / 20);
    return { language, confidence, sure: confidence >= SURE_CONFIDENCE, by: 'script', alternatives };
  };
  if (kana > 0.05) return byScript('ja', kana + han, ['zh']);
  if (hangul > 0.3) return byScript('ko', hangul);
  if (han > 0.3) return byScript('zh', han, ['ja']);
  for (const [k, [, language]] of SCRIPT_LANGUAGES.entries()) {
    const s = scriptCounts[k]! / letters;
    if (s > 0.3) return byScript(language, s);
  }
  if (letters < MIN_LETTERS) return none;
  const guess = trigramGuess(sample, ONLY);
  const scores = guess.scores.filter(([code]) => code in TRIGRAM_LANGUAGES);
  if (!scores.length) return none;
  const candidates = scores.map(([code, score]) => ({ language: TRIGRAM_LANGUAGES[code]!, score }));
  // One language of the script: franc answers it alone, as sure as the script is the text's.
  if (candidates.length === 1) {
    const only = candidates[0]!.language;
    const script = LANGUAGE_SCRIPT[only];
    return byScript(only, script ? share(new RegExp(`\\p{Script=${script}}`, 'gu')) : 1);
  }
  // Candidates within TIE_MARGIN of the best are a tie: the more common language wins.
  // franc's scores are 1 − (d − d_best) / (300 · length): a trigram distance over the sample's
  // length, so the same gap means more on a long sample. Per distinct trigram (what d sums over)
  // the margin reads alike for a heading, a paragraph and a whole article.
  const perTrigram = Math.min(sample.length, FRANC_MAX_LENGTH) / Math.max(1, guess.distinct);
  for (const c of candidates) c.score *= perTrigram;
  const best = candidates[0]!.score;
  const tie = TIE_MARGIN * Math.max(0, 1 - letters / LETTERS_FOR_CONFIDENCE);
  const tied = candidates.filter((c) => best - c.score <= tie);
  const chosen = tied.reduce((a, b) => (rank(b.language) < rank(a.language) ? b : a));
  const rest = candidates.filter((c) => c !== chosen);
  const margin = chosen.score - rest[0]!.score;
  const confidence = Math.max(0, Math.min(1, margin / CLEAR_MARGIN)) * Math.min(1, letters / LETTERS_FOR_CONFIDENCE);
  const alternatives = [...new Set(rest.slice(0, 3).map((c) => c.language))];
  return { language: chosen.language, confidence: round2(confidence), sure: confidence >= SURE_CONFIDENCE, by: 'trigrams', alternatives };
}

/** franc reads this many characters of a sample. */
const FRANC_MAX_LENGTH = 2048;

const ONLY = Object.keys(TRIGRAM_LANGUAGES);

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The script of each language franc tells by its script alone. */
const LANGUAGE_SCRIPT: Record<string, string> = {
  el: 'Greek', th: 'Thai', bn: 'Bengali', te: 'Telugu', ta: 'Tamil', gu: 'Gujarati', kn: 'Kannada', ml: 'Malayalam', pa: 'Gurmukhi', si: 'Sinhala',
};

/**
 * The language of a text as one tag (queries, callers that need no confidence): the guess, or
 * `fallback` when there are too few letters to guess at all.
 */
export function detectLanguage(text: string, fallback = 'en'): string {
  const g = guessLanguage(text);
  return g.by === 'none' ? fallback : g.language;
}
