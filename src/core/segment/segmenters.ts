import { canonicalLanguage } from '../util/language-tag';

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
    let stop = Math.min(end, pos + SEGMENT_WINDOW);
    if (stop < end) {
      const space = lastSpace(text, pos + SEGMENT_WINDOW / 2, stop);
      const punct = space > pos ? -1 : lastPunctuation(text, pos + SEGMENT_WINDOW / 2, stop);
      stop = space > pos ? space : punct > pos ? punct : graphemeCut(text, pos, stop);
    }
    const parts = [...seg.segment(text.slice(pos, stop))];
    if (granularity === 'sentence' && stop < end && parts.length > 1) {
      const last = parts.pop()!;
      for (const p of parts) yield { segment: p.segment, index: pos + p.index };
      pos += last.index;
      continue;
    }
    for (const p of parts) {
      if (granularity === 'word' && p.isWordLike && MID_WORD_STOP.test(p.segment)) yield* splitAtStops(p.segment, pos + p.index);
      else yield { segment: p.segment, index: pos + p.index, isWordLike: p.isWordLike };
    }
    pos = stop;
  }
}
