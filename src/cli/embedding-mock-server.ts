/**
 * A mock OpenAI-compatible embeddings server on 127.0.0.1 for tests, the e2e spec and the bench.
 * POST /v1/embeddings answers a bag-of-words vector per text (each lower-cased word a seeded
 * random direction, summed): deterministic, and a question finds the sentence sharing its words.
 * It honours `dimensions`, lists the vectors last-first (their `index` says the order), answers
 * CORS preflights, and records what it was sent. Faults on
 * demand (each counted on requests other than the client's fixed "dimension probe"):
 *   options.fail429 / fail500   that many requests get HTTP 429 (Retry-After: 1) / 500 first
 *   options.key                 any other Bearer key gets HTTP 401
 *   options.limitPerSecond      serves at most that many texts a second (queued in arrival order)
 *   models 'mock-nan' | 'mock-zero' | 'mock-short' | 'mock-ignores-dimensions'   bad replies
 *   any model not in options.models gets HTTP 404; any other path gets an HTML page (HTTP 200)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocally } from '../node/listen-locally';
import { mulberry32 } from '../core/util/random';

export interface MockEmbeddingOptions {
  port?: number;
  dim?: number;
  models?: string[];
  key?: string;
  fail429?: number;
  fail500?: number;
  limitPerSecond?: number;
  /** Added to every answer (to cancel mid-run). */
  delayMs?: number;
}

export interface MockEmbeddingServer {
  url: string;
  /** Every embeddings request: its model and texts, and the key sent. */
  requests: { model: string; texts: string[]; authorization: string | null; dimensions?: number }[];
  options: MockEmbeddingOptions;
  close(): Promise<void>;
}

export const MOCK_MODELS = ['mock-embed', 'mock-nan', 'mock-zero', 'mock-short', 'mock-ignores-dimensions'];
const PROBE = 'dimension probe';

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A text's bag-of-words vector (not normalised: the client normalises). */
export function mockVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const u = wordVector(w, dim);
    for (let d = 0; d < dim; d++) v[d]! += u[d]!;
  }
  return v;
}

/** Word directions are cached (bounded): a benchmarked server must not spend its time on them. */
const words = new Map<string, Float64Array>();
function wordVector(w: string, dim: number): Float64Array {
  const key = `${dim}:${w}`;
  let u = words.get(key);
  if (!u) {
    const rand = mulberry32(hash(w));
    u = Float64Array.from({ length: dim }, () => rand() - 0.5);
    if (words.size > 200_000) words.clear();
    words.set(key, u);
  }
  return u;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startEmbeddingMockServer(options: MockEmbeddingOptions = {}): Promise<MockEmbeddingServer> {
  const requests: MockEmbeddingServer['requests'] = [];
  const counts = { e429: 0, e500: 0 };
  let nextFree = 0;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/embeddings')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<!doctype html><html><head><title>Mock app</title></head><body>Not an API</body></html>');
    }
    const o = options;
    const body = JSON.parse(await readBody(req)) as { model?: string; input?: string | string[]; dimensions?: number };
    const texts = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
    const model = body.model ?? '';
    const authorization = req.headers.authorization ?? null;
    const probe = texts.length === 1 && texts[0] === PROBE;
    requests.push({ model, texts, authorization, ...(body.dimensions ? { dimensions: body.dimensions } : {}) });
    if (o.key && authorization !== `Bearer ${o.key}`) return send(res, 401, { error: { message: 'Incorrect API key provided' } });
    if (!(o.models ?? MOCK_MODELS).includes(model)) return send(res, 404, { error: { message: `model "${model}" not found, try pulling it first` } });
    if (!probe && counts.e429 < (o.fail429 ?? 0)) {
      counts.e429++;
      return send(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '1' });
    }
    if (!probe && counts.e500 < (o.fail500 ?? 0)) {
      counts.e500++;
      return send(res, 500, { error: { message: 'internal error' } });
    }
    const dim = model === 'mock-ignores-dimensions' ? (o.dim ?? 64) : (body.dimensions ?? o.dim ?? 64);
    let vectors = texts.map((t) => mockVector(t, dim));
    if (!probe && model === 'mock-nan') vectors = vectors.map((v) => v.map((x, d) => (d === 0 ? NaN : x)));
    if (!probe && model === 'mock-zero') vectors = vectors.map((v) => v.map(() => 0));
    if (!probe && model === 'mock-short') vectors = vectors.slice(1);
    // A server of fixed capacity: each batch takes texts/limit seconds after the previous one.
    let waitMs = o.delayMs ?? 0;
    if (o.limitPerSecond) {
      const now = performance.now();
      const start = Math.max(now, nextFree);
      nextFree = start + (texts.length / o.limitPerSecond) * 1000;
      waitMs += nextFree - now;
    }
    if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    send(res, 200, { object: 'list', model, data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(), usage: { prompt_tokens: 0, total_tokens: 0 } });
  });
  return { ...(await listenLocally(server, options.port)), requests, options };
}
