/**
 * For tests: what segments() gave for the words of one window (a text of at most SEGMENT_WINDOW
 * characters) before the simple-text rules (simple-words.ts): ICU's word segments, split at "." or
 * ":" between letters. The rules and every path built on them are checked against it.
 */
export type Seg = [string, number, boolean];

/** What segments() gave for a text of one window before the simple-text rules: ICU's words, split at "." or ":" between letters. */
export function icuReference(text: string, language = 'en'): Seg[] {
  const out: Seg[] = [];
  for (const p of new Intl.Segmenter(language, { granularity: 'word' }).segment(text)) {
    if (!(p.isWordLike && /\p{L}[.:]\p{L}/u.test(p.segment))) {
      out.push([p.segment, p.index, Boolean(p.isWordLike)]);
      continue;
    }
    let from = 0;
    for (let i = 1; i < p.segment.length - 1; i++) {
      const c = p.segment[i]!;
      if ((c === '.' || c === ':') && /\p{L}/u.test(p.segment[i - 1]!) && /\p{L}/u.test(p.segment[i + 1]!)) {
        out.push([p.segment.slice(from, i), p.index + from, true], [c, p.index + i, false]);
        from = i + 1;
      }
    }
    out.push([p.segment.slice(from), p.index + from, true]);
  }
  return out;
}
