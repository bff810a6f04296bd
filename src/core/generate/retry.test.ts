import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GenerationError } from './openai';
import { chatWithRetry, RETRY_DEFAULTS, retryAfterMs } from './retry';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never finish the body (a hung server). */
  hang?: boolean;
}
const ok = (text: string): Reply => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }) });

let server: Server;
let url = '';
let queue: Reply[] = [];
let bodies: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const p of req) parts.push(p as Buffer);
    bodies.push(JSON.parse(Buffer.concat(parts).toString('utf8')));
    const r = queue.shift() ?? ok('default');
    res.writeHead(r.status, r.headers ?? { 'content-type': 'application/json' });
    if (r.hang) {
      res.write('');
      return;
    }
    res.end(r.body ?? JSON.stringify({ error: { message: `status ${r.status}` } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  queue = [];
  bodies = [];
});

const endpoint = () => ({ baseUrl: url, model: 'm' });
const msgs = [{ role: 'user' as const, content: 'hi' }];
/** Records waits instead of waiting. */
function waits() {
  const ms: number[] = [];
  return { ms, sleep: async (w: number) => void ms.push(w) };
}

describe('chatWithRetry', () => {
  it('sends response_format and returns the reply', async () => {
    queue = [ok('{"question": "q", "answer": "a"}')];
    const format = { type: 'json_schema', json_schema: { name: 'x', strict: true, schema: { type: 'object' } } };
    const r = await chatWithRetry(endpoint(), msgs, { responseFormat: format });
    expect(r.text).toBe('{"question": "q", "answer": "a"}');
    expect(bodies[0]!.response_format).toEqual(format);
  });

  it('waits as long as a 429 Retry-After says (seconds or an HTTP date), capped', async () => {
    const w = waits();
    queue = [{ status: 429, headers: { 'retry-after': '2' } }, { status: 429, headers: { 'retry-after': 'Thu, 26 Nov 2026 03:00:05 GMT' } }, { status: 429, headers: { 'retry-after': '600' } }, ok('done')];
    const r = await chatWithRetry(endpoint(), msgs, { sleep: w.sleep, now: () => Date.parse('Thu, 26 Nov 2026 03:00:00 GMT') });
    expect(r.text).toBe('done');
    expect(w.ms).toEqual([2000, 5000, RETRY_DEFAULTS.maxWaitMs]);
    expect(bodies).toHaveLength(4);
  });

  it('backs off exponentially on 5xx, and gives up after the retries with the last error', async () => {
    const w = waits();
    queue = [{ status: 503 }, { status: 500 }, ok('fine')];
    expect((await chatWithRetry(endpoint(), msgs, { sleep: w.sleep })).text).toBe('fine');
    expect(w.ms).toEqual([1000, 2000]);
    const w2 = waits();
    queue = [{ status: 500 }, { status: 500 }, { status: 502 }];
    const err = await chatWithRetry(endpoint(), msgs, { sleep: w2.sleep, retries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GenerationError);
    expect((err as GenerationError).status).toBe(502);
    expect((err as GenerationError).message).toBe(`the server at ${url}/v1/chat/completions failed (HTTP 502: status 502)`);
    expect(w2.ms).toEqual([1000, 2000]);
  });

  it('fails at once on a refusal (401, 400)', async () => {
    const w = waits();
    queue = [{ status: 401 }];
    await expect(chatWithRetry(endpoint(), msgs, { sleep: w.sleep })).rejects.toMatchObject({ kind: 'auth', status: 401 });
    queue = [{ status: 400, body: JSON.stringify({ error: { message: 'bad temperature' } }) }];
    await expect(chatWithRetry(endpoint(), msgs, { sleep: w.sleep, responseFormat: { type: 'json_object' } })).rejects.toMatchObject({ status: 400 });
    expect(bodies).toHaveLength(2);
    expect(w.ms).toEqual([]);
  });

  it('asks once more without response_format when the server refuses it', async () => {
    queue = [{ status: 400, body: JSON.stringify({ error: { message: "Unrecognized request argument supplied: response_format" } }) }, ok('plain')];
    const r = await chatWithRetry(endpoint(), msgs, { responseFormat: { type: 'json_object' } });
    expect(r.text).toBe('plain');
    expect(bodies.map((b) => 'response_format' in b)).toEqual([true, false]);
  });

  it('stops waiting when the signal aborts, resolving as stopped', async () => {
    const ctrl = new AbortController();
    queue = [{ status: 429, headers: { 'retry-after': '30' } }, ok('never')];
    setTimeout(() => ctrl.abort(), 50);
    const t0 = performance.now();
    const r = await chatWithRetry(endpoint(), msgs, { signal: ctrl.signal });
    expect(r).toEqual({ text: '', finishReason: null, stopped: true });
    expect(bodies).toHaveLength(1);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('abandons a call that takes too long, and says so when out of tries', async () => {
    queue = [{ status: 200, headers: { 'content-type': 'text/event-stream' }, hang: true }];
    await expect(chatWithRetry(endpoint(), msgs, { timeoutMs: 100, retries: 0 })).rejects.toThrow(`no complete reply from ${url} within 0.1 s`);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, never negative, capped', () => {
    const now = Date.parse('Thu, 26 Nov 2026 03:00:00 GMT');
    expect(retryAfterMs('3', 30_000, now)).toBe(3000);
    expect(retryAfterMs('1.5', 30_000, now)).toBe(1500);
    expect(retryAfterMs('Thu, 26 Nov 2026 03:00:10 GMT', 30_000, now)).toBe(10_000);
    expect(retryAfterMs('Thu, 26 Nov 2026 02:59:00 GMT', 30_000, now)).toBe(0);
    expect(retryAfterMs('120', 30_000, now)).toBe(30_000);
    expect(retryAfterMs('soon', 30_000, now)).toBeNull();
    expect(retryAfterMs(null, 30_000, now)).toBeNull();
  });
});
