import { afterEach, describe, expect, it } from 'vitest';
import { mockVector, startEmbeddingMockServer, type MockEmbeddingOptions, type MockEmbeddingServer } from '../../cli/embedding-mock-server';
import { EmbeddingCancelled } from './embedder';
import { EmbeddingEndpointError, EndpointEmbedder, embeddingsUrl, type EmbeddingEndpointConfig, type EndpointTuning } from './endpoint-embedder';

let server: MockEmbeddingServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(options: MockEmbeddingOptions = {}): Promise<MockEmbeddingServer> {
  server = await startEmbeddingMockServer({ dim: 16, ...options });
  return server;
}

const noWait: EndpointTuning = { sleep: async () => undefined };
const texts = Array.from({ length: 10 }, (_, i) => `sentence number ${i} about ${'x'.repeat(i % 3)} rivers`);

function normalised(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => Math.fround(x / n));
}

async function connect(config: Partial<EmbeddingEndpointConfig> = {}, tuning: EndpointTuning = {}) {
  return EndpointEmbedder.connect({ baseUrl: server!.url, model: 'mock-embed', ...config }, { ...noWait, ...tuning });
}

describe('embeddingsUrl', () => {
  it('adds /v1/embeddings to an origin, /embeddings to an API base, keeps a full URL', () => {
    expect(embeddingsUrl('http://localhost:11434')).toBe('http://localhost:11434/v1/embeddings');
    expect(embeddingsUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/embeddings');
    expect(embeddingsUrl('http://h:8080/v1/embeddings')).toBe('http://h:8080/v1/embeddings');
    expect(() => embeddingsUrl('localhost:11434')).toThrow('"localhost:11434" is not an http(s) URL');
  });
});

describe('EndpointEmbedder against a server on 127.0.0.1', () => {
  it('learns the size from a fixed probe text, keys vectors by host, model and size', async () => {
    const s = await start();
    const e = await connect();
    expect(e.dim).toBe(16);
    expect(e.model).toBe(`endpoint:${new URL(s.url).host}/mock-embed@16`);
    expect(s.requests.map((r) => r.texts)).toEqual([['dimension probe']]);
    const e8 = await connect({ dimensions: 8 });
    expect([e8.dim, e8.model.endsWith('/mock-embed@8')]).toEqual([8, true]);
    expect(s.requests.at(-1)!.body?.dimensions).toBe(8);
  });

  it('sends batches of the configured size, concurrently, and keeps input order', async () => {
    const s = await start();
    const e = await connect({ passagePrefix: 'doc: ' }, { batchSize: 3, concurrency: 2 });
    const progress: number[] = [];
    const { vectors, truncated } = await e.embed(texts, { onProgress: (d) => progress.push(d) });
    const sent = s.requests.slice(1);
    expect(sent.map((r) => r.texts.length)).toEqual([3, 3, 3, 1]);
    expect(sent.flatMap((r) => r.texts).sort()).toEqual(texts.map((t) => `doc: ${t}`).sort());
    texts.forEach((t, i) => expect(Array.from(vectors.subarray(i * 16, (i + 1) * 16))).toEqual(normalised(mockVector(`doc: ${t}`, 16))));
    expect(progress).toEqual([3, 6, 9, 10]);
    expect(e.recipe).toEqual({ pooling: 'endpoint', queryPrefix: '', passagePrefix: 'doc: ', source: `endpoint ${s.url}/v1/embeddings model mock-embed` });
    expect(truncated).toEqual([]);
  });

  it('a question finds the sentence that shares its words', async () => {
    await start({ dim: 256 });
    const e = await connect();
    const { vectors } = await e.embed(['Bolts hold the wing spar.', 'Rivers flood in spring.', 'Which bolts hold the wing?'], { kind: 'query' });
    const dot = (a: number, b: number) => vectors.subarray(a * 256, a * 256 + 256).reduce((s, x, d) => s + x * vectors[b * 256 + d]!, 0);
    expect(dot(2, 0)).toBeGreaterThan(dot(2, 1) + 0.3);
  });

  it('a 429 waits as long as Retry-After says; a 5xx backs off; both then succeed', async () => {
    await start({ fail429: 1, fail500: 2 });
    const waits: [number, string][] = [];
    const e = await connect({}, { backoffMs: 100, onRetry: (r) => waits.push([r.waitMs, r.reason.split(' (')[0]!]) });
    const { vectors } = await e.embed(['one text']);
    expect(waits).toEqual([
      [1000, `the embedding endpoint ${server!.url}/v1/embeddings is limiting requests`],
      [200, `the embedding endpoint ${server!.url}/v1/embeddings failed`],
      [400, `the embedding endpoint ${server!.url}/v1/embeddings failed`],
    ]);
    expect(Math.hypot(...vectors)).toBeCloseTo(1, 6);
  });

  it('gives up after the bounded retries, saying so', async () => {
    await start({ fail500: 10 });
    const e = await connect({}, { retries: 2 });
    await expect(e.embed(['a text'])).rejects.toThrow(`the embedding endpoint ${server!.url}/v1/embeddings failed (HTTP 500: internal error); gave up after 3 tries`);
  });

  const bad: [string, Partial<EmbeddingEndpointConfig>, MockEmbeddingOptions, (url: string) => string][] = [
    ['a refused key', { apiKey: 'wrong' }, { key: 'right' }, (u) => `the embedding endpoint ${u} refused the key (HTTP 401: Incorrect API key provided)`],
    ['no key sent', {}, { key: 'right' }, (u) => `the embedding endpoint ${u} refused the request (HTTP 401: Incorrect API key provided) — no key was sent; give one`],
    ['an unknown model', { model: 'nomic-embed-text' }, {}, (u) => `no embeddings at ${u}, or no model "nomic-embed-text" there (HTTP 404: model "nomic-embed-text" not found, try pulling it first)`],
  ];
  for (const [what, config, options, message] of bad) {
    it(`${what}: one sentence naming the endpoint, at connect`, async () => {
      await start(options);
      await expect(connect(config)).rejects.toThrow(message(`${server!.url}/v1/embeddings`));
    });
  }

  const badVectors: [string, string, Partial<EmbeddingEndpointConfig>, string][] = [
    ['NaN in a vector', 'mock-nan', {}, 'returned a vector with NaN or non-numbers for text 1 of the batch (model "mock-nan")'],
    ['zero vectors', 'mock-zero', {}, 'returned an all-zero vector for a text with words (model "mock-zero")'],
    ['too few vectors', 'mock-short', {}, 'returned 1 vectors for 2 texts (model "mock-short")'],
    ['the wrong dimension', 'mock-ignores-dimensions', { dimensions: 8 }, 'returned a vector of 16 dimensions, expected 8 (model "mock-ignores-dimensions")'],
  ];
  for (const [what, model, config, message] of badVectors) {
    it(`${what}: refused with the endpoint and model named`, async () => {
      await start();
      const e = model === 'mock-ignores-dimensions' ? EndpointEmbedder.connect({ baseUrl: server!.url, model, ...config }, noWait) : connect({ model, ...config });
      const run = (async () => (await e).embed(['first text', 'second text']))();
      const err = await run.catch((x: unknown) => x);
      expect(err).toBeInstanceOf(EmbeddingEndpointError);
      expect((err as Error).message).toBe(`${server!.url}/v1/embeddings ${message}`);
    });
  }

  it('an HTML page instead of JSON', async () => {
    await start();
    await expect(EndpointEmbedder.connect({ baseUrl: `${server!.url}/app/`, model: 'mock-embed' }, noWait)).rejects.toThrow(
      `${server!.url}/app/embeddings answered with a web page (HTML), not JSON: check that the URL points at the API (often it ends in /v1)`,
    );
  });

  it('a server that is down: unreachable, after the bounded retries', async () => {
    const s = await start();
    const url = s.url;
    await s.close();
    server = null;
    const err = (await EndpointEmbedder.connect({ baseUrl: url, model: 'mock-embed' }, { ...noWait, retries: 1 }).catch((x: unknown) => x)) as EmbeddingEndpointError;
    expect(err.kind).toBe('unreachable');
    expect(err.message).toMatch(new RegExp(`^the embedding endpoint ${url}/v1/embeddings is unreachable \\(.+\\); is the server running.*; gave up after 2 tries$`));
  });

  it('cancel stops between batches; nothing more is sent', async () => {
    const s = await start({ delayMs: 30 });
    const e = await connect({}, { batchSize: 2, concurrency: 1 });
    const ctl = new AbortController();
    const p = e.embed(texts, { signal: ctl.signal, onProgress: (d) => d === 4 && ctl.abort() });
    await expect(p).rejects.toBeInstanceOf(EmbeddingCancelled);
    expect(s.requests.slice(1).map((r) => r.texts.length)).toEqual([2, 2]);
  });

  it('texts without words are not sent and get zero vectors', async () => {
    const s = await start();
    const e = await connect();
    const { vectors } = await e.embed(['', 'words here', '   ']);
    expect(s.requests.slice(1).map((r) => r.texts)).toEqual([['words here']]);
    expect(vectors.subarray(0, 16).every((x) => x === 0) && vectors.subarray(32).every((x) => x === 0)).toBe(true);
  });
});
