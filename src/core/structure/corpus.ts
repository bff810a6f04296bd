import type { Document, Sentence } from '../types';
import { segments } from '../segment/segmenters';
import { splitSentences } from '../segment/sentences';
import type { TokenCounter } from '../segment/tokens';

/** The corpus: documents and one array of sentence atoms over all of them. */
export interface Corpus {
  docs: Document[];
  sentences: Sentence[];
  /** docStarts[d] = index of document d's first sentence; last entry = sentences.length. */
  docStarts: number[];
  /** Name of the tokenizer that produced every token count. */
  tokenizer: string;
  /** Sentences longer than this were split into parts of at most this many tokens. */
  maxSentenceTokens: number;
}

export interface CorpusOptions {
  /** Longest atom in tokens; longer sentences are split at word boundaries. Default 128. */
  maxSentenceTokens?: number;
}

export function emptyCorpus(counter: TokenCounter, options: CorpusOptions = {}): Corpus {
  return { docs: [], sentences: [], docStarts: [0], tokenizer: counter.name, maxSentenceTokens: options.maxSentenceTokens ?? 128 };
}

/** Builds a corpus from documents (one call; see appendDocument for incremental use). */
export function buildCorpus(docs: Document[], counter: TokenCounter, options: CorpusOptions = {}): Corpus {
  const corpus = emptyCorpus(counter, options);
  for (const d of docs) appendDocument(corpus, d, counter);
  return corpus;
}

/**
 * Splits a document into sentence atoms and appends them. Each atom knows its deepest
 * section and its page. A sentence longer than maxSentenceTokens is split into parts at
 * word boundaries (never dropped), so every atom fits a leaf chunk and the model.
 */
export function appendDocument(corpus: Corpus, doc: Document, counter: TokenCounter): void {
  const docIndex = corpus.docs.length;
  corpus.docs.push(doc);
  const spans = splitSentences(doc.text, doc.language);
  const sections = doc.sections;
  let sec = 0;
  let page = 0;
  for (const span of spans) {
    // Sections are in document order, nested: the deepest holding `span` is the last
    // one starting at or before it whose range still contains it.
    while (sec + 1 < sections.length && sections[sec + 1]!.start <= span.start) sec++;
    let deepest = sec;
    while (deepest > 0 && sections[deepest]!.end < span.end) deepest = sections[deepest]!.parent ?? 0;
    while (page + 1 < doc.pages.length && doc.pages[page + 1]!.start <= span.start) page++;
    const pageNo = doc.pages.length ? doc.pages[page]!.number : undefined;
    const text = doc.text.slice(span.start, span.end);
    const tokens = counter.count(text);
    if (tokens <= corpus.maxSentenceTokens) {
      corpus.sentences.push(sentenceAtom(docIndex, deepest, pageNo, span.start, span.end, text, tokens));
    } else {
      const parts = splitLongSentence(doc.text, span.start, span.end, corpus.maxSentenceTokens, counter, doc.language);
      parts.forEach((p, i) => corpus.sentences.push(sentenceAtom(docIndex, deepest, pageNo, p.start, p.end, p.text, p.tokens, { index: i, of: parts.length })));
    }
  }
  corpus.docStarts.push(corpus.sentences.length);
}

/**
 * One sentence atom, made by one of four fixed object literals (page and part present only
 * when set, as before). Why not `{ ...base, start, … }`: V8 gave each object made by such a
 * spread its own hidden class (heap snapshot: 79,035 maps and descriptor arrays for 79,053
 * sentences, 255 bytes a sentence in node-bench); a literal's objects share one.
 */
function sentenceAtom(doc: number, section: number, page: number | undefined, start: number, end: number, text: string, tokens: number, part?: { index: number; of: number }): Sentence {
  if (part) return page !== undefined ? { doc, section, page, start, end, text, tokens, part } : { doc, section, start, end, text, tokens, part };
  return page !== undefined ? { doc, section, page, start, end, text, tokens } : { doc, section, start, end, text, tokens };
}

/** A sentence atom as another run of this lab split it: everything but its document index and text (a slice of the document's). */
export type SentenceSpan = Omit<Sentence, 'doc' | 'text'>;

/**
 * Appends a document with sentence atoms made elsewhere (an imported bundle) instead of
 * splitting it again: the spans are checked cheaply — in order, inside the text, sections
 * and parts that exist, whole token counts — and a fault throws before anything is appended.
 * The atoms are then exactly what appendDocument makes when the splitter agrees.
 */
export function appendSplitDocument(corpus: Corpus, doc: Document, spans: readonly SentenceSpan[]): void {
  const docIndex = corpus.docs.length;
  const fault = checkSpans(doc, spans);
  if (fault) throw new Error(`sentence ${fault.at} of document "${doc.title}" ${fault.why}`);
  corpus.docs.push(doc);
  for (const s of spans) {
    corpus.sentences.push(sentenceAtom(docIndex, s.section, s.page, s.start, s.end, doc.text.slice(s.start, s.end), s.tokens, s.part ? { index: s.part.index, of: s.part.of } : undefined));
  }
  corpus.docStarts.push(corpus.sentences.length);
}

