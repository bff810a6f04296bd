import { yieldToEventLoop } from '../util/yield';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import { ModelTokenCounter, type TokenCounter } from '../segment/tokens';
import { EmbeddingCancelled, lengthSortedOrder, type EmbedOptions, type EmbedResult, type Embedder } from './embedder';
import { modelInfo } from './models';

export interface ModelSource {
  /** Folder (or URL path in a browser) holding <org>/<name>/ model folders. */
  localModelPath?: string;
  /** May models come from the Hugging Face hub? */
  allowRemoteModels?: boolean;
}

export interface LoadEmbedderOptions extends ModelSource {
  model: string;
  dtype?: 'fp32' | 'fp16' | 'q8' | 'q4';
  device?: 'wasm' | 'webgpu' | 'cpu';
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

/**
 * transformers.js feature extraction: mean pooling over the last hidden state and L2
 * normalisation, with an explicit dtype (Node and browsers default differently).
 * Texts are embedded in batches sorted by length; texts over the model's limit are
 * truncated by the tokenizer and reported, never silently.
 */
export class TransformersEmbedder implements Embedder {
  readonly counter: TokenCounter;
  readonly isTestModel: boolean;
  private readonly queryPrefix: string;
  private readonly passagePrefix: string;

  private constructor(
    private readonly pipe: FeatureExtractionPipeline,
    readonly model: string,
    readonly dim: number,
    readonly maxTokens: number,
  ) {
    const info = modelInfo(model);
    this.isTestModel = Boolean(info?.testModel || (pipe.model.config as unknown as Record<string, unknown>).rag_lab_test_model);
    this.queryPrefix = info?.queryPrefix ?? '';
    this.passagePrefix = info?.passagePrefix ?? '';
    this.counter = new ModelTokenCounter(pipe.tokenizer as unknown as ConstructorParameters<typeof ModelTokenCounter>[0], model);
  }

  static async load(options: LoadEmbedderOptions): Promise<TransformersEmbedder> {
    configureModelSource(options);
    const dtype = options.dtype ?? modelInfo(options.model)?.dtype ?? 'fp32';
    const pipe = (await pipeline('feature-extraction', options.model, {
      dtype,
      ...(options.device ? { device: options.device } : {}),
      ...(options.onLoadProgress ? { progress_callback: options.onLoadProgress as never } : {}),
    })) as FeatureExtractionPipeline;
    // A server that answers missing files with a web page leaves transformers.js without a tokenizer.
    if (!pipe.tokenizer) throw new Error(`${options.model} has no usable tokenizer (tokenizer.json missing or not JSON)`);
    const config = pipe.model.config as unknown as { hidden_size?: number; max_position_embeddings?: number };
    const tokenizerMax = (pipe.tokenizer as unknown as { model_max_length?: number }).model_max_length ?? 512;
    const maxTokens = Math.min(tokenizerMax, config.max_position_embeddings ?? tokenizerMax);
    let dim = config.hidden_size ?? 0;
    if (!dim) {
      const probe = await pipe('dimension probe', { pooling: 'mean', normalize: true });
      dim = probe.dims[probe.dims.length - 1]!;
    }
    return new TransformersEmbedder(pipe, options.model, dim, maxTokens);
  }

  private isTruncated(text: string): boolean {
    // Cheap pre-check: a text this short cannot exceed the limit even at 4 tokens a character.
    if (text.length * 4 + 2 <= this.maxTokens) return false;
    return this.counter.count(text) + 2 > this.maxTokens;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<EmbedResult> {
    const prefix = options.kind === 'query' ? this.queryPrefix : this.passagePrefix;
    const batchSize = Math.max(1, options.batchSize ?? 16);
    const vectors = new Float32Array(texts.length * this.dim);
    const truncated: number[] = [];
    const order = lengthSortedOrder(texts);
    let done = 0;
    for (let b = 0; b < order.length; b += batchSize) {
      if (options.signal?.aborted) throw new EmbeddingCancelled();
      const idx = order.slice(b, b + batchSize);
      const batch = idx.map((i) => prefix + texts[i]!);
      const out = await this.pipe(batch, { pooling: 'mean', normalize: true });
      const data = out.data as Float32Array;
      idx.forEach((i, row) => {
        const v = data.subarray(row * this.dim, (row + 1) * this.dim);
        // A text with no meaningful tokens pools to a zero vector, which normalising turns
        // into NaN: keep it at zero (similar to nothing) so no score or projection breaks.
        if (v.some((x) => !Number.isFinite(x))) v.fill(0);
        vectors.set(v, i * this.dim);
        if (this.isTruncated(batch[row]!)) truncated.push(i);
      });
      done += idx.length;
      options.onProgress?.(done, texts.length);
      // Between batches, a worker must be able to answer a search (see yieldToEventLoop).
      await yieldToEventLoop();
    }
    return { vectors, truncated: truncated.sort((a, b) => a - b) };
  }

  async dispose(): Promise<void> {
    await this.pipe.dispose();
  }
}
