/**
 * SQuAD's answer normalisation, per language as MLQA's evaluation script does it: lower case,
 * punctuation removed (every Unicode punctuation character and ASCII's string.punctuation),
 * the language's articles removed, spaces collapsed. Scripts written without spaces between
 * words (Chinese, Japanese, Thai, Lao, Khmer, Burmese) are compared character by character —
 * MLQA's "mixed segmentation" for Chinese, by script so a Han name inside English text counts
 * the same way; runs of other letters stay words.
 * Hand-written: it is a few lines, and matching the reference scripts exactly matters more than
 * any library's idea of normalisation.
 */

/** Unicode punctuation (general category P*) plus the ASCII symbols Python's string.punctuation adds. */
const PUNCTUATION = /[\p{P}$+<=>^`|~]/gu;

/** Characters that are each a token: scripts written without spaces between words. */
const CHARACTER_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const MARK = /\p{M}/u;

/**
 * Articles per language (ISO 639-1), dropped as whole words. en, es, de and vi are MLQA's lists;
 * the others follow the same rule (definite and indefinite articles, nothing else). Languages
 * without articles, or whose articles are suffixes (ro, sv, da, no, bg), have none.
 */
export const ARTICLES: Readonly<Record<string, readonly string[]>> = {
  en: ['a', 'an', 'the'],
  es: ['un', 'una', 'unos', 'unas', 'el', 'la', 'los', 'las'],
  de: ['ein', 'eine', 'einen', 'einem', 'eines', 'einer', 'der', 'die', 'das', 'den', 'dem', 'des'],
  vi: ['của', 'là', 'cái', 'chiếc', 'những'],
  pt: ['o', 'a', 'os', 'as', 'um', 'uma', 'uns', 'umas'],
  fr: ['le', 'la', 'les', 'un', 'une', 'des'],
  it: ['il', 'lo', 'la', 'i', 'gli', 'le', 'un', 'uno', 'una'],
  ca: ['el', 'la', 'els', 'les', 'un', 'una', 'uns', 'unes'],
  nl: ['de', 'het', 'een'],
  el: ['ο', 'η', 'το', 'οι', 'τα', 'του', 'της', 'των', 'τον', 'την', 'τους', 'τις', 'ένας', 'μια', 'μία', 'ένα', 'ενός', 'μιας', 'έναν'],
};

/** Elided articles written onto the next word (l'homme, dell'): removed before punctuation is. */
const ELIDED: Readonly<Record<string, RegExp>> = {
  fr: /(^|\s)l['’]/gu,
  it: /(^|\s)(?:l|un)['’]/gu,
  ca: /(^|\s)l['’]/gu,
};

/** The primary subtag of a language tag ("pt-BR" → "pt"), lower case. */
function baseLanguage(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0] ?? '';
}

/** Splits on spaces, then makes every character of a no-space script its own token (with its combining marks). */
function segment(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/u)) {
    if (!word) continue;
    let run = '';
    for (const ch of word) {
      if (MARK.test(ch) && !run && out.length && CHARACTER_SCRIPTS.test(out[out.length - 1]!)) {
        out[out.length - 1] += ch;
      } else if (CHARACTER_SCRIPTS.test(ch)) {
        if (run) out.push(run);
        run = '';
        out.push(ch);
      } else run += ch;
    }
    if (run) out.push(run);
  }
  return out;
}

/**
 * The answer's tokens after SQuAD/MLQA normalisation in `language` (the document's; articles of
 * other languages are kept). Arabic drops the word-initial article ال (MLQA's pattern removes
 * the two letters anywhere, which was not its intent).
 */
export function answerTokens(text: string, language = 'en'): string[] {
  const lang = baseLanguage(language);
  let t = text.normalize('NFKC').toLowerCase();
  const elided = ELIDED[lang];
  if (elided) t = t.replace(elided, '$1');
  t = t.replace(PUNCTUATION, '');
  const articles = ARTICLES[lang];
  let tokens = segment(t);
  if (articles) tokens = tokens.filter((w) => !articles.includes(w));
  if (lang === 'ar') tokens = tokens.map((w) => (w.length > 3 && w.startsWith('ال') ? w.slice(2) : w));
  return tokens;
}

/** The normalised answer as one string (tokens joined by single spaces): what exact match compares. */
export function normalizeForMatch(text: string, language = 'en'): string {
  return answerTokens(text, language).join(' ');
}
