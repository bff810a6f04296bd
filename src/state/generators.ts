/**
 * The two kinds of generator behind one interface: a model in this browser (the generation
 * worker) and an OpenAI-compatible endpoint (called from the page, so the page's
 * Content-Security-Policy decides where it may connect).
 */
import { ApproxTokenCounter } from '../core/segment/tokens';
import { assemblePrompt, CHAT_MESSAGE_TOKENS, type AssembledPrompt, type PromptBlock } from '../core/generate/prompt';
import { describeRequest, GenerationError, streamChat, type ChatMessage, type EndpointConfig, type GenerationErrorKind, type StreamOptions, type StreamResult } from '../core/generate/openai';
import { chatWithRetry } from '../core/generate/retry';
import { endpointIdentity, ENDPOINT_CONCURRENCY, localIdentity } from '../core/answers/generators';
import ortMjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { RpcClient } from '../rpc/client';
import { RpcError, type RpcPort } from '../rpc/wire';
import { GENERATION_TAG, type AssembleOptions, type GenerationApi, type GenerationProgress, type LoadedGenerator, type LocalModelChoice } from '../worker/generation-protocol';
import { errorText } from './messages';

export interface GenerateOptions {
  signal?: AbortSignal;
  onToken?: (text: string) => void;
  maxTokens: number;
  temperature: number;
  /**
   * OpenAI structured outputs (`response_format`, e.g. a JSON schema): sent by an endpoint; the
   * in-browser model gets the same prompt without it (its reply is parsed tolerantly anyway).
   */
  responseFormat?: Record<string, unknown>;
  /**
   * For runs of many calls (question generation): an endpoint retries 429 (after its
   * Retry-After), 5xx and unreachable calls, bounded (core/generate/retry.ts), and says so here.
   */
  retry?: { onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void };
}

export interface Generator {
  /** "Qwen2.5-0.5B-Instruct in this browser (WASM)" or "llama3.2 at http://localhost:11434/v1/chat/completions". */
  readonly label: string;
  /** What makes its replies what they are (endpoint URL and model, or model and precision): answer runs key their cache by it. */
  readonly identity: string;
  /** Calls an answer run may have in flight at once. */
  readonly concurrency: number;
  readonly contextTokens: number;
  /** What the token counts are counted with. */
  readonly counter: string;
  assemble(question: string, blocks: PromptBlock[], options: AssembleOptions): Promise<AssembledPrompt>;
  count(messages: ChatMessage[]): Promise<number>;
  stream(messages: ChatMessage[], options: GenerateOptions): Promise<StreamResult>;
  /** Exactly what generating sends, and where. */
  describe(messages: ChatMessage[]): string;
}

// ---- OpenAI-compatible endpoint --------------------------------------------------------------

const approx = new ApproxTokenCounter();
const PER_MESSAGE = CHAT_MESSAGE_TOKENS;

export class EndpointGenerator implements Generator {
  readonly counter = 'approx (the endpoint’s tokenizer is not available in the browser)';
  readonly concurrency = ENDPOINT_CONCURRENCY;
  constructor(
    private readonly endpoint: EndpointConfig,
    readonly contextTokens: number,
  ) {}

  get identity(): string {
    return endpointIdentity(this.endpoint);
  }

  get label(): string {
    let where = this.endpoint.baseUrl;
    try {
      where = new URL(this.endpoint.baseUrl).host;
    } catch {
      // shown as typed
    }
    return `${this.endpoint.model || '(no model)'} at ${where}`;
  }

  assemble(question: string, blocks: PromptBlock[], options: AssembleOptions): Promise<AssembledPrompt> {
    return Promise.resolve(
      assemblePrompt(question, blocks, {
        contextTokens: Math.min(this.contextTokens, options.contextTokens ?? Infinity) - 2 * PER_MESSAGE,
        answerTokens: options.answerTokens,
        counter: approx,
        headers: options.headers,
        ...(options.instructions ? { instructions: options.instructions } : {}),
      }),
    );
  }

  count(messages: ChatMessage[]): Promise<number> {
    return Promise.resolve(messages.reduce((n, m) => n + approx.count(m.content) + PER_MESSAGE, 0));
  }

  stream(messages: ChatMessage[], options: GenerateOptions): Promise<StreamResult> {
    const call = options.retry ? (e: EndpointConfig, m: ChatMessage[], o: StreamOptions) => chatWithRetry(e, m, { ...o, ...(options.retry?.onRetry ? { onRetry: options.retry.onRetry } : {}) }) : streamChat;
    return call(this.endpoint, messages, {
      maxTokens: options.maxTokens,
      temperature: options.temperature,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onToken ? { onToken: options.onToken } : {}),
      ...(options.responseFormat ? { responseFormat: options.responseFormat } : {}),
    }).catch((e: unknown) => {
      throw blockedByPolicy(e, this.endpoint.baseUrl) ?? e;
    });
  }

  describe(messages: ChatMessage[]): string {
    return describeRequest(this.endpoint, messages);
  }
}

/** Origins this page's policy lets it connect to besides the hub (see vite.config.ts). */
function allowedByPolicy(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  // CSP source lists cannot name IPv6 literals, so [::1] is not among them.
  return url.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(url.hostname);
}

/** A plain-http endpoint on another machine is refused by the page itself: say so, not "unreachable". */
function blockedByPolicy(e: unknown, baseUrl: string): GenerationError | null {
  if (!(e instanceof GenerationError) || e.kind !== 'unreachable') return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  if (allowedByPolicy(url)) return null;
  return new GenerationError(
    `this page connects to plain-http endpoints only on this machine (localhost or 127.0.0.1), not to ${url.host}: serve the endpoint over https, or reach it through localhost (an SSH tunnel or a local proxy)`,
    'config',
  );
}

