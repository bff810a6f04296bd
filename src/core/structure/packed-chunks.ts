/**
 * Sentence-packed chunks, as LlamaIndex's SentenceSplitter packs its splits
 * (`SentenceSplitter._merge` in llama-index-core/node_parser/text/sentence.py): whole
 * sentences are taken in order while the chunk stays within `size` tokens; a chunk is closed
 * when the next sentence would exceed the size and the chunk is not new; the next chunk
 * starts with the trailing sentences of the closed one, taken from its end while their
 * tokens stay within `overlap`; and a new chunk always takes the next sentence, even when
 * that sentence (plus the carried overlap) is larger than the size — LlamaIndex's own rule.
 *
 * Where the lab differs: its atoms are its corpus sentences (already capped at the longest
 * sentence atom), so nothing is split below a sentence; token counts are the sentences' own
 * counts summed (as the naive chunks and budgets count) — LlamaIndex also sums its splits'
 * counts, but with its tokenizer and the whitespace each split carries; and no metadata
 * length is subtracted from the size (LlamaIndex's split_text_metadata_aware does).
 */
export interface PackedChunkParams {
  /** Chunk size in tokens (LlamaIndex chunk_size). Default: the naive chunks' size. */
  size: number;
  /** Tokens of whole sentences carried from the end of the previous chunk (LlamaIndex chunk_overlap). */
  overlap: number;
}

/**
 * 25 of 128 tokens: LlamaIndex's default ratio (chunk_overlap 200 of chunk_size 1024 =
 * 0.195) at the naive chunks' size, rounded.
 */
export const DEFAULT_PACKED: PackedChunkParams = { size: 128, overlap: 25 };

/** Throws a RangeError naming the field. */
export function validatePacked(p: PackedChunkParams): void {
  if (!Number.isInteger(p.size) || p.size < 1) throw new RangeError(`packed.size must be a whole number of tokens ≥ 1, got ${p.size}`);
  // LlamaIndex refuses only overlap > size; an overlap equal to the size would repeat whole chunks.
  if (!Number.isInteger(p.overlap) || p.overlap < 0 || p.overlap >= p.size) {
    throw new RangeError(`packed.overlap must be a whole number ≥ 0 and smaller than packed.size (${p.size}), got ${p.overlap}`);
  }
}

/**
 * The chunks of one document's sentences, given their token counts: sentence ranges
 * [start, end) counted from the document's first sentence, in order.
 */
export function packSentences(tokens: ArrayLike<number>, params: PackedChunkParams): { start: number; end: number }[] {
  validatePacked(params);
  const out: { start: number; end: number }[] = [];
  const n = tokens.length;
  // The current chunk is always a run of sentences [start, i).
  let start = 0;
  let len = 0;
  let fresh = true;
  let i = 0;
  while (i < n) {
    const t = tokens[i]!;
    if (len + t > params.size && !fresh) {
      // close_chunk(): emit, then carry trailing sentences while they fit in the overlap.
      const closed = { start, end: i };
      out.push(closed);
      start = i;
      len = 0;
      fresh = true;
      while (start > closed.start && len + tokens[start - 1]! <= params.overlap) len += tokens[--start]!;
    } else {
      len += t;
      i++;
      fresh = false;
    }
  }
  if (!fresh) out.push({ start, end: n });
  return out;
}
