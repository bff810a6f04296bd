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
 * Greek writes its question mark as ";" (U+037E, which NFC makes ";"). ICU ends a sentence there
 * only for text tagged Greek, so a Greek passage in a document detected as something else
 * (a mixed document, a short one) ran its questions into the next sentence: after a Greek letter
 * (and closing quotes or brackets), ";" and a space end a sentence whatever the tag.
 */
const GREEK_QUESTION = /(?<=\p{Script=Greek}\p{M}*[»"”’)\]]*;)\s+(?=\S)/gu;

/** Scripts written without a full stop (Thai, Lao) or with one used sparingly (Khmer ។, Myanmar ။): a space separates phrases. */
const PHRASE_SCRIPTS = '\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
const HAS_PHRASE_SCRIPT = new RegExp(`[${PHRASE_SCRIPTS}]`, 'u');
/** A space between two letters of those scripts: a phrase boundary. A space beside a number or a Latin word is inside a phrase. */
const PHRASE_BOUNDARY = new RegExp(`(?<=[${PHRASE_SCRIPTS}]\\p{M}*)\\s+(?=[${PHRASE_SCRIPTS}])`, 'gu');

/**
 * A character outside Latin's letters and marks (below U+0370) and General Punctuation (quotes,
 * dashes): every Greek letter and every letter of the phrase scripts is one (sentences.test.ts).
 */
export const BEYOND_LATIN = /[^\u0000-\u036f\u2000-\u206f]/;

/**
 * The rule for those scripts: a sentence is a run of phrases of at least PHRASE_SENTENCE_WORDS
 * words (Intl.Segmenter's dictionary words). A sentence ends at a phrase boundary once it has that
 * many words, unless the next phrase opens with a word that continues a sentence ("and", "but",
 * "which", …) or fewer than that many words would be left before the end of the ICU sentence
 * (a short tail joins the sentence before it: Thai writes a space inside a name, "โทมัส วาร์เนล"). ICU's own breaks (newlines, ។ ။ ? !) stay.
 * Every space used to end a sentence: a Thai article came out as 130 "sentences" of a few words
 * where its translations had 21–24, and a window of ±3 of them held a few phrases. Ten words:
 * measured on the lab's parallel set, Thai has 22 words for each English sentence (19 English
 * words), and its phrases 8.
 */
export const PHRASE_SENTENCE_WORDS = 10;

/** Words that open a phrase continuing the sentence before it: and, but, or, which/that, by, because, so, in order to, causing, then, that (said). */
const CONTINUING = new Set([
  'และ', 'แต่', 'หรือ', 'ซึ่ง', 'โดย', 'เพราะ', 'จึง', 'เพื่อ', 'ทำให้', 'ก็', 'ว่า', 'ที่', 'จน', 'แล้ว',
  'ແລະ', 'ແຕ່', 'ຫຼື', 'ເຊິ່ງ', 'ໂດຍ', 'ເພາະ', 'ຈຶ່ງ', 'ເພື່ອ', 'ທີ່',
  'និង', 'ប៉ុន្តែ', 'ឬ', 'ដែល', 'ដោយ', 'ព្រោះ', 'ដើម្បី',
].map((w) => w.normalize('NFKC')));

/** Splits one ICU sentence of a phrase script into sentence-sized runs of phrases (the rule above). */
function pushPhraseSentences(text: string, span: Span, language: string, out: Span[]): void {
  const t = text.slice(span.start, span.end);
  const boundaries = [...t.matchAll(PHRASE_BOUNDARY)].map((m) => ({ at: m.index!, after: m.index! + m[0].length }));
  if (!boundaries.length) {
    out.push(span);
    return;
  }
  // Word starts (offsets in t) and the first word of each phrase, in one pass of the word segmenter.
  const starts: number[] = [];
  const firstWordAt = new Map<number, string>();
  const phraseStarts = new Set(boundaries.map((b) => b.after));
  for (const w of segments(t, 0, t.length, language, 'word')) {
    if (!w.isWordLike) continue;
    starts.push(w.index);
    if (phraseStarts.has(w.index)) firstWordAt.set(w.index, w.segment.normalize('NFKC'));
  }
  const wordsBetween = (from: number, to: number) => lowerBound(starts, to) - lowerBound(starts, from);
  let from = 0;
  for (const b of boundaries) {
    if (wordsBetween(from, b.at) < PHRASE_SENTENCE_WORDS) continue;
    if (wordsBetween(b.after, t.length) < PHRASE_SENTENCE_WORDS) break;
    if (CONTINUING.has(firstWordAt.get(b.after) ?? '')) continue;
    out.push({ start: span.start + from, end: span.start + b.at });
    from = b.after;
  }
  out.push(from ? { start: span.start + from, end: span.end } : span);
}

/** The first index in sorted `xs` whose value is ≥ x. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Splits a span after each Greek question mark (GREEK_QUESTION). */
function splitGreekQuestions(text: string, span: Span): Span[] {
  const t = text.slice(span.start, span.end);
  if (!t.includes(';')) return [span];
  const out: Span[] = [];
  let from = 0;
  for (const m of t.matchAll(GREEK_QUESTION)) {
    out.push({ start: span.start + from, end: span.start + m.index! });
    from = m.index! + m[0].length;
  }
  out.push(from ? { start: span.start + from, end: span.end } : span);
  return out;
}

/** Should the segment `prev` be joined with the segment that follows it? */
function shouldJoin(prev: string, next: string, rules: AbbreviationRules): boolean {
  if (LIST_MARKER.test(prev)) return true; // "1." alone is a list number, not a sentence
  const word = lastDottedWord(prev);
  if (word === null || word === '') return false;
  const key = word.toLowerCase();
  if (rules.always.has(key)) return true;
  if (/^\p{Lu}$/u.test(word)) return true; // an initial: "John F. Kennedy"
  // An initial of a script without case: one letter with its vowel signs (Hindi "ए. आर. रहमान", "डॉ."; Arabic "د.").
  if (/^\p{Lo}\p{M}*$/u.test(word) && !rules.unlessOpener.has(key)) return true;
  if (rules.ordinalDot && /^\d{1,4}$/.test(word)) return true; // de: "am 3. Mai"
  if (rules.unlessOpener.has(key)) {
    const opener = firstWord(next);
    // A capitalised opener ("The", "In") after "U.S." means a real sentence end (in a script without case, any opener).
    const capitalised = /^\p{Lu}/u.test(opener) || !/[\p{Lu}\p{Ll}]/u.test(opener);
    return !(opener && capitalised && rules.openers.has(opener.toLowerCase()));
  }
  return false;
}

/**
 * Sentence spans of `text` with Intl.Segmenter plus a small per-language repair of its
 * known false breaks (abbreviations, initials, list numbers, German ordinals). Spans
 * exclude surrounding whitespace; a newline is always a boundary (loaders put one after
 * headings, paragraphs and list items). Empty segments are dropped. Thai, Lao, Khmer and Burmese
 * sentences are runs of phrases of at least PHRASE_SENTENCE_WORDS words; a Greek ";" ends a
 * question whatever the language tag; a Japanese quotation followed by と stays in its sentence.
 */
export function splitSentences(text: string, language = 'en'): Span[] {
  const rules = abbreviationRules(language);
  const out: Span[] = [];
  // Two Unicode-property scans of every text cost more than the rest of the checks: most text fails a cheap range test first.
  const beyond = BEYOND_LATIN.test(text);
  const phrases = beyond && HAS_PHRASE_SCRIPT.test(text);
  const greek = beyond && /\p{Script=Greek}/u.test(text);
  const push = (span: Span) => {
    for (const s of greek ? splitGreekQuestions(text, span) : [span]) {
      if (phrases && HAS_PHRASE_SCRIPT.test(text.slice(s.start, s.end))) pushPhraseSentences(text, s, language, out);
      else out.push(s);
    }
  };
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
