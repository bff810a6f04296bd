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

/** The parts of a tokenizer.json (Hugging Face tokenizers' format) that say how text is cut before the model sees it. */
interface TokenizerJson {
  normalizer?: { type?: string } | null;
  pre_tokenizer?: { type?: string } | null;
  model?: { type?: string };
  added_tokens?: { content?: string }[];
}

/** Whitespace the memo splits at: every tokenizer below keeps it as whitespace and cuts there (other spaces stay inside a word, counted by the tokenizer). */
const PLAIN_SPACE = /[ \t\n\r]+/;

/**
 * Does the tokenizer count a text as the sum of its whitespace-separated words' counts? True for
 * WordPiece behind a BERT normaliser (per character: control characters dropped, whitespace made
 * a space, CJK characters spaced, lower case, accents stripped) and a pre-tokenizer that cuts at
 * whitespace (BERT's, Whitespace, WhitespaceSplit), when no added token holds a space: each word
 * is then normalised, pre-tokenized and cut into word pieces alone. MiniLM, BGE, E5 (English),
 * Snowflake, Nomic and Jina v2 tokenize so. The tokenizer.json is read where transformers.js keeps
 * it; anything else (byte-level BPE, SentencePiece's "▁", another normaliser, no json) is counted
 * whole, as before.
 */
function sumsWords(tokenizer: EncodingTokenizer): boolean {
  const json = (tokenizer as { _tokenizer?: { tokenizer?: TokenizerJson } })._tokenizer?.tokenizer;
  if (!json?.model) return false;
  const normalizer = json.normalizer?.type;
  const pre = json.pre_tokenizer?.type;
  return (
    (normalizer === undefined || normalizer === 'BertNormalizer') &&
    (pre === 'BertPreTokenizer' || pre === 'Whitespace' || pre === 'WhitespaceSplit') &&
    json.model.type === 'WordPiece' &&
    (json.added_tokens ?? []).every((t) => typeof t.content === 'string' && !/[ \t\n\r]/.test(t.content))
  );
}

/** Words remembered per counter before the memo starts again (a corpus's vocabulary is not kept whole). */
const WORD_MEMO_SIZE = 1 << 17;

/**
 * Exact counts with the embedding model's own tokenizer. Where the tokenizer counts a text as the
 * sum of its words (sumsWords), each distinct word is tokenized once and remembered: transformers.js
 * costs ~35 µs a sentence (its normaliser tests every character with regular expressions), 3.6 s of
 * splitting 100k sentences in a tab, and words repeat (Zipf). The counts are the same either way.
 */
export class ModelTokenCounter implements TokenCounter {
  private readonly words: Map<string, number> | null;

  constructor(
    private readonly tokenizer: EncodingTokenizer,
    readonly name: string,
  ) {
    this.words = sumsWords(tokenizer) ? new Map() : null;
  }

  private encode(text: string): number {
    return this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  count(text: string): number {
    const memo = this.words;
    if (!memo) return this.encode(text);
    let n = 0;
    for (const word of text.split(PLAIN_SPACE)) {
      if (!word) continue;
      let c = memo.get(word);
      if (c === undefined) {
        c = this.encode(word);
        if (memo.size >= WORD_MEMO_SIZE) memo.clear();
        memo.set(word, c);
      }
      n += c;
    }
    return n;
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
