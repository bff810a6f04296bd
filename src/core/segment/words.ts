import { segments } from './segmenters';

/**
 * Combining marks after a letter of these scripts are accents or optional pointing, folded
 * away ("é" → "e", Greek tonos, Cyrillic "ё", Arabic hamza and harakat, Hebrew niqqud).
 * Elsewhere marks spell the word and are kept: Indic vowel signs and virama (Hindi की, के,
 * को would all become क), Thai vowels and tones, kana voicing (が is not か). Common and
 * Inherited cover marks on digits, punctuation and other marks.
 */
/**
 * Characters that never change what a word is: format characters (zero-width joiners and spaces,
 * soft hyphens) and the Arabic tatweel (ـ, a justification stroke: "العـــربية" is "العربية", as
 * Lucene's Arabic normaliser has it). Shared with the BM25 analyzer's lower-casing.
 */
export const INVISIBLE_IN_WORDS = /[\p{Cf}\u0640]+/gu;

const FOLDED_MARKS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Common}\p{Script=Inherited}])\p{M}+/gu;

/**
 * Normalises a term for lexical matching: lower case, NFKC, accents folded
 * ("Coração" → "coracao"), so a query typed without accents still matches.
 * Turkish dotless ı folds to i as its ş, ğ, ö fold to s, g, o ("IĞDIR" lower-cases to
 * "iğdir" without the Turkish locale, a typed "ığdır" must meet it). Greek final ς folds to σ,
 * as Unicode case folding does (a capitalised word's last Σ lower-cases to either).
 */
export function normalizeTerm(term: string): string {
  // ASCII: only case to fold (the same result, without three normalisation passes).
  if (/^[\x00-\x7f]*$/.test(term)) return term.toLowerCase();
  return term.normalize('NFKD').replace(INVISIBLE_IN_WORDS, '').replace(FOLDED_MARKS, '$1').toLowerCase().replace(/ı/g, 'i').replace(/ς/g, 'σ').normalize('NFKC');
}

/**
 * Word-like segments of `text` with Intl.Segmenter (ICU's dictionary segmentation makes
 * Chinese and Japanese work, where splitting on spaces makes a whole clause one token).
 * Returned normalised, for BM25.
 */
export function words(text: string, language = 'en'): string[] {
  const out: string[] = [];
  for (const s of segments(text, 0, text.length, language, 'word')) {
    if (s.isWordLike) out.push(normalizeTerm(s.segment));
  }
  return out;
}
