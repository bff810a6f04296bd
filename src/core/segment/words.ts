import { segments } from './segmenters';

/**
 * Normalises a term for lexical matching: lower case, NFKC, accents folded
 * ("Coração" → "coracao"), so a query typed without accents still matches.
 */
export function normalizeTerm(term: string): string {
  // Format characters (zero-width joiners and spaces) never change what a word is.
  return term.normalize('NFKD').replace(/[\p{M}\p{Cf}]+/gu, '').toLowerCase().normalize('NFKC');
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
