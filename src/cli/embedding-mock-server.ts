/**
 * The embeddings behaviour of the project's OpenAI-compatible fixture (node/openai-fixture.ts),
 * for tests, the e2e specs and the bench: a bag-of-words vector per text (each lower-cased word
 * a seeded random direction, summed): deterministic, and a question finds the sentence sharing
 * its words. It honours `dimensions` and lists the vectors last-first (their `index` says the
 * order). Faults on demand (each counted on requests other than the client's fixed "dimension
 * probe"; the options may be changed while it runs):
 *   options.fail429 / fail500   that many requests get HTTP 429 (Retry-After: 1) / 500 first
 *   options.key                 any other Bearer key, or none, gets HTTP 401
 *   options.limitPerSecond      serves at most that many texts a second (queued in arrival order)
 *   models 'mock-nan' | 'mock-zero' | 'mock-short' | 'mock-ignores-dimensions'   bad replies
 *   any model not in options.models gets HTTP 404; any other path gets an HTML page (HTTP 200)
 */
import { fixedCapacity, startOpenAIFixture, type EmbeddingCall, type EmbeddingReply, type OpenAIFixture } from '../node/openai-fixture';
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

export interface MockEmbeddingServer extends OpenAIFixture {
  options: MockEmbeddingOptions;
}

export const MOCK_MODELS = ['mock-embed', 'mock-nan', 'mock-zero', 'mock-short', 'mock-ignores-dimensions'];
const PROBE = 'dimension probe';
const NOT_AN_API = '<!doctype html><html><head><title>Mock app</title></head><body>Not an API</body></html>';

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

function embeddingBehaviour(o: MockEmbeddingOptions): (call: EmbeddingCall) => EmbeddingReply {
  const faults = { e429: 0, e500: 0 };
  const capacity = fixedCapacity();
  return ({ model, texts, dimensions }) => {
    const probe = texts.length === 1 && texts[0] === PROBE;
    if (!(o.models ?? MOCK_MODELS).includes(model)) return { status: 404, error: `model "${model}" not found, try pulling it first` };
    if (!probe && faults.e429 < (o.fail429 ?? 0)) {
      faults.e429++;
      return { status: 429, error: 'Rate limit reached', headers: { 'Retry-After': '1' } };
    }
    if (!probe && faults.e500 < (o.fail500 ?? 0)) {
      faults.e500++;
      return { status: 500, error: 'internal error' };
    }
    const dim = model === 'mock-ignores-dimensions' ? (o.dim ?? 64) : (dimensions ?? o.dim ?? 64);
    let vectors = texts.map((t) => mockVector(t, dim));
    if (!probe && model === 'mock-nan') vectors = vectors.map((v) => v.map((x, d) => (d === 0 ? NaN : x)));
    if (!probe && model === 'mock-zero') vectors = vectors.map((v) => v.map(() => 0));
    if (!probe && model === 'mock-short') vectors = vectors.slice(1);
    const delayMs = (o.delayMs ?? 0) + (o.limitPerSecond ? capacity(texts.length, o.limitPerSecond) : 0);
    return { vectors, delayMs, order: 'reversed' };
  };
}

export async function startEmbeddingMockServer(options: MockEmbeddingOptions = {}): Promise<MockEmbeddingServer> {
  const fixture = await startOpenAIFixture({
    embeddings: embeddingBehaviour(options),
    ...(options.key ? { key: options.key, requireKey: true } : {}),
    other: { html: NOT_AN_API },
    ...(options.port ? { port: options.port } : {}),
  });
  return { ...fixture, options };
}
