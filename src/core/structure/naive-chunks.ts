import type { NaiveChunk } from '../types';
import { segments } from '../segment/segmenters';
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

/** The naive chunks of one document, numbered from `firstId`. */
export function naiveChunksOfDocument(corpus: Corpus, d: number, counter: TokenCounter, params: NaiveChunkParams, firstId: number): NaiveChunk[] {
  validateNaive(params);
  let cache = tokenCaches.get(counter);
  if (!cache) tokenCaches.set(counter, (cache = new Map()));
  const doc = corpus.docs[d]!;
  const out: NaiveChunk[] = [];
  const pieces: { start: number; end: number; tokens: number }[] = [];
  for (const s of segments(doc.text, 0, doc.text.length, doc.language, 'word')) {
    if (!s.segment.trim()) continue;
    let n = cache.get(s.segment);
    if (n === undefined) cache.set(s.segment, (n = counter.count(s.segment)));
    pieces.push({ start: s.index, end: s.index + s.segment.length, tokens: n });
  }
  const first = corpus.docStarts[d]!;
  const last = corpus.docStarts[d + 1]!;
  let sent = first;
  let i = 0;
  while (i < pieces.length) {
    let j = i;
    let tokens = 0;
    while (j < pieces.length && (j === i || tokens + pieces[j]!.tokens <= params.size)) tokens += pieces[j++]!.tokens;
    const start = pieces[i]!.start;
    const end = pieces[j - 1]!.end;
    while (sent < last - 1 && corpus.sentences[sent]!.end <= start) sent++;
    let sEnd = sent;
    while (sEnd < last && corpus.sentences[sEnd]!.start < end) sEnd++;
    out.push({ id: firstId + out.length, doc: d, start, end, text: doc.text.slice(start, end), tokens, sentences: { start: sent, end: Math.max(sEnd, sent + 1) } });
    if (j >= pieces.length) break;
    // Step back `overlap` tokens for the next chunk, but always move forward.
    let back = j;
    let o = 0;
    while (back - 1 > i && o + pieces[back - 1]!.tokens <= params.overlap) o += pieces[--back]!.tokens;
    i = back;
  }
  return out;
}