// ---- In-browser model (generation worker) -----------------------------------------------------

/** The worker's coded error as the GenerationError the generator interface promises. */
function generationError(e: unknown): Error {
  if (!(e instanceof RpcError)) return e as Error;
  if (e.code === 'generation') return new GenerationError(e.message, (e.data as { kind: GenerationErrorKind }).kind);
  return new GenerationError(errorText(e), e.code === 'model-unavailable' ? 'model-load' : 'server');
}

/**
 * The page's door to the generation worker (typed requests, progress, cancel through the
 * RPC). The worker starts on the first request and again after it was ended.
 */
export class GenerationWorkerClient {
  private worker: { worker: Worker; rpc: RpcClient<GenerationApi> } | null = null;
  private readonly unloadListeners = new Set<(reason: string) => void>();

  private get rpc(): RpcClient<GenerationApi> {
    if (!this.worker) {
      const worker = new Worker(new URL('../worker/generation-worker.ts', import.meta.url), { type: 'module', name: 'rag-lab-generation' });
      const rpc = new RpcClient<GenerationApi>(worker as unknown as RpcPort, GENERATION_TAG);
      // A model too large for the device can take the worker down: every waiting request learns why.
      worker.onerror = (e) => {
        e.preventDefault();
        this.fail(`the in-browser model stopped: ${e.message || 'the worker ran out of memory or crashed'}; try a smaller model`);
      };
      this.worker = { worker, rpc };
    }
    return this.worker.rpc;
  }

  private fail(message: string): void {
    const had = this.worker;
    this.worker = null;
    if (!had) return;
    had.worker.terminate();
    had.rpc.fail(new GenerationError(message, 'server'));
    for (const l of this.unloadListeners) l(message);
  }

  request<M extends keyof GenerationApi>(method: M, params: GenerationApi[M]['params'], onProgress?: (p: GenerationProgress) => void, signal?: AbortSignal): Promise<GenerationApi[M]['result']> {
    return this.rpc
      .request(method, params, { ...(onProgress ? { onProgress: onProgress as (p: GenerationApi[M]['progress']) => void } : {}), ...(signal ? { signal } : {}) })
      .promise.catch((e: unknown) => {
        throw generationError(e);
      });
  }

  /** Called when the worker (and the model in it) is ended. */
  onUnload(listener: (reason: string) => void): void {
    this.unloadListeners.add(listener);
  }

  /** Ends the worker and frees the model's memory. */
  terminate(reason = 'the in-browser model was unloaded'): void {
    this.fail(reason);
  }
}

export class LocalGeneratorProxy implements Generator {
  readonly counter: string;
  readonly contextTokens: number;
  readonly label: string;
  readonly identity: string;
  /** One model in one worker answers one prompt at a time. */
  readonly concurrency = 1;
  private constructor(
    private readonly client: GenerationWorkerClient,
    info: LoadedGenerator,
    dtype: string,
  ) {
    this.counter = `${info.counter} tokenizer`;
    this.contextTokens = info.contextTokens;
    this.label = `${info.model} in this browser (${info.device === 'webgpu' ? 'WebGPU' : 'WASM'})`;
    this.identity = localIdentity(info.model, dtype);
  }

  static async load(client: GenerationWorkerClient, choice: LocalModelChoice, threads: number, onProgress: (p: GenerationProgress) => void): Promise<LocalGeneratorProxy> {
    const abs = (u: string) => new URL(u, document.baseURI).href;
    const info = await client.request('load', { choice, modelsUrl: abs('./models/'), ortWasm: { mjs: abs(ortMjs), wasm: abs(ortWasm) }, threads }, onProgress);
    return new LocalGeneratorProxy(client, info, choice.dtype);
  }

  assemble(question: string, blocks: PromptBlock[], options: AssembleOptions): Promise<AssembledPrompt> {
    return this.client.request('assemble', { question, blocks, options });
  }

  count(messages: ChatMessage[]): Promise<number> {
    return this.client.request('count', { messages });
  }

  /**
   * Stopping: a cross-origin isolated page shares a flag the worker reads between tokens.
   * Elsewhere the stop message only arrives when the answer ends, so after a second the
   * worker is ended instead (the model must be loaded again) and the text so far is kept.
   */
  stream(messages: ChatMessage[], options: GenerateOptions): Promise<StreamResult> {
    const shared = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
    const stopFlag = shared ? new SharedArrayBuffer(4) : undefined;
    let text = '';
    const reply = this.client.request(
      'generate',
      { messages, maxTokens: options.maxTokens, temperature: options.temperature, ...(stopFlag ? { stopFlag } : {}) },
      (p) => {
        if (p.kind !== 'token') return;
        text += p.text;
        options.onToken?.(p.text);
      },
      options.signal,
    );
    const signal = options.signal;
    if (!signal) return reply;
    return new Promise<StreamResult>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      const onAbort = () => {
        if (stopFlag) Atomics.store(new Int32Array(stopFlag), 0, 1);
        else
          timer = setTimeout(() => {
            this.client.terminate('the in-browser model was unloaded to stop the answer (this page is not cross-origin isolated); load it again');
            resolve({ text, finishReason: null, stopped: true });
          }, 1000);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      reply.then(
        (r) => {
          if (timer) clearTimeout(timer);
          resolve(r);
        },
        (e: unknown) => {
          if (timer) clearTimeout(timer);
          if (signal.aborted) resolve({ text, finishReason: null, stopped: true });
          else reject(e as Error);
        },
      );
    });
  }

  describe(): string {
    return `Nothing is sent anywhere: ${this.label.replace(' in this browser', '')} runs in this browser tab, and the prompt never leaves this machine.`;
  }
}
