import { canonicalLanguage } from '../util/language-tag';
import { Cls, cls, isSimple, probeText, visitSimpleWords } from './simple-words';

const cache = new Map<string, Intl.Segmenter>();

/**
 * One Intl.Segmenter per (language, granularity): they are costly to create and reusable.
 * A tag Intl refuses ("en_US") is canonicalised, or segmented language-neutrally ('und'):
 * the constructor's RangeError used to abort a whole index, export or eval.
 */
export function segmenter(language: string, granularity: 'word' | 'sentence'): Intl.Segmenter {
  const key = `${language}|${granularity}`;
  let s = cache.get(key);
  if (!s) {
    s = new Intl.Segmenter(canonicalLanguage(language) ?? 'und', { granularity });
    cache.set(key, s);
  }
  return s;
}

export interface Segment {
  segment: string;
  /** Offset in the whole text. */
  index: number;
  isWordLike?: boolean;
}

/**
 * Segmenting one long string is superlinear in V8's Intl.Segmenter under Node (60k
 * characters: 370 ms whole, 23 ms in 2k slices), so long text goes through in windows.
 */
export const SEGMENT_WINDOW = 2048;

/**
 * ICU versions disagree on a '.' or ':' between letters: Node 20 keeps "U.S", "e.g",
 * "Amazon.com" and "NTL:Telewest" as one word, Chromium breaks there. Words feed BM25 terms
 * and naive chunk cuts, so a corpus split in Node (the CLI) and in the page must agree:
 * such a word is always split, as Chromium does. Digits ("3.14") are left to ICU, which agrees.
 */
const MID_WORD_STOP = /\p{L}[.:]\p{L}/u;

function* splitAtStops(word: string, index: number): Generator<Segment> {
  let from = 0;
  for (let i = 1; i < word.length - 1; i++) {
    const c = word[i]!;
    if ((c === '.' || c === ':') && /\p{L}/u.test(word[i - 1]!) && /\p{L}/u.test(word[i + 1]!)) {
      yield { segment: word.slice(from, i), index: index + from, isWordLike: true };
      yield { segment: c, index: index + i, isWordLike: false };
      from = i + 1;
    }
  }
  yield { segment: word.slice(from), index: index + from, isWordLike: true };
}

/** Punctuation no word runs across (full stops, commas, closing brackets: 。、」 . , )). */
const WORD_END = /[\p{Po}\p{Pe}\p{Pf}]/u;

/** The offset after the last such punctuation in text[from, to), or -1: the cut for a run without whitespace (Japanese, Chinese). */
function lastPunctuation(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (WORD_END.test(text[i]!)) return i + 1;
  return -1;
}

