import { abbreviationRules, type AbbreviationRules } from './abbreviations';
import { segments } from './segmenters';

/** A character span [start, end) into the source text. */
export interface Span {
  start: number;
  end: number;
}


const LIST_MARKER = /^\(?(?:\d{1,3}|[a-z]|[ivxlcdm]{1,6})[.)]$/i;
const LEADING_PUNCT = /^[("'“‘«¿¡[]+/;

/** The word before the final dot of a segment, lower-cased ("Dr." → "dr", "U.S." → "u.s"). */
function lastDottedWord(text: string): string | null {
  if (!text.endsWith('.')) return null;
  const m = /(\S+)\.$/.exec(text);
  return m ? m[1]!.replace(LEADING_PUNCT, '') : null;
}

function firstWord(text: string): string {
  const m = /^[\s"'“‘«(¿¡]*([\p{L}\p{N}]+)/u.exec(text);
  return m ? m[1]! : '';
}

/** Should the segment `prev` be joined with the segment that follows it? */
function shouldJoin(prev: string, next: string, rules: AbbreviationRules): boolean {
  if (LIST_MARKER.test(prev)) return true; // "1." alone is a list number, not a sentence
  const word = lastDottedWord(prev);
  if (word === null || word === '') return false;
  const key = word.toLowerCase();
  if (rules.always.has(key)) return true;
  if (/^\p{Lu}$/u.test(word)) return true; // an initial: "John F. Kennedy"
  if (rules.ordinalDot && /^\d{1,4}$/.test(word)) return true; // de: "am 3. Mai"
  if (rules.unlessOpener.has(key)) {
    const opener = firstWord(next);
    // A capitalised opener ("The", "In") after "U.S." means a real sentence end.
    return !(opener && /^\p{Lu}/u.test(opener) && rules.openers.has(opener.toLowerCase()));
  }
  return false;
}

/**
 * Sentence spans of `text` with Intl.Segmenter plus a small per-language repair of its
 * known false breaks (abbreviations, initials, list numbers, German ordinals). Spans
 * exclude surrounding whitespace; a newline is always a boundary (loaders put one after
 * headings, paragraphs and list items). Empty segments are dropped.
 */
export function splitSentences(text: string, language = 'en'): Span[] {
  const rules = abbreviationRules(language);
  const out: Span[] = [];
  let pending: Span | null = null;
  let pendingHard = false;
  for (const seg of segments(text, 0, text.length, language, 'sentence')) {
    const raw = seg.segment;
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const span = { start: seg.index + lead, end: seg.index + lead + trimmed.length };
    if (pending && !pendingHard && shouldJoin(text.slice(pending.start, pending.end), trimmed, rules)) {
      pending.end = span.end;
    } else {
      if (pending) out.push(pending);
      pending = span;
    }
    pendingHard = /[\n\r\u2029]/.test(raw.slice(lead + trimmed.length));
  }
  if (pending) out.push(pending);
  return out;
}
