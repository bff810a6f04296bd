import type { NaiveChunk } from '../types';
import { visitWords } from '../segment/segmenters';
import type { TokenCounter } from '../segment/tokens';
import type { Corpus } from './corpus';

export interface NaiveChunkParams {
  /** Chunk size in tokens. Default 128. */
  size: number;
  /** Tokens repeated at the start of the next chunk. Default 0. */
  overlap: number;
}

export const DEFAULT_NAIVE: NaiveChunkParams = { size: 128, overlap: 0 };

/**
 * The baseline: fixed-size token chunks over each document's text, blind to sentences
 * and sections (like a plain token text splitter). Cuts fall between words; token
 * counts are summed per word with a cache, so this stays linear.
 */
export function naiveChunks(corpus: Corpus, counter: TokenCounter, params: NaiveChunkParams = DEFAULT_NAIVE): NaiveChunk[] {
  const out: NaiveChunk[] = [];
  corpus.docs.forEach((_, d) => out.push(...naiveChunksOfDocument(corpus, d, counter, params, out.length)));
  return out;
}

export function validateNaive(params: NaiveChunkParams): void {
  if (!Number.isInteger(params.size) || params.size < 1) throw new Error(`naive chunk size must be a whole number of tokens ≥ 1, got ${params.size}`);
  if (!Number.isInteger(params.overlap) || params.overlap < 0 || params.overlap >= params.size) {
    throw new Error('overlap must be a whole number ≥ 0 and smaller than the chunk size');
  }
}

const tokenCaches = new WeakMap<TokenCounter, Map<string, number>>();

/** A segment with no text once trimmed (spaces, line breaks): never a piece. Only a segment that opens with whitespace can be one. */
function blank(segment: string): boolean {
  const c = segment.charCodeAt(0);
  return (c <= 0x20 || c === 0xa0 || c >= 0x1680) && !segment.trim();
}

/**
 * A document's pieces (its word segments that are not blank) as three columns, reused from one
 * document to the next: two million pieces at 100k sentences were two million objects.
 */
let scratch = { start: new Int32Array(1024), end: new Int32Array(1024), tokens: new Float64Array(1024) };

/** The naive chunks of one document, numbered from `firstId`. */
export function naiveChunksOfDocument(corpus: Corpus, d: number, counter: TokenCounter, params: NaiveChunkParams, firstId: number): NaiveChunk[] {
  validateNaive(params);
  let cache = tokenCaches.get(counter);
  if (!cache) tokenCaches.set(counter, (cache = new Map()));
  const memo = cache;
  const doc = corpus.docs[d]!;
  const out: NaiveChunk[] = [];
  let n = 0;
  visitWords(doc.text, 0, doc.text.length, doc.language, (segment, index) => {
    if (blank(segment)) return;
    let t = memo.get(segment);
    if (t === undefined) memo.set(segment, (t = counter.count(segment)));
    if (n === scratch.start.length) {
      const size = n * 2;
      const grown = { start: new Int32Array(size), end: new Int32Array(size), tokens: new Float64Array(size) };
      grown.start.set(scratch.start);
      grown.end.set(scratch.end);
      grown.tokens.set(scratch.tokens);
      scratch = grown;
    }
    scratch.start[n] = index;
    scratch.end[n] = index + segment.length;
    scratch.tokens[n++] = t;
  });
  const { start: starts, end: ends, tokens: pieceTokens } = scratch;
  const first = corpus.docStarts[d]!;
  const last = corpus.docStarts[d + 1]!;
  let sent = first;
  let i = 0;
  while (i < n) {
    let j = i;
    let tokens = 0;
    while (j < n && (j === i || tokens + pieceTokens[j]! <= params.size)) tokens += pieceTokens[j++]!;
    const start = starts[i]!;
    const end = ends[j - 1]!;
    while (sent < last - 1 && corpus.sentences[sent]!.end <= start) sent++;
    let sEnd = sent;
    while (sEnd < last && corpus.sentences[sEnd]!.start < end) sEnd++;
    out.push({ id: firstId + out.length, doc: d, start, end, text: doc.text.slice(start, end), tokens, sentences: { start: sent, end: Math.max(sEnd, sent + 1) } });
    if (j >= n) break;
    // Step back `overlap` tokens for the next chunk, but always move forward.
    let back = j;
    let o = 0;
    while (back - 1 > i && o + pieceTokens[back - 1]! <= params.overlap) o += pieceTokens[--back]!;
    i = back;
  }
  return out;
}