/** The last whitespace in text[from, to), or -1. */
function lastSpace(text: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (/\s/.test(text[i]!)) return i + 1;
  return -1;
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * The last grapheme boundary after `min` and at or before `at` (else `at`): a hard cut in a run
 * without whitespace split emoji's surrogate pairs, a letter from its combining marks or a ZWJ
 * sequence, and lone surrogates reached sentences, BM25 terms and chunk edges.
 */
function graphemeCut(text: string, min: number, at: number): number {
  const from = Math.max(min, at - 64);
  let cut = from;
  for (const g of graphemes.segment(text.slice(from, at + 64))) {
    if (from + g.index > at) break;
    cut = from + g.index;
  }
  return cut > from ? cut : at;
}

/** One segment as the word visitors get it: the segment, its offset in its own text, whether it is word-like. */
export type WordVisitor = (segment: string, index: number, isWordLike: boolean) => void;

/** The segments of one ICU word segment, split at stops between letters (MID_WORD_STOP) as segments() splits them. */
function visitWord(segment: string, index: number, isWordLike: boolean, visit: WordVisitor): void {
  if (!(isWordLike && MID_WORD_STOP.test(segment))) return visit(segment, index, isWordLike);
  for (const p of splitAtStops(segment, index)) visit(p.segment, p.index, p.isWordLike!);
}

/** Node 20's ICU word iteration slows with the string's length (a 2,048-character string: 1.6× the time of 512-character ones), Chromium's pays ~50 µs a call instead: texts are joined up to this. */
const JOIN_LIMIT = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node ? 512 : SEGMENT_WINDOW;

/**
 * The word segments of each of many texts, exactly as segments(text, 0, text.length, language,
 * 'word') gives them, in order: `visit(i, …)` for text i's segments (offsets in text i), then
 * `done(i)` once it has had all of them (also for an empty text).
 *
 * Why not one call a text: every Intl.Segmenter call costs about 50 µs in Chromium besides its
 * characters (100k sentences' words: 3.4 s a sentence at a time, 1.3 s in 2,048-character
 * windows), and BM25 analyses one unit at a time. So consecutive texts of one language are joined
 * by a line feed into calls of up to JOIN_LIMIT characters: a line feed is a word boundary on
 * both sides that no rule of UAX #29 joins across (WB3a, WB3b; the one exception, CR × LF, is kept
 * out by taking a text that ends in CR alone), and each segment is mapped back to its text. A
 * text longer than SEGMENT_WINDOW goes alone through segments()' windows, as before.
 */
export function visitWordsOfMany(
  texts: readonly string[],
  languageOf: (i: number) => string,
  visit: (i: number, segment: string, index: number, isWordLike: boolean) => void,
  done: (i: number) => void,
): void {
  let i = 0;
  while (i < texts.length) {
    const language = languageOf(i);
    const first = texts[i]!;
    if (first.length > SEGMENT_WINDOW || first.endsWith('\r')) {
      const k = i;
      visitWords(first, 0, first.length, language, (seg, index, wordLike) => visit(k, seg, index, wordLike));
      done(i++);
      continue;
    }
    // texts[i, j) joined by line feeds.
    let j = i + 1;
    let length = first.length;
    while (j < texts.length && length + 1 + texts[j]!.length <= JOIN_LIMIT && !texts[j]!.endsWith('\r') && languageOf(j) === language) length += 1 + texts[j++]!.length;
    if (j === i + 1) {
      const k = i;
      visitWordWindow(first, 0, first.length, language, (seg, index, wordLike) => visit(k, seg, index, wordLike));
      done(i++);
      continue;
    }
    const joined = texts.slice(i, j).join('\n');
    let k = i;
    let base = 0;
    let end = first.length;
    visitWordWindow(joined, 0, joined.length, language, (segment, index, isWordLike) => {
      // The line feed between two texts is a segment of its own: it closes text k.
      while (index >= end) {
        done(k++);
        base = end + 1;
        end = base + texts[k]!.length;
        if (index < base) return;
      }
      if (index >= base) visit(k, segment, index - base, isWordLike);
    });
    while (k < j) done(k++);
    i = j;
  }
}

/**
 * Segments text[start, end) in windows of about SEGMENT_WINDOW characters, cut at
 * whitespace, else after punctuation (long Chinese and Japanese runs: a cut inside a word made
 * two wrong BM25 terms), else at a grapheme boundary. For
 * sentences, the last sentence of a window is segmented again with the next window, so
 * windows never split a sentence that ICU would have kept whole.
 */
export function* segments(text: string, start: number, end: number, language: string, granularity: 'word' | 'sentence'): Generator<Segment> {
  const seg = segmenter(language, granularity);
  let pos = start;
  while (pos < end) {
    const stop = windowEnd(text, pos, end);
    if (granularity === 'word') {
      const out: Segment[] = [];
      visitWordWindow(text, pos, stop, language, (segment, index, isWordLike) => out.push({ segment, index, isWordLike }));
      yield* out;
      pos = stop;
      continue;
    }
    const parts = [...seg.segment(text.slice(pos, stop))];
    if (stop < end && parts.length > 1) {
      const last = parts.pop()!;
      for (const p of parts) yield { segment: p.segment, index: pos + p.index };
      pos += last.index;
      continue;
    }
    for (const p of parts) yield { segment: p.segment, index: pos + p.index, isWordLike: p.isWordLike };
    pos = stop;
  }
}

/** Where the window that starts at `pos` ends (segments() and visitWords() cut alike). */
function windowEnd(text: string, pos: number, end: number): number {
  const stop = Math.min(end, pos + SEGMENT_WINDOW);
  if (stop >= end) return stop;
  const space = lastSpace(text, pos + SEGMENT_WINDOW / 2, stop);
  const punct = space > pos ? -1 : lastPunctuation(text, pos + SEGMENT_WINDOW / 2, stop);
  return space > pos ? space : punct > pos ? punct : graphemeCut(text, pos, stop);
}

/** segments(text, start, end, language, 'word') as calls of `visit` (offsets in the whole text): no generator, no object a segment. */
export function visitWords(text: string, start: number, end: number, language: string, visit: WordVisitor): void {
  for (let pos = start; pos < end; ) {
    const stop = windowEnd(text, pos, end);
    visitWordWindow(text, pos, stop, language, visit);
    pos = stop;
  }
}

/** Per segmenter language: do the simple-text rules (simple-words.ts) give ICU's segments on the probe? */
const simpleAgrees = new Map<string, boolean>();

/**
 * Checks the simple-text rules against this ICU once per language, on every three probe
 * characters in a row (simple-words.ts): a browser whose ICU reads them otherwise keeps ICU.
 */
export function simpleWordsAgree(language: string): boolean {
  let ok = simpleAgrees.get(language);
  if (ok === undefined) {
    const probe = probeText();
    const fast: string[] = [];
    const icu: string[] = [];
    const record = (into: string[]) => (segment: string, index: number, isWordLike: boolean) => into.push(`${index}:${isWordLike ? 1 : 0}:${segment}`);
    visitSimpleWords(probe, 0, probe.length, 0, record(fast));
    // In lines of a few hundred characters (a line feed breaks on both sides), as ICU is fastest on them in Node.
    for (let from = 0; from < probe.length; ) {
      let to = Math.min(probe.length, from + 400);
      while (to < probe.length && probe[to - 1] !== '\n') to++;
      icuWords(probe, from, to, language, record(icu));
      from = to;
    }
    ok = fast.length === icu.length && fast.every((x, i) => x === icu[i]);
    simpleAgrees.set(language, ok);
  }
  return ok;
}

/** ICU's word segments of text[from, to), split at stops between letters; offsets in the whole text. */
function icuWords(text: string, from: number, to: number, language: string, visit: WordVisitor): void {
  for (const p of segmenter(language, 'word').segment(text.slice(from, to))) visitWord(p.segment, from + p.index, Boolean(p.isWordLike), visit);
}

/**
 * A place where ICU starts afresh: after a space, tab or line feed, before a character that no word
 * rule attaches to what precedes it (a letter, digit, punctuation or symbol other than a modifier;
 * never a mark or format character, which WB4 attaches). UAX #29 then breaks there and decides every
 * break after it from the text after it, and every break before it from the text before it, so the
 * parts on either side can be segmented apart.
 */
function isFreshStart(text: string, p: number): boolean {
  const prev = text.charCodeAt(p - 1);
  if (prev !== 0x20 && prev !== 0x09 && prev !== 0x0a) return false;
  const c = cls(text, p);
  if (c !== Cls.None) return c !== Cls.Space && c !== Cls.Lf && c !== Cls.Cr;
  const ch = String.fromCodePoint(text.codePointAt(p)!);
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) && !/^[\p{Lm}\p{Sk}]$/u.test(ch);
}

