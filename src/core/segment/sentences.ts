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

/**
 * Japanese quotes a sentence inside one: 「明日来ます。」と言った。 ICU ends a sentence after the
 * closing bracket; a quotative と or って right after it means the sentence goes on.
 */
const QUOTE_CLOSED = /[。．！？!?][」』]+$/u;
const QUOTATIVE = /^(?:と|って)/u;

/**
 * UAX #29 counts opening brackets and quotes as "Close", so with no space after a full stop
 * ICU leaves the next sentence's opening bracket on this one: 聞いた。「 | はい。」, 他走了。“ | 我来了。”
 * Such a run at a segment's very end goes to the next sentence. (Followed by a space, as a German
 * closing “ is, it is not at the very end.)
 */
const OPENING_AT_END = /[\p{Ps}\p{Pi}]+$/u;

/**
 * Thai and Lao write no full stop: a space between two words of the script ends a sentence
 * (or a clause), as Thai readers and PyThaiNLP's whitespace splitter take it. Spaces beside
 * numbers and Latin words inside a sentence are left alone. ICU breaks neither.
 */
const SPACE_SENTENCE_END = /(?<=[\p{Script=Thai}\p{Script=Lao}][\p{M}]*)\s+(?=[\p{Script=Thai}\p{Script=Lao}])/gu;

function pushSplitAtScriptSpaces(text: string, span: Span, out: Span[]): void {
  const t = text.slice(span.start, span.end);
  let from = 0;
  for (const m of t.matchAll(SPACE_SENTENCE_END)) {
    out.push({ start: span.start + from, end: span.start + m.index! });
    from = m.index! + m[0].length;
  }
  out.push(from ? { start: span.start + from, end: span.end } : span);
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
 * headings, paragraphs and list items). Empty segments are dropped. Thai and Lao sentences
 * end at spaces; a Japanese quotation followed by と stays in its sentence.
 */
export function splitSentences(text: string, language = 'en'): Span[] {
  const rules = abbreviationRules(language);
  const out: Span[] = [];
  const spaced = /[\p{Script=Thai}\p{Script=Lao}]/u.test(text);
  const push = (span: Span) => (spaced ? pushSplitAtScriptSpaces(text, span, out) : out.push(span));
  let pending: Span | null = null;
  let pendingHard = false;
  let carry: number | null = null;
  for (const seg of segments(text, 0, text.length, language, 'sentence')) {
    const index: number = carry ?? seg.index;
    let raw = carry === null ? seg.segment : text.slice(carry, seg.index + seg.segment.length);
    carry = null;
    const opening = OPENING_AT_END.exec(raw);
    if (opening && opening.index > 0 && index + raw.length < text.length) {
      carry = index + opening.index;
      raw = raw.slice(0, opening.index);
    }
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const span = { start: index + lead, end: index + lead + trimmed.length };
    const prev = pending && !pendingHard ? text.slice(pending.start, pending.end) : null;
    const quoted = prev !== null && pending!.end === span.start && QUOTE_CLOSED.test(prev) && QUOTATIVE.test(trimmed);
    if (prev !== null && (quoted || shouldJoin(prev, trimmed, rules))) {
      pending!.end = span.end;
    } else {
      if (pending) push(pending);
      pending = span;
    }
    pendingHard = /[\n\r\u2029]/.test(raw.slice(lead + trimmed.length));
  }
  if (pending) push(pending);
  return out;
}
