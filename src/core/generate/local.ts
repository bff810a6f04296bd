/**
 * In-browser generation with transformers.js: a small instruct model runs in the page's
 * worker (WASM or WebGPU), with the same result shape and stop semantics as the
 * OpenAI-compatible client in ./openai (stopping is not an error; failures are
 * GenerationErrors with one sentence that names the model). No DOM imports: it runs in a
 * Web Worker and in Node tests.
 */
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  InterruptableStoppingCriteria,
  TextStreamer,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from '@huggingface/transformers';
import { configureModelSource, type ModelSource } from '../embed/transformers-embedder';
import { ModelTokenCounter, type TokenCounter } from '../segment/tokens';
import { GenerationError, type ChatMessage, type StreamResult } from './openai';

export { GENERATOR_MODELS, TEST_GENERATOR_ID, generatorInfo, type LocalGeneratorInfo } from './generator-models';
import { generatorInfo } from './generator-models';


export interface LoadGeneratorOptions extends ModelSource {
  model: string;
  dtype?: string;
  device?: 'wasm' | 'webgpu' | 'cpu';
  onLoadProgress?: (p: { status: string; file?: string; loaded?: number; total?: number; progress?: number }) => void;
}

export interface LocalStreamOptions {
  /** Aborting it stops the reply after the current token: resolves with `stopped: true` and the text so far. */
  signal?: AbortSignal;
  /** Called with each decoded piece of the reply (usually a word and its trailing space), in order. */
  onToken?: (text: string) => void;
  /** Most tokens to generate; by default what is left of the context, at most DEFAULT_MAX_TOKENS. */
  maxTokens?: number;
  /** 0 or undefined: greedy; above 0: sampling at this temperature. */
  temperature?: number;
}

/** Browsers run out of memory long before a 32k or 128k context. */
export const MAX_BROWSER_CONTEXT = 8192;
export const DEFAULT_MAX_TOKENS = 1024;

type Encoded = { input_ids: Tensor; attention_mask: Tensor };

export class LocalGenerator {
  readonly counter: TokenCounter;
  readonly isTestModel: boolean;
  private readonly eosIds: Set<number>;
  /** ONNX sessions must not run two generations at once: calls wait their turn. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly lm: PreTrainedModel,
    readonly model: string,
    readonly contextTokens: number,
  ) {
    this.counter = new ModelTokenCounter(tokenizer as unknown as ConstructorParameters<typeof ModelTokenCounter>[0], model);
    const config = lm.config as unknown as Record<string, unknown>;
    this.isTestModel = Boolean(generatorInfo(model)?.testModel || config.rag_lab_test_model);
    const genConfig = (lm as unknown as { generation_config?: { eos_token_id?: unknown } }).generation_config;
    this.eosIds = new Set(idList(genConfig?.eos_token_id ?? config.eos_token_id));
  }

  static async load(options: LoadGeneratorOptions): Promise<LocalGenerator> {
    const id = options.model;
    const info = generatorInfo(id);
    if (info?.webgpuOnly && options.device !== 'webgpu') {
      throw new GenerationError(`the model "${id}" runs only with WebGPU, and WebGPU is not in use; choose a smaller model`, 'model-load');
    }
    configureModelSource(options);
    const progress = options.onLoadProgress ? { progress_callback: options.onLoadProgress as never } : {};
    let tokenizer: PreTrainedTokenizer;
    let lm: PreTrainedModel;
    try {
      tokenizer = await AutoTokenizer.from_pretrained(id, progress);
      lm = await AutoModelForCausalLM.from_pretrained(id, {
        dtype: (options.dtype ?? info?.dtype ?? 'fp32') as never,
        ...(options.device ? { device: options.device } : {}),
        ...progress,
      });
    } catch (err) {
      throw loadError(id, err);
    }
    if (!(tokenizer as unknown as { chat_template?: unknown }).chat_template) {
      await lm.dispose();
      throw new GenerationError(`the model "${id}" has no chat template (tokenizer_config.json), so it cannot take a chat`, 'model-load');
    }
    const config = lm.config as unknown as { max_position_embeddings?: number };
    const tokenizerMax = (tokenizer as unknown as { model_max_length?: number }).model_max_length;
    const own = config.max_position_embeddings ?? (tokenizerMax && tokenizerMax < 1e9 ? tokenizerMax : 2048);
    return new LocalGenerator(tokenizer, lm, id, info?.contextTokens ?? Math.min(own, MAX_BROWSER_CONTEXT));
  }

  /** Tokens of the whole chat as the model sees it: chat template and generation prompt included. */
  countChat(messages: ChatMessage[]): number {
    return this.encode(messages).input_ids.dims.at(-1)!;
  }

