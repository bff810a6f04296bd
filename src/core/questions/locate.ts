/**
 * Finds a model's quoted answer in its passage, giving the question its gold span. Models
 * quote loosely (other case, collapsed line breaks, curly quotes, a dropped word), so the
 * search goes from strict to loose: exact; then after normalising whitespace, case and
 * quote marks (offsets mapped back to the ORIGINAL text); then the best window of passage
 * words by token F1 above a stated threshold. Hand-written: no library maps normalised
 * matches back to original offsets or scores word windows this way.
 */
import { segments } from '../segment/segmenters';
import { normalizeTerm } from '../segment/words';

/** Default lowest token F1 for a fuzzy match: 0.8 lets one word of five differ. */
export const FUZZY_THRESHOLD = 0.8;

export type LocateMethod = 'exact' | 'normalised' | 'fuzzy';

/** A found answer: [start, end) in the passage text, the passage's text there, how and how well. */
export interface Located {
  start: number;
  end: number;
  text: string;
  method: LocateMethod;
  /** 1 for exact and normalised matches; the token F1 for fuzzy ones. */
  score: number;
}

export interface LocateResult {
  /** The match, or null when nothing reached the threshold. */
  match: Located | null;
  /** The best score seen (1 when matched exactly), for the message when not found. */
  bestScore: number;
}

export interface LocateOptions {
  /** Lowest token F1 for a fuzzy match (default FUZZY_THRESHOLD). */
  threshold?: number;
  /** The passage's language, for word segmentation (Chinese and Japanese need it). */
  language?: string;
}

/** Quote marks a model wraps an answer in, or writes for straight ones. */
const QUOTES = /^["'“”‘’«»„`]+|["'“”‘’«»„`]+$/g;
const FOLD: Record<string, string> = { '“': '"', '”': '"', '„': '"', '«': '"', '»': '"', '‘': "'", '’': "'", '`': "'", '–': '-', '—': '-' };

/** The answer as a model may have decorated it: trimmed, outer quotes and a final full stop removed. */
function cleanAnswer(answer: string): string {
  return answer.trim().replace(QUOTES, '').trim().replace(/[.。]$/u, '').trim();
}

/** Code points that compose with the one before: combining marks, Hangul medial and final jamo. */
const EXTENDS = /[\p{M}\u1160-\u11ff\ud7b0-\ud7ff]/u;

/** End of the cluster starting at i: a code point with the marks (and jamo) that follow it, so NFC and NFD spellings are the same cluster. */
function clusterEnd(text: string, i: number): number {
  let j = i + (text.codePointAt(i)! > 0xffff ? 2 : 1);
  while (j < text.length && text.charCodeAt(j) >= 0x300) {
    const cp = text.codePointAt(j)!;
    if (!EXTENDS.test(String.fromCodePoint(cp))) break;
    j += cp > 0xffff ? 2 : 1;
  }
  return j;
}

/** One cluster as compared: NFKC (NFC = NFD; full-width and ligatures = plain), format characters (soft hyphen, zero-width space) dropped, folded, lower case. */
function foldCluster(c: string): string {
  if (c.length === 1 && c.charCodeAt(0) < 0x80) return c.toLowerCase();
  const n = c.normalize('NFKC').replace(/\p{Cf}+/gu, '');
  let out = '';
  for (const ch of n) out += FOLD[ch] ?? ch;
  return out.toLowerCase();
}

/**
 * `text` normalised (whitespace runs → one space, lower case, curly quotes and dashes folded,
 * NFKC per cluster, format characters dropped) with, for each normalised code unit, the
 * original offsets of the cluster it came from: a match starts and ends at whole characters.
 */
function normalise(text: string): { norm: string; from: number[]; to: number[] } {
  let norm = '';
  const from: number[] = [];
  const to: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; ) {
    const next = clusterEnd(text, i);
    const c = text.slice(i, next);
    if (/^\s/u.test(c)) {
      if (!inSpace && norm.length > 0) {
        norm += ' ';
        from.push(i);
        to.push(next);
      } else if (inSpace) to[to.length - 1] = next;
      inSpace = true;
    } else {
      const out = foldCluster(c);
      if (out) {
        inSpace = false;
        for (let k = 0; k < out.length; k++) {
          norm += out[k];
          from.push(i);
          to.push(next);
        }
      } // else a format character alone: neither a letter nor a space
    }
    i = next;
  }
  // A trailing space is dropped (the answer is trimmed too).
  if (norm.endsWith(' ')) {
    norm = norm.slice(0, -1);
    from.pop();
    to.pop();
  }
  return { norm, from, to };
}

