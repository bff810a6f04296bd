import { yieldToEventLoop } from '../util/yield';
import { AutoModel, AutoTokenizer, env, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { ModelTokenCounter, type TokenCounter } from '../segment/tokens';
import { EmbeddingCancelled, lengthSortedOrder, type EmbedOptions, type EmbedRecipe, type EmbedResult, type Embedder, type LateChunkingSupport, type LateDocument, type LateEmbedOptions, type LateEmbedResult } from './embedder';
import { transformerLateSupport } from './late-chunking';
import { lateEmbedWith, type TokenModel } from './late-embed';
import { finishVectors, poolTokens } from './pooling';
import { embeddingModelKey, resolveEmbeddingModel, type EmbeddingPreset, type EmbeddingSettings, type ResolvedModel } from './presets';
import { staticForward } from './static-forward';

export interface ModelSource {
  /** Folder (or URL path in a browser) holding <org>/<name>/ model folders. */
  localModelPath?: string;
  /** May models come from the Hugging Face hub? */
  allowRemoteModels?: boolean;
}

export interface LoadEmbedderOptions extends ModelSource {
  /** A hub id or a preset's short name (see presets.ts). */
  model: string;
  dtype?: 'fp32' | 'fp16' | 'q8' | 'q4';
  device?: 'wasm' | 'webgpu' | 'cpu';
  /** Replaces a preset's (or the guessed) prefixes, pooling, length limit. */
  settings?: Partial<EmbeddingSettings>;
  /** Matryoshka output size: must be one the model was trained for (its preset's list). */
  dimensions?: number;
  /** transformers.js progress events (file, loaded, total) while downloading. */
  onLoadProgress?: (event: { status: string; file?: string; loaded?: number; total?: number; progress?: number }) => void;
}

/** Applies where models come from to transformers.js's global env. */
export function configureModelSource(source: ModelSource): void {
  if (source.localModelPath !== undefined) {
    env.allowLocalModels = true;
    env.localModelPath = source.localModelPath;
  }
  if (source.allowRemoteModels !== undefined) env.allowRemoteModels = source.allowRemoteModels;
}

type Net = PreTrainedModel & ((inputs: Record<string, unknown>) => Promise<Record<string, Tensor>>);

function floats(t: Tensor): Float32Array {
  return (t.type === 'float32' ? t : t.to('float32')).data as Float32Array;
}

/**
 * transformers.js embedding with each model's own settings (presets.ts): the query or passage
 * prefix, its pooling (mean / CLS / last real token / the model's pooled output), Matryoshka
 * truncation then renormalisation, and its length limit. Static Model2Vec models run through
 * the same class as `model_type: 'model2vec'` (see static-forward.ts). Always an explicit dtype
 * (Node and browsers default differently). Texts are embedded in batches sorted by length;
 * texts over the limit are truncated and reported, never silently.
 */
export class TransformersEmbedder implements Embedder {
  readonly counter: TokenCounter;
  readonly isTestModel: boolean;
  /** The settings in use and which of them were guessed (an unknown model). */
  readonly settings: EmbeddingPreset;
  readonly guessed: ResolvedModel['guessed'];

  private constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly net: Net,
    readonly model: string,
    /** The model's own output size, before any Matryoshka cut. */
    readonly fullDim: number,
    readonly dim: number,
    readonly maxTokens: number,
    resolved: ResolvedModel,
  ) {
    this.settings = resolved.preset;
    this.guessed = resolved.guessed;
    this.isTestModel = Boolean(resolved.preset.testModel || (net.config as unknown as Record<string, unknown>).rag_lab_test_model);
    this.counter = new ModelTokenCounter(tokenizer as unknown as ConstructorParameters<typeof ModelTokenCounter>[0], model);
  }

  static async load(options: LoadEmbedderOptions): Promise<TransformersEmbedder> {
    configureModelSource(options);
    const resolved = resolveEmbeddingModel(options.model, options.settings);
    const p = resolved.preset;
    const id = p.id;
    const dtype = options.dtype ?? p.dtype;
    const progress = options.onLoadProgress ? { progress_callback: options.onLoadProgress as never } : {};
    const revision = p.revision && !p.testModel ? { revision: p.revision } : {};
    const tokenizer = await AutoTokenizer.from_pretrained(id, progress);
    // A server that answers missing files with a web page leaves transformers.js without a tokenizer.
    if (!tokenizer) throw new Error(`${id} has no usable tokenizer (tokenizer.json missing or not JSON)`);
    const net = (await AutoModel.from_pretrained(id, {
      dtype,
      ...(options.device ? { device: options.device } : {}),
      // Model2Vec has no transformers.js class: its README loads it as this model type (the base class runs the graph).
      ...(p.architecture === 'static' ? { config: { model_type: 'model2vec' } as never } : {}),
      ...revision,
      ...progress,
    })) as Net;
    const config = net.config as unknown as { hidden_size?: number; hidden_dim?: number; max_position_embeddings?: number };
    const tokenizerMax = (tokenizer as unknown as { model_max_length?: number }).model_max_length ?? p.maxTokens;
    const maxTokens = Math.min(p.maxTokens, tokenizerMax > 0 ? tokenizerMax : p.maxTokens, config.max_position_embeddings ?? Infinity);
    const probe = new TransformersEmbedder(tokenizer, net, id, 0, 0, maxTokens, resolved);
    const fullDim = (await probe.forward(['dimension probe'])).dim;
    let dim = fullDim;
    if (options.dimensions !== undefined && options.dimensions !== fullDim) {
      if (!p.matryoshka.includes(options.dimensions)) {
        throw new Error(`${id} cannot be cut to ${options.dimensions} dimensions: ${p.matryoshka.length ? `it was trained for ${p.matryoshka.join(', ')}` : 'it was not trained for Matryoshka truncation'}`);
      }
      dim = options.dimensions;
    }
    // Another size or other settings are other vectors: the model string keys them apart.
    const key = embeddingModelKey(id, p, { dim, fullDim, custom: Boolean(options.settings && Object.keys(options.settings).length) });
    return new TransformersEmbedder(tokenizer, net, key, fullDim, dim, maxTokens, resolved);
  }

  /** Pooled, not yet cut or normalised: [texts, fullDim]. */
  private async forward(batch: string[]): Promise<{ rows: Float32Array; dim: number; tokens?: number[] }> {
    if (this.settings.architecture === 'static') return staticForward(this.tokenizer, this.net, batch, this.maxTokens);
    const inputs = this.tokenizer(batch, { padding: true, truncation: true, max_length: this.maxTokens }) as unknown as Record<string, Tensor>;
    const out = await this.net(inputs);
    if (this.settings.pooling === 'model') {
      const pooled = out.sentence_embedding;
      if (!pooled) throw new Error(`${this.settings.id} has no sentence_embedding output: choose mean, cls or last pooling`);
      return { rows: floats(pooled), dim: pooled.dims.at(-1)! };
    }
    const hidden = out.last_hidden_state ?? out.token_embeddings ?? out.logits;
    if (!hidden) throw new Error(`${this.settings.id} returned no token vectors (outputs: ${Object.keys(out).join(', ')})`);
    const [b, seq, dim] = hidden.dims as [number, number, number];
    return { rows: poolTokens(floats(hidden), inputs.attention_mask!.data as BigInt64Array, b, seq, dim, this.settings.pooling), dim };
  }

  get recipe(): EmbedRecipe {
    const s = this.settings;
    return { pooling: s.architecture === 'static' ? 'static' : s.pooling, queryPrefix: s.queryPrefix, passagePrefix: s.passagePrefix, source: `transformers.js ${s.id}` };
  }

  private isTruncated(text: string): boolean {
    // Cheap pre-check: a text this short cannot exceed the limit even at 4 tokens a character.
    if (text.length * 4 + 2 <= this.maxTokens) return false;
    const specials = this.settings.architecture === 'static' ? 0 : 2;
    return this.counter.count(text) + specials > this.maxTokens;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<EmbedResult> {
    const prefix = options.kind === 'query' ? this.settings.queryPrefix : this.settings.passagePrefix;
    const batchSize = Math.max(1, options.batchSize ?? 16);
    const vectors = new Float32Array(texts.length * this.dim);
    const truncated: number[] = [];
    const order = lengthSortedOrder(texts);
    let done = 0;
    for (let b = 0; b < order.length; b += batchSize) {
      if (options.signal?.aborted) throw new EmbeddingCancelled();
      const idx = order.slice(b, b + batchSize);
      const batch = idx.map((i) => prefix + texts[i]!);
      const { rows, tokens } = await this.forward(batch);
      // A text with no meaningful tokens pools to zero: it stays zero (similar to nothing), never NaN.
      const data = finishVectors(rows, this.fullDim, this.dim, { layerNorm: this.settings.layerNormBeforeTruncation && this.dim < this.fullDim, normalize: this.settings.normalize });
      idx.forEach((i, row) => {
        vectors.set(data.subarray(row * this.dim, (row + 1) * this.dim), i * this.dim);
        if (tokens ? tokens[row]! > this.maxTokens : this.isTruncated(batch[row]!)) truncated.push(i);
      });
      done += idx.length;
      options.onProgress?.(done, texts.length);
      // Between batches, a worker must be able to answer a search (see yieldToEventLoop).
      await yieldToEventLoop();
    }
    return { vectors, truncated: truncated.sort((a, b) => a - b) };
  }

  /** Late chunking: for token-pooling transformers; not for static models or a pooled-output graph (late-chunking.ts says why). */
  get lateChunking(): LateChunkingSupport {
    return transformerLateSupport(this.settings, this.maxTokens);
  }

  /** Late-chunked vectors of every unit of every document (late-embed.ts), finished as embed()'s are. */
  async lateEmbed(documents: LateDocument[], options: LateEmbedOptions = {}): Promise<LateEmbedResult> {
    const support = this.lateChunking;
    if (!support.available) throw new Error(support.reason);
    return lateEmbedWith(this.tokenModel(), documents, { ...options, spanTokens: options.spanTokens ?? support.spanTokens });
  }

  private tokenModel(): TokenModel {
    const encode = (text: string, special: boolean) => (this.tokenizer(text, { add_special_tokens: special, return_tensor: false } as never) as unknown as { input_ids: number[] }).input_ids;
    // The special tokens around a text, read off a probe: whatever the tokenizer puts before and after it.
    const bare = encode('a', false);
    const full = encode('a', true);
    let at = full.findIndex((_, i) => bare.every((id, k) => full[i + k] === id));
    if (at < 0) at = full.length;
    const prefix = this.settings.passagePrefix ? encode(this.settings.passagePrefix, false) : [];
    const pad = (this.tokenizer as unknown as { pad_token_id?: number }).pad_token_id ?? 0;
    return {
      tokenize: (texts) => (this.tokenizer(texts, { add_special_tokens: false, return_tensor: false } as never) as unknown as { input_ids: number[][] }).input_ids,
      head: [...full.slice(0, at), ...prefix],
      tail: full.slice(Math.min(full.length, at + bare.length)),
      maxTokens: this.maxTokens,
      dim: this.fullDim,
      tokenVectors: async (inputs) => {
        const seq = Math.max(...inputs.map((x) => x.length));
        const ids = new BigInt64Array(inputs.length * seq).fill(BigInt(pad));
        const mask = new BigInt64Array(inputs.length * seq);
        inputs.forEach((x, b) => x.forEach((id, t) => ((ids[b * seq + t] = BigInt(id)), (mask[b * seq + t] = 1n))));
        const out = await this.net({ input_ids: new Tensor('int64', ids, [inputs.length, seq]), attention_mask: new Tensor('int64', mask, [inputs.length, seq]) });
        const hidden = out.last_hidden_state ?? out.token_embeddings;
        if (!hidden) throw new Error(`${this.settings.id} returned no token vectors (outputs: ${Object.keys(out).join(', ')}): late chunking is not available for it`);
        return { data: floats(hidden), seq: hidden.dims[1]!, dim: hidden.dims.at(-1)! };
      },
      finish: (means, dim) => finishVectors(means, dim, this.dim, { layerNorm: this.settings.layerNormBeforeTruncation && this.dim < this.fullDim, normalize: this.settings.normalize }),
    };
  }

  async dispose(): Promise<void> {
    await this.net.dispose();
  }
}
