import { AutoModelForSequenceClassification, AutoTokenizer, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { RERANKER_MODELS } from './models';
import { configureModelSource, type LoadEmbedderOptions, type ModelSource } from './transformers-embedder';

/** Scores (query, passage) pairs; higher is more relevant. */
export interface Reranker {
  readonly model: string;
  score(query: string, passages: string[]): Promise<number[]>;
}

/**
 * A cross-encoder (e.g. Xenova/ms-marco-MiniLM-L-6-v2) with transformers.js sequence
 * classification: query and passage go through the model together, and the first
 * logit is the relevance score.
 */
export class CrossEncoderReranker implements Reranker {
  private constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly net: PreTrainedModel,
    readonly model: string,
  ) {}

  static async load(
    options: ModelSource & { model: string; dtype?: 'fp32' | 'q8'; device?: 'wasm' | 'webgpu' | 'cpu'; onLoadProgress?: LoadEmbedderOptions['onLoadProgress'] },
  ): Promise<CrossEncoderReranker> {
    configureModelSource(options);
    const progress = options.onLoadProgress ? { progress_callback: options.onLoadProgress as never } : {};
    const tokenizer = await AutoTokenizer.from_pretrained(options.model, progress);
    const net = await AutoModelForSequenceClassification.from_pretrained(options.model, {
      dtype: options.dtype ?? RERANKER_MODELS.find((m) => m.id === options.model)?.dtype ?? 'q8',
      ...(options.device ? { device: options.device } : {}),
      ...progress,
    });
    return new CrossEncoderReranker(tokenizer, net, options.model);
  }

  async score(query: string, passages: string[], batchSize = 16): Promise<number[]> {
    const scores: number[] = [];
    for (let b = 0; b < passages.length; b += batchSize) {
      const batch = passages.slice(b, b + batchSize);
      const inputs = this.tokenizer(new Array(batch.length).fill(query), { text_pair: batch, padding: true, truncation: true });
      const { logits } = (await this.net(inputs)) as { logits: { data: Float32Array; dims: number[] } };
      const labels = logits.dims[1] ?? 1;
      for (let i = 0; i < batch.length; i++) scores.push(logits.data[i * labels]!);
    }
    return scores;
  }
}