function checkSpans(doc: Document, spans: readonly SentenceSpan[]): { at: number; why: string } | null {
  let prevEnd = 0;
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    if (!Number.isInteger(s.start) || !Number.isInteger(s.end) || s.start < prevEnd || s.end <= s.start || s.end > doc.text.length) {
      return { at: i, why: `has the span [${s.start}, ${s.end}), not after the one before it inside the text (${doc.text.length} characters)` };
    }
    if (!Number.isInteger(s.section) || s.section < 0 || (s.section >= doc.sections.length && !(s.section === 0 && doc.sections.length === 0))) return { at: i, why: `names section ${s.section}, which the document does not have` };
    if (!Number.isInteger(s.tokens) || s.tokens < 0) return { at: i, why: `has ${s.tokens} tokens` };
    if (s.part && !(Number.isInteger(s.part.index) && Number.isInteger(s.part.of) && s.part.index >= 0 && s.part.index < s.part.of)) return { at: i, why: `is part ${s.part.index} of ${s.part.of}` };
    prevEnd = s.end;
  }
  return null;
}

/**
 * Greedy split of one over-long sentence into pieces of at most `max` tokens, cutting
 * only between words. Token counts are summed per word (cached), which is linear even
 * for a million-character line with no sentence break.
 */
export function splitLongSentence(text: string, start: number, end: number, max: number, counter: TokenCounter, language: string) {
  const cache = new Map<string, number>();
  const out: { start: number; end: number; text: string; tokens: number }[] = [];
  let piece: { start: number; end: number; tokens: number; word: boolean }[] = [];
  let pieceTokens = 0;
  const flush = (keep: typeof piece = []) => {
    if (piece.length) {
      const a = piece[0]!.start;
      const b = piece[piece.length - 1]!.end;
      out.push({ start: a, end: b, text: text.slice(a, b), tokens: pieceTokens });
    }
    piece = keep;
    pieceTokens = keep.reduce((n, e) => n + e.tokens, 0);
  };
  for (const s of segments(text, start, end, language, 'word')) {
    if (!s.segment.trim()) continue;
    let n = cache.get(s.segment);
    if (n === undefined) cache.set(s.segment, (n = counter.count(s.segment)));
    if (n > max) {
      // One "word" longer than a piece (a URL, a base64 run): cut it into even slices.
      flush();
      const slices = Math.ceil(n / max);
      const len = Math.ceil(s.segment.length / slices);
      for (let k = 0; k < s.segment.length; k += len) {
        const part = s.segment.slice(k, k + len);
        out.push({ start: s.index + k, end: s.index + k + part.length, text: part, tokens: counter.count(part) });
      }
      continue;
    }
    const entry = { start: s.index, end: s.index + s.segment.length, tokens: n, word: Boolean(s.isWordLike) };
    if (piece.length && pieceTokens + n > max) {
      // Punctuation never opens a piece alone: the last word moves over with it.
      const last = piece[piece.length - 1]!;
      const carry = !entry.word && piece.length > 1 && last.word && last.tokens + n <= max ? [piece.pop()!] : [];
      if (carry.length) pieceTokens -= carry[0]!.tokens;
      flush(carry);
    }
    piece.push(entry);
    pieceTokens += n;
  }
  flush();
  return out;
}

/** Titles of the sections from the document root down to `section` (root excluded). */
export function sectionPath(doc: Document, section: number): string[] {
  const path: string[] = [];
  let s: number | null = section;
  while (s !== null && s > 0) {
    path.unshift(doc.sections[s]!.title);
    s = doc.sections[s]!.parent;
  }
  return path;
}

/** The deepest section containing both sections a and b (their common ancestor). */
export function commonSection(doc: Document, a: number, b: number): number {
  const ancestors = new Set<number>();
  for (let s: number | null = a; s !== null; s = doc.sections[s]!.parent) ancestors.add(s);
  for (let s: number | null = b; s !== null; s = doc.sections[s]!.parent) if (ancestors.has(s)) return s;
  return 0;
}

/**
 * For each sentence, the id of the boundary group it belongs to: its ancestor section at
 * level ≤ sectionLevel (0 = whole document). Chunks and section-bounded windows never
 * cross a change of group. Group ids are unique across documents.
 */
export function boundaryGroups(corpus: Corpus, sectionLevel: number): Int32Array {
  const groups = new Int32Array(corpus.sentences.length);
  extendBoundaryGroups(corpus, sectionLevel, groups, 0, new Map());
  return groups;
}

/**
 * Fills groups[from …] for sentences appended since `from`, numbering new groups after the
 * `keys` already seen (kept by the caller between calls), so appending documents costs only
 * their sentences and gives the very ids boundaryGroups gives the whole corpus.
 */
export function extendBoundaryGroups(corpus: Corpus, sectionLevel: number, groups: Int32Array, from: number, keys: Map<string, number>): void {
  for (let i = from; i < corpus.sentences.length; i++) {
    const s = corpus.sentences[i]!;
    const doc = corpus.docs[s.doc]!;
    let sec: number | null = s.section;
    while (sec !== null && sec > 0 && doc.sections[sec]!.level > sectionLevel) sec = doc.sections[sec]!.parent;
    const key = `${s.doc}:${sec ?? 0}`;
    let g = keys.get(key);
    if (g === undefined) keys.set(key, (g = keys.size));
    groups[i] = g;
  }
}

/** Sum of sentence tokens over [start, end). */
export function rangeTokens(corpus: Corpus, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n += corpus.sentences[i]!.tokens;
  return n;
}