/**
 * The word segments of one window text[from, to) (offsets in the whole text), as ICU gives them
 * for the window: runs of simple text (simple-words.ts) without ICU, the rest by ICU, cut apart
 * only where ICU starts afresh (isFreshStart).
 */
function visitWordWindow(text: string, from: number, to: number, language: string, visit: WordVisitor): void {
  if (!simpleWordsAgree(language)) return icuWords(text, from, to, language, visit);
  if (isSimple(text, from, to)) return visitSimpleWords(text, from, to, 0, visit);
  // Pieces between fresh starts, grouped into runs that are all simple or all not: one ICU call a run.
  let runStart = from;
  let runSimple: boolean | null = null;
  let pieceStart = from;
  let pieceSimple = true;
  for (let p = from + 1; p <= to; p++) {
    if (cls(text, p - 1) === Cls.None) pieceSimple = false;
    if (p < to && !isFreshStart(text, p)) continue;
    if (runSimple === null) runSimple = pieceSimple;
    else if (pieceSimple !== runSimple) {
      if (runSimple) visitSimpleWords(text, runStart, pieceStart, 0, visit);
      else icuWords(text, runStart, pieceStart, language, visit);
      runStart = pieceStart;
      runSimple = pieceSimple;
    }
    pieceStart = p;
    pieceSimple = true;
  }
  if (runSimple) visitSimpleWords(text, runStart, to, 0, visit);
  else icuWords(text, runStart, to, language, visit);
}
