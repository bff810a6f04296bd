const wordSegmenters = new Map<string, Intl.Segmenter>();

function wordSegmenter(language: string): Intl.Segmenter {
  let s = wordSegmenters.get(language);
  if (!s) {
    s = new Intl.Segmenter(language, { granularity: 'word' });
    wordSegmenters.set(language, s);
  }
  return s;
}

/**
 * Normalises a term for lexical matching: lower case, NFKC, accents folded
 * ("Coração" → "coracao"), so a query typed without accents still matches.
 */
export function normalizeTerm(term: string): string {
  return term.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFKC');
}

/**
 * Word-like segments of `text` with Intl.Segmenter (ICU's dictionary segmentation makes
 * Chinese and Japanese work, where splitting on spaces makes a whole clause one token).
 * Returned normalised, for BM25.
 */
export function words(text: string, language = 'en'): string[] {
  const out: string[] = [];
  for (const s of wordSegmenter(language).segment(text)) {
    if (s.isWordLike) out.push(normalizeTerm(s.segment));
  }
  return out;
}

/** Word-like segments with their character spans (for splitting over-long sentences). */
export function wordSpans(text: string, language = 'en'): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const s of wordSegmenter(language).segment(text)) {
    if (s.isWordLike) out.push({ start: s.index, end: s.index + s.segment.length });
  }
  return out;
}