  stream(messages: ChatMessage[], options: LocalStreamOptions = {}): Promise<StreamResult> {
    const run = this.queue.then(() => this.generate(messages, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    await this.queue;
    await this.lm.dispose();
  }

  private encode(messages: ChatMessage[]): Encoded {
    return this.tokenizer.apply_chat_template(messages as never, { add_generation_prompt: true, tokenize: true, return_tensor: true, return_dict: true }) as unknown as Encoded;
  }

  private async generate(messages: ChatMessage[], options: LocalStreamOptions): Promise<StreamResult> {
    const { signal, onToken } = options;
    if (signal?.aborted) return { text: '', finishReason: null, stopped: true };
    const inputs = this.encode(messages);
    const promptTokens = inputs.input_ids.dims.at(-1)!;
    const room = this.contextTokens - promptTokens;
    const maxTokens = options.maxTokens !== undefined ? Math.max(1, Math.floor(options.maxTokens)) : Math.min(DEFAULT_MAX_TOKENS, room);
    if (maxTokens < 1 || promptTokens + maxTokens > this.contextTokens) {
      throw new GenerationError(
        `the chat is ${promptTokens} tokens and the answer may take ${Math.max(1, maxTokens)} more, but the model "${this.model}" holds ${this.contextTokens} tokens; ` +
          'use fewer or shorter sources, or a shorter answer',
        'context-length',
      );
    }

    let text = '';
    // Pieces decoded after the stop are dropped: the result is what the caller was shown.
    const streamer = new TextStreamer(this.tokenizer, {
      skip_prompt: true,
      skip_special_tokens: true,
      callback_function: (piece: string) => {
        if (signal?.aborted || piece === '') return;
        text += piece;
        onToken?.(piece);
      },
    });
    const interrupt = new InterruptableStoppingCriteria();
    const onAbort = () => interrupt.interrupt();
    signal?.addEventListener('abort', onAbort);
    const temperature = options.temperature ?? 0;
    let sequences: Tensor;
    try {
      sequences = (await this.lm.generate({
        ...inputs,
        max_new_tokens: maxTokens,
        streamer,
        stopping_criteria: [interrupt],
        // Explicit, since models' generation_config.json often turns sampling on.
        ...(temperature > 0 ? { do_sample: true, temperature } : { do_sample: false }),
      } as never)) as Tensor;
    } catch (err) {
      throw runError(this.model, err);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    const generated = sequences.dims.at(-1)! - promptTokens;
    const usage = { promptTokens, completionTokens: generated };
    if (signal?.aborted) return { text, finishReason: null, stopped: true, usage };
    const last = Number((sequences.data as BigInt64Array)[sequences.data.length - 1]);
    const finishReason = generated >= maxTokens && !this.eosIds.has(last) ? 'length' : 'stop';
    return { text, finishReason, stopped: false, usage };
  }
}

function idList(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
}

function errorText(err: unknown): string {
  const raw = err instanceof Error ? err.message : typeof err === 'number' ? `ONNX Runtime error code ${err}` : String(err);
  const oneLine = raw.replace(/\s+/g, ' ').trim();
  return oneLine.length > 240 ? `${oneLine.slice(0, 239)}…` : oneLine;
}

// WASM heaps and GPU buffers report exhaustion in many words; a bare number is ORT's aborted allocation.
const MEMORY = /bad_alloc|out of memory|\boom\b|failed to allocate|allocation fail|array buffer allocation|memory access out of bounds|maximum memory|exceeds the max|GPUOutOfMemory/i;
const MISSING = /could not locate file|not found locally|file was not found|unauthorized access|404|no such file|ENOENT/i;

function loadError(model: string, err: unknown): GenerationError {
  if (err instanceof GenerationError) return err;
  const why = errorText(err);
  if (MEMORY.test(why) || typeof err === 'number') {
    return new GenerationError(`the model "${model}" does not fit in this device's memory (${why}); choose a smaller model or precision`, 'out-of-memory');
  }
  if ((err as { name?: string } | null)?.name === 'ModelFileNotFoundError' || MISSING.test(why)) {
    return new GenerationError(`the files of the model "${model}" could not be found (${why})`, 'model-load');
  }
  return new GenerationError(`the model "${model}" could not be loaded (${why})`, 'model-load');
}

function runError(model: string, err: unknown): GenerationError {
  if (err instanceof GenerationError) return err;
  const why = errorText(err);
  if (MEMORY.test(why) || typeof err === 'number') {
    return new GenerationError(`the model "${model}" ran out of memory while answering (${why}); use fewer sources or a smaller model`, 'out-of-memory');
  }
  return new GenerationError(`the model "${model}" failed while answering (${why})`, 'server');
}
