import type { TokenCounter } from '../segment/tokens';

export interface EmbedOptions {
  /** 'query' and 'passage' differ for models trained with prefixes (e5: "query: "). */
  kind?: 'query' | 'passage';
  /** Texts per forward pass. Default 16. */
  batchSize?: number;
  /** Called after every batch with the number of texts done so far. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface EmbedResult {
  /** Row-major, `dim` floats per text, L2-normalised, in the order of the input. */
  vectors: Float32Array;
  /** Indices of texts longer than the model's limit: only their beginning was embedded. */
  truncated: number[];
}

/** Turns texts into normalised vectors. */
export interface Embedder {
  readonly model: string;
  readonly dim: number;
  /** The model's input limit in tokens, special tokens included. */
  readonly maxTokens: number;
  /** True for the project's generated test model: its vectors carry no learned meaning. */
  readonly isTestModel: boolean;
  /** Counts tokens with this model's own tokenizer. */
  readonly counter: TokenCounter;
  embed(texts: string[], options?: EmbedOptions): Promise<EmbedResult>;
  /** How vectors are made, for manifests and exports: pooling, prefixes, where the vectors come from. */
  readonly recipe?: EmbedRecipe;
  /** Whether late-chunked vectors can be made, and if not why (absent: not available; see lateChunkingOf). */
  readonly lateChunking?: LateChunkingSupport;
  /** Late-chunked vectors of every unit of every document, in order (see late-chunking.ts). */
  lateEmbed?(documents: LateDocument[], options?: LateEmbedOptions): Promise<LateEmbedResult>;
}

/** Whether an embedder makes late-chunked vectors; when not, one sentence naming the model and why. */
export type LateChunkingSupport =
  | {
      available: true;
      /** Longest span run through the model, in tokens, its special tokens and passage prefix included. */
      spanTokens: number;
      /** A long-context model the technique was made for (presets.ts). */
      recommended: boolean;
      /** A caveat the page and CLI show beside it (a model trained with CLS pooling). */
      note?: string;
    }
  | { available: false; reason: string };

/** A document for late chunking: its text and its units' character spans [start, end), in order (they may overlap). */
export interface LateDocument {
  text: string;
  units: readonly { start: number; end: number }[];
}

export interface LateEmbedOptions {
  /** Longest span in tokens, special tokens and prefix included: default the embedder's `spanTokens`. */
  spanTokens?: number;
  /** Tokens shared by consecutive spans: default an eighth of a span's content (defaultOverlap). */
  overlap?: number;
  /** Called after every batch of spans with the spans done so far and the total. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface LateEmbedResult {
  /** Row-major, `dim` floats per unit, documents in order and each document's units in order; L2-normalised. */
  vectors: Float32Array;
  /** Spans run through the model. */
  spans: number;
  /** Units (indices over all documents' units) pooled from pieces of several spans: longer than the overlap and across a span edge. */
  acrossSpans: number[];
}

export interface EmbedRecipe {
  /** 'mean' | 'cls' | 'last' | 'model' (the model's own pooled output) | 'static' | 'endpoint' (the server's). */
  pooling: string;
  queryPrefix: string;
  passagePrefix: string;
  /** 'transformers.js <hub id>' or 'endpoint <URL> model <name>'. */
  source: string;
}

/**
 * Order in which to embed texts: by length, so each batch pads to similar lengths and no
 * short sentence pays for a long one's padding. Returns indices into `texts`.
 */
export function lengthSortedOrder(texts: string[]): number[] {
  return texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
}

export class EmbeddingCancelled extends Error {
  constructor() {
    super('embedding was cancelled');
    this.name = 'EmbeddingCancelled';
  }
}