interface Word {
  term: string;
  start: number;
  end: number;
}

function wordsOf(text: string, language: string): Word[] {
  const out: Word[] = [];
  for (const s of segments(text, 0, text.length, language, 'word')) {
    if (s.isWordLike) out.push({ term: normalizeTerm(s.segment), start: s.index, end: s.index + s.segment.length });
  }
  return out;
}

/** Token F1 of two bags of words. */
function f1(a: Map<string, number>, bSize: number, b: Map<string, number>, aSize: number): number {
  let common = 0;
  for (const [t, n] of b) common += Math.min(n, a.get(t) ?? 0);
  return common === 0 ? 0 : (2 * common) / (aSize + bSize);
}

function bag(words: Word[], from: number, to: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = from; i < to; i++) m.set(words[i]!.term, (m.get(words[i]!.term) ?? 0) + 1);
  return m;
}

/**
 * The answer's place in the passage: exact, normalised, else the best fuzzy window (token F1 of
 * the answer's words against every run of passage words a quarter shorter to a quarter longer;
 * ties go to the earliest, then the shortest), else null with the best score seen.
 */
export function locateAnswer(passage: string, answer: string, options: LocateOptions = {}): LocateResult {
  const threshold = options.threshold ?? FUZZY_THRESHOLD;
  const raw = answer.trim();
  if (!raw) return { match: null, bestScore: 0 };
  const exact = passage.indexOf(raw);
  if (exact >= 0) return { match: { start: exact, end: exact + raw.length, text: raw, method: 'exact', score: 1 }, bestScore: 1 };

  const p = normalise(passage);
  for (const candidate of new Set([raw, cleanAnswer(raw)])) {
    const a = normalise(candidate).norm;
    if (!a) continue;
    const at = p.norm.indexOf(a);
    if (at >= 0) {
      const start = p.from[at]!;
      const end = p.to[at + a.length - 1]!;
      return { match: { start, end, text: passage.slice(start, end), method: 'normalised', score: 1 }, bestScore: 1 };
    }
  }

  const language = options.language ?? 'en';
  const pw = wordsOf(passage, language);
  const aw = wordsOf(cleanAnswer(raw), language);
  if (!aw.length || !pw.length) return { match: null, bestScore: 0 };
  const answerBag = bag(aw, 0, aw.length);
  const n = aw.length;
  const minLen = Math.max(1, n - Math.floor(n / 4));
  const maxLen = Math.min(pw.length, n + Math.ceil(n / 4));
  let best = { score: 0, from: 0, to: 0 };
  for (let i = 0; i < pw.length; i++) {
    for (let len = minLen; len <= maxLen && i + len <= pw.length; len++) {
      const s = f1(answerBag, len, bag(pw, i, i + len), n);
      if (s > best.score + 1e-12) best = { score: s, from: i, to: i + len };
    }
  }
  if (best.score < threshold || best.score === 0) return { match: null, bestScore: round(best.score) };
  const start = pw[best.from]!.start;
  const end = pw[best.to - 1]!.end;
  return { match: { start, end, text: passage.slice(start, end), method: 'fuzzy', score: round(best.score) }, bestScore: round(best.score) };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
