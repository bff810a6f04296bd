/**
 * Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (Ollama, LM Studio, llama.cpp
 * server, vLLM, Hugging Face TEI, OpenAI…). Texts go in batches, several in flight at once,
 * and come back in input order; a 429 waits as long as its Retry-After says, a 5xx or an
 * unreachable server backs off, both a bounded number of times (the waiting is retry.ts's,
 * shared with chat generation). Everything else fails at once with one sentence naming the URL.
 */
import { ApproxTokenCounter, type TokenCounter } from '../segment/tokens';
import { abortableSleep, retryAfterMs, RETRY_DEFAULTS } from '../generate/retry';
import { EmbeddingCancelled, lengthSortedOrder, type EmbedOptions, type EmbedRecipe, type EmbedResult, type Embedder, type LateChunkingSupport } from './embedder';
import { EmbeddingEndpointError, embeddingsBody, embeddingsUrl, httpFailure, parseEmbeddings } from './endpoint-reply';
import { readCapped } from '../generate/endpoint-replies';

export { EmbeddingEndpointError, embeddingsUrl } from './endpoint-reply';

export interface EmbeddingEndpointConfig {
  /** "http://localhost:11434", "https://api.openai.com/v1", or the full ".../embeddings". */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when non-empty. */
  apiKey?: string;
  /** Sent as `dimensions` (OpenAI text-embedding-3, some servers); vectors must come back this long. */
  dimensions?: number;
  /** Put before queries / passages, as the model expects (e.g. nomic: "search_query: "). */
  queryPrefix?: string;
  passagePrefix?: string;
}

export interface EndpointTuning {
  /** Texts per request (default 64: OpenAI takes up to 2,048, Ollama and TEI batch internally). */
  batchSize?: number;
  /** Requests in flight at once (default 4: keeps a local server busy while a reply travels). */
  concurrency?: number;
  /** Tries after the first, for 429, 5xx and an unreachable server (default 3). */
  retries?: number;
  /** Longest single wait (default 30 s). */
  maxWaitMs?: number;
  /** First 5xx backoff, doubled each time (default 1 s). */
  backoffMs?: number;
  /** A request with no reply after this long is abandoned and tried again (default 120 s). */
  timeoutMs?: number;
  onRetry?: (info: { attempt: number; waitMs: number; reason: string }) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const ENDPOINT_DEFAULTS = { batchSize: 64, concurrency: 4, ...RETRY_DEFAULTS };

/** What the embedding model string says: vectors of another endpoint, model or size never mix. */
export function endpointModelKey(config: EmbeddingEndpointConfig, dim: number): string {
  const u = new URL(embeddingsUrl(config.baseUrl));
  return `endpoint:${u.host}/${config.model}@${dim}`;
}

export class EndpointEmbedder implements Embedder {
  readonly isTestModel = false;
  /** The server's tokenizer is unknown here: an estimate, labelled "approx". */
  readonly counter: TokenCounter = new ApproxTokenCounter();
  /** Unknown for an endpoint: the server truncates or refuses; large enough not to split units here. */
  readonly maxTokens = 8192;
  readonly model: string;
  readonly url: string;
  private readonly tuning: Required<Omit<EndpointTuning, 'onRetry' | 'fetch' | 'sleep'>> & EndpointTuning;

  private constructor(
    readonly config: EmbeddingEndpointConfig,
    readonly dim: number,
    tuning: EndpointTuning,
  ) {
    this.url = embeddingsUrl(config.baseUrl);
    this.model = endpointModelKey(config, dim);
    this.tuning = { ...ENDPOINT_DEFAULTS, ...tuning };
  }

  /** An endpoint answers one vector per text: there are no token vectors to pool. */
  get lateChunking(): LateChunkingSupport {
    return { available: false, reason: `late chunking is not available for endpoint ${this.url} model ${this.config.model}: it returns one vector per text, no token vectors` };
  }

  get recipe(): EmbedRecipe {
    return { pooling: 'endpoint', queryPrefix: this.config.queryPrefix ?? '', passagePrefix: this.config.passagePrefix ?? '', source: `endpoint ${this.url} model ${this.config.model}${this.config.dimensions ? ` dimensions ${this.config.dimensions}` : ''}` };
  }

