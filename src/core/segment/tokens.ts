/** Counts model tokens; chunk sizes and budgets are in these units. */
export interface TokenCounter {
  /** Names the tokenizer, so results say what their token counts mean. */
  readonly name: string;
  /** Tokens of `text` without special tokens ([CLS], [SEP]). */
  count(text: string): number;
}

/** The minimal slice of a transformers.js tokenizer that counting needs. */
export interface EncodingTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}

/** Exact counts with the embedding model's own tokenizer. */
export class ModelTokenCounter implements TokenCounter {
  constructor(
    private readonly tokenizer: EncodingTokenizer,
    readonly name: string,
  ) {}
  count(text: string): number {
    return this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

/**
 * An estimate for when no tokenizer is loaded (BM25-only mode): one token per CJK
 * character, per punctuation mark, and per ~5 letters of other words (WordPiece and
 * BPE split long and rare words). Labelled "approx" wherever it is used.
 */
export class ApproxTokenCounter implements TokenCounter {
  readonly name = 'approx';
  count(text: string): number {
    let n = 0;
    // A combining mark belongs to its word (NFD "é" is e + U+0301; Hindi and Thai vowel signs
    // are marks): counted with it, not as punctuation. Format characters (soft hyphen, ZWJ) count nothing.
    for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}\p{Cf}]*|[^\s\p{L}\p{N}\p{M}\p{Cf}]/gu)) {
      const w = m[0];
      if (CJK.test(w)) {
        for (const ch of w) n += CJK.test(ch) ? 1 : 0.2;
      } else if (/[\p{L}\p{N}]/u.test(w[0]!)) {
        n += Math.max(1, Math.round(w.normalize('NFC').replace(/\p{Cf}+/gu, '').length / 5));
      } else {
        n += 1;
      }
    }
    return Math.round(n);
  }
}