  /**
   * Checks the endpoint with one fixed text ("dimension probe", never the user's) and learns the
   * vector size, so a wrong URL, key or model fails before any document is sent.
   */
  static async connect(config: EmbeddingEndpointConfig, tuning: EndpointTuning = {}): Promise<EndpointEmbedder> {
    const probe = new EndpointEmbedder(config, config.dimensions ?? 1, tuning);
    const { dim } = await probe.request(['dimension probe'], undefined, config.dimensions ?? null);
    return new EndpointEmbedder(config, dim, tuning);
  }

  /** One batch, with the bounded retries above. */
  private async request(texts: string[], signal: AbortSignal | undefined, dim: number | null): Promise<{ vectors: Float32Array; dim: number }> {
    const t = this.tuning;
    const doFetch = t.fetch ?? ((i, init) => globalThis.fetch(i, init));
    const sleep = t.sleep ?? abortableSleep;
    const key = this.config.apiKey?.trim();
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new EmbeddingCancelled();
      const timeout = new AbortController();
      const onAbort = () => timeout.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = t.timeoutMs > 0 ? setTimeout(() => timeout.abort(), t.timeoutMs) : null;
      let failure: EmbeddingEndpointError;
      let retryable = false;
      let wait: number | null = null;
      try {
        const r = await doFetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body: embeddingsBody(this.config.model, texts, this.config.dimensions),
          signal: timeout.signal,
        });
        // A reply is read whole (the runtime's own decoding); an error body only up to 64 KB.
        if (r.ok) return parseEmbeddings(await r.text(), r.headers.get('content-type') ?? '', this.url, this.config.model, texts, dim ?? undefined);
        const body = (await readCapped(r, 64 * 1024, timeout.signal)) ?? '';
        ({ error: failure, retryable } = httpFailure(r.status, body, this.url, this.config.model, key));
        if (r.status === 429) wait = retryAfterMs(r.headers.get('retry-after'), t.maxWaitMs);
      } catch (e) {
        if (signal?.aborted) throw new EmbeddingCancelled();
        if (e instanceof EmbeddingEndpointError) throw e;
        const timedOut = timeout.signal.aborted;
        failure = new EmbeddingEndpointError(
          timedOut ? `the embedding endpoint ${this.url} sent no reply within ${t.timeoutMs / 1000} s` : `the embedding endpoint ${this.url} is unreachable (${(e as Error).message}); is the server running, and does it allow this page's origin (CORS)?`,
          timedOut ? 'server' : 'unreachable',
        );
        retryable = true;
      } finally {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
      if (!retryable || attempt >= t.retries) {
        if (retryable && attempt > 0) throw new EmbeddingEndpointError(`${failure.message}; gave up after ${attempt + 1} tries`, failure.kind, failure.status);
        throw failure;
      }
      const waitMs = wait ?? Math.min(t.maxWaitMs, t.backoffMs * 2 ** attempt);
      t.onRetry?.({ attempt: attempt + 1, waitMs, reason: failure.message });
      await sleep(waitMs, signal);
    }
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<EmbedResult> {
    const prefix = (options.kind === 'query' ? this.config.queryPrefix : this.config.passagePrefix) ?? '';
    const size = Math.max(1, this.tuning.batchSize);
    const vectors = new Float32Array(texts.length * this.dim);
    // Texts without words are not sent (servers refuse empty input): their vector is zero, as with local models.
    const order = lengthSortedOrder(texts).filter((i) => /\S/.test(texts[i]!));
    const batches: number[][] = [];
    for (let b = 0; b < order.length; b += size) batches.push(order.slice(b, b + size));
    let done = texts.length - order.length;
    let next = 0;
    let failed: unknown = null;
    const worker = async () => {
      while (next < batches.length && failed === null) {
        const idx = batches[next++]!;
        const { vectors: got } = await this.request(idx.map((i) => prefix + texts[i]!), options.signal, this.dim);
        idx.forEach((i, row) => vectors.set(got.subarray(row * this.dim, (row + 1) * this.dim), i * this.dim));
        done += idx.length;
        options.onProgress?.(done, texts.length);
      }
    };
    const workers = Array.from({ length: Math.min(Math.max(1, this.tuning.concurrency), Math.max(1, batches.length)) }, () =>
      worker().catch((e) => {
        failed ??= e;
      }),
    );
    await Promise.all(workers);
    if (failed !== null) throw failed;
    if (batches.length === 0) options.onProgress?.(done, texts.length);
    return { vectors, truncated: [] };
  }
}
