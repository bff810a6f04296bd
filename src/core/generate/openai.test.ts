import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletionsUrl, describeRequest, GenerationError, streamChat, type ChatMessage, type StreamResult } from './openai';

// ---------------------------------------------------------------------------------------------
// A real OpenAI-compatible server on 127.0.0.1: the first path segment picks the route, so the
// base URL "http://127.0.0.1:PORT/<route>/v1" reaches "/<route>/v1/chat/completions".

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const chunk = (content: string | null, extra: Record<string, unknown> = {}): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: null, ...extra }] })}\n\n`;

/** A stream with everything awkward: comments, keep-alives, \r\n, \n and bare \r line ends, two events in one line group, no space after "data:", empty/null/missing content, a final usage event and [DONE]. */
const AWKWARD_SSE = [
  ': connected\n\n',
  'data: {"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\r\n\r\n',
  '\n',
  'data: {"choices":[{"delta":{"content":"Hello"}}]}\n\ndata: {"choices":[{"delta":{"content":", wörld"}}]}\n\n',
  ': keep-alive\n\n',
  'data: {"choices":[{"delta":{"content":null}}]}\r\n\r\n',
  'data:{"choices":[{"delta":{"content":" 🙂"}}]}\n\n',
  'data: {"choices":[{"delta":{}}]}\n\n',
  'data: {"choices":[{"delta":{"content":" and"}}]}\r\r',
  'data: {"choices":[{"delta":\r\ndata: {"content":" so"}}]}\r\n\r\n', // one event's JSON over two data lines
  'data: {"choices":[{"delta":{"content":"!"},"finish_reason":"stop"}]}\r\n\r\n',
  'data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}\n\n',
  'data: [DONE]\n\n',
].join('');
const AWKWARD_TOKENS = ['Hello', ', wörld', ' 🙂', ' and', ' so', '!'];
const AWKWARD_BYTES = Buffer.from(AWKWARD_SSE, 'utf8');

/** Byte offsets that cut the stream at its worst places. */
function awkwardCuts(): number[] {
  const at = (s: string, plus: number): number => {
    const i = AWKWARD_BYTES.indexOf(Buffer.from(s, 'utf8'));
    if (i < 0) throw new Error(`no ${s}`);
    return i + plus;
  };
  return [
    at('data: {"id"', 3), // inside "data:"
    at('}\r\n\r\n', 2), // between \r and \n
    at('Hello', 2), // mid-token
    at('ö', 1), // inside the two bytes of ö
    at('🙂', 2), // inside the four bytes of 🙂
    at('🙂', 3),
    at(' and"}}]}\r\r', 10), // between the two bare \r
    at('"delta":\r\ndata', 9), // between \r and \n inside one event
    at('[DONE]', 3),
  ].sort((a, b) => a - b);
}

interface Recorded {
  headers: IncomingMessage['headers'];
  body: unknown;
  method: string | undefined;
}

let server: Server;
let port = 0;
let deadPort = 0;
const recorded: Recorded[] = [];
let slowClosed: Promise<{ endedByServer: boolean; sent: number }> | undefined;

const base = (route: string): string => `http://127.0.0.1:${port}/${route}/v1`;
const url = (route: string): string => `${base(route)}/chat/completions`;
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Answer from the sources.' },
  { role: 'user', content: 'What is the capital of France?' },
];

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

function sse(res: ServerResponse, type = 'text/event-stream'): void {
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
  res.flushHeaders();
}

async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
  const route = (req.url ?? '/').split('/')[1] ?? '';
  const auth = req.headers.authorization;
  switch (route) {
    case 'chunks': {
      sse(res);
      let from = 0;
      for (const cut of [...awkwardCuts(), AWKWARD_BYTES.length]) {
        res.write(AWKWARD_BYTES.subarray(from, cut));
        from = cut;
        await sleep(15);
      }
      res.end();
      return;
    }
    case 'record':
      recorded.push({ headers: req.headers, body: JSON.parse(raw) as unknown, method: req.method });
      sse(res);
      res.end(`${chunk('ok')}data: [DONE]\n\n`);
      return;
    case 'json':
      json(res, 200, { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } });
      return;
    case 'plain-sse': // SSE under the wrong content type: recognised by its first line
      sse(res, 'text/plain');
      res.end(`${chunk('plain')}${chunk(' text', { finish_reason: 'length' })}data: [DONE]\n\n`);
      return;
    case 'auth':
      json(res, 401, { error: { message: auth ? 'Incorrect API key provided.' : 'Missing bearer authentication in header', type: 'invalid_request_error', code: 'invalid_api_key' } });
      return;
    case 'echo-key':
      text(res, 403, `forbidden for ${auth ?? 'nobody'}`);
      return;
    case 'missing':
      json(res, 404, { error: { message: 'model "nope" not found, try pulling it first', type: 'api_error', param: null, code: null } });
      return;
    case 'nopath':
      text(res, 404, '404 page not found');
      return;
    case 'context':
      json(res, 400, {
        error: {
          message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
      return;
    case 'context-llamacpp':
      json(res, 400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 5000, n_ctx: 4096 } });
      return;
    case 'context-413':
      text(res, 413, 'Prompt too long');
      return;
    case 'badparam':
      json(res, 400, { error: 'temperature must be between 0 and 2' });
      return;
    case 'badtext':
      text(res, 400, 'Bad Request:\n  missing field `messages`');
      return;
    case 'max-tokens': // mentions tokens but is not about the prompt's length
      json(res, 400, { error: { message: 'max_tokens must be at least 1, got 0', type: 'invalid_request_error' } });
      return;
    case 'ratelimit':
      json(res, 429, { error: { message: 'Rate limit reached for requests', type: 'requests' } }, { 'retry-after': '7' });
      return;
    case 'boom':
      text(res, 500, 'Internal Server Error');
      return;
    case 'boom-empty':
      res.writeHead(502).end();
      return;
    case 'unavailable':
      text(res, 503, '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>', 'text/html');
      return;
    case 'html':
      text(res, 200, '<!doctype html>\n<html><title>Open WebUI</title></html>', 'text/html; charset=utf-8');
      return;
    case 'sse-html':
      text(res, 200, '<html><body>Login required</body></html>', 'text/event-stream');
      return;
    case 'empty':
      res.writeHead(200, { 'content-type': 'application/json' }).end();
      return;
    case 'json-other':
      json(res, 200, { models: ['a', 'b'] });
      return;
    case 'json-error':
      json(res, 200, { error: { message: 'model is loading' } });
      return;
    case 'not-json-event':
      sse(res);
      res.end('data: hello there\n\n');
      return;
    case 'midstream-error':
      sse(res);
      res.write(chunk('Par'));
      await sleep(20);
      res.write(chunk('is'));
      await sleep(20);
      res.end(`data: ${JSON.stringify({ error: { message: 'CUDA out of memory', type: 'server_error' } })}\n\n`);
      return;
    case 'event-error':
      sse(res);
      res.end(`event: error\ndata: ${JSON.stringify({ message: 'overloaded' })}\n\n`);
      return;
    case 'reset':
      sse(res);
      res.write(chunk('half'));
      await sleep(30);
      res.socket?.destroy();
      return;
    case 'slow': {
      sse(res);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent === 50) {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
          return;
        }
        res.write(chunk(`t${sent} `));
        sent++;
      }, 100);
      slowClosed = new Promise((resolve) => {
        res.on('close', () => {
          clearInterval(timer);
          resolve({ endedByServer: res.writableEnded, sent });
        });
      });
      res.write(': slow stream\n\n');
      return;
    }
    case 'hang': // headers only after 5 s
      await sleep(5000);
      if (!res.destroyed) json(res, 200, {});
      return;
    default:
      text(res, 404, 'no such route');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      handle(req, res, Buffer.concat(parts).toString('utf8')).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // A port with nothing listening: take one, then give it back.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The GenerationError a call rejects with (fails the test when it resolves or throws something else). */
async function failure(p: Promise<unknown>): Promise<GenerationError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GenerationError);
    return err as GenerationError;
  }
  throw new Error('expected a GenerationError, but the call succeeded');
}

const plain = (err: GenerationError): { kind: string; status: number | undefined; message: string } => ({ kind: err.kind, status: err.status, message: err.message });

// ---------------------------------------------------------------------------------------------

describe('chatCompletionsUrl', () => {
  it.each([
    ['http://localhost:11434', 'http://localhost:11434/v1/chat/completions'],
    ['http://localhost:11434/', 'http://localhost:11434/v1/chat/completions'],
    ['  http://127.0.0.1:1234/v1  ', 'http://127.0.0.1:1234/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['http://127.0.0.1:8080/v1//', 'http://127.0.0.1:8080/v1/chat/completions'],
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions'],
    ['HTTPS://Example.COM:443/api/v1#frag', 'https://example.com/api/v1/chat/completions'],
    ['https://example.com/v1?api-version=2024-06-01', 'https://example.com/v1/chat/completions?api-version=2024-06-01'],
  ])('%s → %s', (input, expected) => {
    expect(chatCompletionsUrl(input)).toBe(expected);
  });

  it.each([
    ['ftp://example.com/v1', '"ftp://example.com/v1" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['localhost:11434', '"localhost:11434" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['file:///etc/passwd', '"file:///etc/passwd" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['not a url', '"not a url" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['   ', 'the base URL is empty; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['http://user:sk-secret@example.com/v1', 'the base URL contains a user name or password; remove it and put the key in the API key field'],
  ])('rejects %j', (input, message) => {
    let caught: unknown;
    try {
      chatCompletionsUrl(input);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GenerationError);
    expect(plain(caught as GenerationError)).toEqual({ kind: 'config', status: undefined, message });
  });

  it('streamChat rejects a bad base URL, a missing model and no messages before sending anything', async () => {
    expect(plain(await failure(streamChat({ baseUrl: 'ws://localhost:1234', model: 'm' }, MESSAGES)))).toEqual({
      kind: 'config',
      status: undefined,
      message: '"ws://localhost:1234" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1',
    });
    expect((await failure(streamChat({ baseUrl: base('record'), model: ' ' }, MESSAGES))).message).toBe(`no model name is set for ${url('record')}`);
    expect((await failure(streamChat({ baseUrl: base('record'), model: 'm' }, []))).message).toBe('there are no messages to send');
    expect((await failure(streamChat({ baseUrl: base('record'), model: 'm', apiKey: 'sk-abc def' }, MESSAGES))).message).toBe(
      'the API key contains spaces or characters that cannot be sent in a header; paste it again',
    );
  });
});

describe('describeRequest', () => {
  it('states the URL, the model, that a key is sent (never the key), and the messages and characters', () => {
    const key = 'sk-proj-VERYSECRET1234567890';
    const d = describeRequest({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: key }, [
      { role: 'system', content: 'x'.repeat(1000) },
      { role: 'user', content: `${'y'.repeat(232)}🙂é` },
    ]);
    expect(d).toBe(
      'A POST request goes to https://api.openai.com/v1/chat/completions asking the model "gpt-4o-mini" to stream a reply to 2 messages (1 system, 1 user) totalling 1,234 characters. ' +
        'An API key is sent in the Authorization header (the key itself is not shown here). The text leaves this machine for api.openai.com.',
    );
    expect(d).not.toContain(key);
    expect(d).not.toContain('VERYSECRET');
  });

  it('says when no key is sent, when the endpoint is local, and when a remote one is plain http', () => {
    expect(describeRequest({ baseUrl: 'http://localhost:11434', model: 'llama3.2' }, [{ role: 'user', content: 'hi' }])).toBe(
      'A POST request goes to http://localhost:11434/v1/chat/completions asking the model "llama3.2" to stream a reply to 1 message (1 user) totalling 2 characters. ' +
        'No API key is sent. The endpoint is on this machine, so the text does not leave it.',
    );
    expect(describeRequest({ baseUrl: 'http://192.168.1.20:8000/v1', model: 'qwen', apiKey: '   ' }, MESSAGES)).toBe(
      'A POST request goes to http://192.168.1.20:8000/v1/chat/completions asking the model "qwen" to stream a reply to 2 messages (1 system, 1 user) totalling 54 characters. ' +
        'No API key is sent. The text leaves this machine for 192.168.1.20:8000, unencrypted (plain http).',
    );
  });

  it('says that nothing can be sent when the base URL is wrong', () => {
    expect(describeRequest({ baseUrl: 'localhost:11434', model: 'm', apiKey: 'sk-1234' }, MESSAGES)).toBe(
      'Nothing can be sent: "localhost:11434" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1.',
    );
  });
});

describe('streamChat: the request', () => {
  it('POSTs JSON with stream: true, the options, and a Bearer key only when one is set', async () => {
    recorded.length = 0;
    const withKey = await streamChat({ baseUrl: base('record'), model: 'gpt-x', apiKey: ' sk-test-123 ' }, MESSAGES, { temperature: 0.2, maxTokens: 64 });
    expect(withKey).toEqual({ text: 'ok', finishReason: null, stopped: false });
    await streamChat({ baseUrl: base('record'), model: 'llama3' }, [{ role: 'user', content: 'hi', extra: 'not sent' } as ChatMessage]);

    expect(recorded).toHaveLength(2);
    const [first, second] = recorded as [Recorded, Recorded];
    expect(first.method).toBe('POST');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers.authorization).toBe('Bearer sk-test-123');
    expect(first.body).toEqual({ model: 'gpt-x', messages: MESSAGES, stream: true, temperature: 0.2, max_tokens: 64 });

    expect(second.headers['content-type']).toBe('application/json');
    expect(second.headers.authorization).toBeUndefined();
    expect(second.body).toEqual({ model: 'llama3', messages: [{ role: 'user', content: 'hi' }], stream: true });
  });

  it('uses options.fetch, calling it unbound (browsers throw "Illegal invocation" otherwise)', async () => {
    const calls: { self: unknown; url: string }[] = [];
    const myFetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      calls.push({ self: this, url: String(input) });
      return fetch(input, init);
    } as typeof fetch;
    const r = await streamChat({ baseUrl: base('record'), model: 'm' }, MESSAGES, { fetch: myFetch });
    expect(r.text).toBe('ok');
    expect(calls).toEqual([{ self: undefined, url: url('record') }]);
  });
});

describe('streamChat: reading replies', () => {
  it('reads SSE cut at the worst places over a real connection, token by token', async () => {
    const tokens: string[] = [];
    const r = await streamChat({ baseUrl: base('chunks'), model: 'm' }, MESSAGES, { onToken: (t) => tokens.push(t) });
    expect(tokens).toEqual(AWKWARD_TOKENS);
    expect(r).toEqual({ text: 'Hello, wörld 🙂 and so!', finishReason: 'stop', stopped: false, usage: { promptTokens: 12, completionTokens: 5 } });
  });

  it('gives the same result however the bytes are chunked (every single cut, byte by byte, random cuts)', async () => {
    const viaChunks = async (chunks: Uint8Array[]): Promise<{ r: StreamResult; tokens: string[] }> => {
      const fakeFetch = (async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(c) {
              for (const ch of chunks) c.enqueue(ch);
              c.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        )) as typeof fetch;
      const tokens: string[] = [];
      const r = await streamChat({ baseUrl: 'http://fake.test', model: 'm' }, MESSAGES, { fetch: fakeFetch, onToken: (t) => tokens.push(t) });
      return { r, tokens };
    };
    const bytes = new Uint8Array(AWKWARD_BYTES);
    const expected = { text: 'Hello, wörld 🙂 and so!', finishReason: 'stop', stopped: false, usage: { promptTokens: 12, completionTokens: 5 } };
    const splits: Uint8Array[][] = [];
    for (let i = 1; i < bytes.length; i++) splits.push([bytes.subarray(0, i), bytes.subarray(i)]);
    splits.push(Array.from(bytes, (b) => Uint8Array.of(b)));
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 200; k++) {
      const cuts = [...new Set(Array.from({ length: 1 + rand(8) }, () => 1 + rand(bytes.length - 1)))].sort((a, b) => a - b);
      const parts: Uint8Array[] = [];
      let from = 0;
      for (const c of [...cuts, bytes.length]) {
        parts.push(bytes.subarray(from, c));
        from = c;
      }
      splits.push(parts);
    }
    for (const chunks of splits) {
      const { r, tokens } = await viaChunks(chunks);
      expect(tokens).toEqual(AWKWARD_TOKENS);
      expect(r).toEqual(expected);
    }
  });

  it('accepts a non-streaming JSON completion', async () => {
    const tokens: string[] = [];
    const r = await streamChat({ baseUrl: base('json'), model: 'm' }, MESSAGES, { onToken: (t) => tokens.push(t) });
    expect(r).toEqual({ text: 'Paris.', finishReason: 'stop', stopped: false, usage: { promptTokens: 9, completionTokens: 2 } });
    expect(tokens).toEqual(['Paris.']);
  });

  it('recognises SSE sent under another content type', async () => {
    const r = await streamChat({ baseUrl: base('plain-sse'), model: 'm' }, MESSAGES);
    expect(r).toEqual({ text: 'plain text', finishReason: 'length', stopped: false });
  });
});

describe('streamChat: stopping', () => {
  it('stops mid-stream when the signal aborts: resolves with the text so far and closes the connection', async () => {
    slowClosed = undefined;
    const controller = new AbortController();
    const tokens: string[] = [];
    const started = Date.now();
    const r = await streamChat({ baseUrl: base('slow'), model: 'm' }, MESSAGES, {
      signal: controller.signal,
      onToken: (t) => {
        tokens.push(t);
        if (tokens.length === 3) controller.abort();
      },
    });
    expect(r).toEqual({ text: 't0 t1 t2 ', finishReason: null, stopped: true });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slowClosed).toBeDefined();
    const closed = await Promise.race([slowClosed!, sleep(2000).then(() => 'still open' as const)]);
    expect(closed).not.toBe('still open');
    expect(closed).toMatchObject({ endedByServer: false });
    expect((closed as { sent: number }).sent).toBeLessThan(10);
  });

  it('stops while waiting for the next piece (abort from a timer)', async () => {
    slowClosed = undefined;
    const tokens: string[] = [];
    const controller = new AbortController();
    const r = await streamChat({ baseUrl: base('slow'), model: 'm' }, MESSAGES, {
      signal: controller.signal,
      onToken: (t) => {
        if (tokens.push(t) === 1) setTimeout(() => controller.abort(), 150); // lands between two pieces
      },
    });
    expect(r.stopped).toBe(true);
    expect(r.text).toBe(tokens.join(''));
    expect(r.text).toMatch(/^t0 (t\d+ )*$/);
    expect(tokens.length).toBeLessThan(8);
    const closed = await Promise.race([slowClosed!, sleep(2000).then(() => 'still open' as const)]);
    expect(closed).toMatchObject({ endedByServer: false });
  });

  it('cancels the body itself when a custom fetch ignores the signal', async () => {
    slowClosed = undefined;
    const controller = new AbortController();
    const deaf = ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, signal: null })) as typeof fetch;
    const r = await streamChat({ baseUrl: base('slow'), model: 'm' }, MESSAGES, {
      fetch: deaf,
      signal: controller.signal,
      onToken: (t) => {
        if (t === 't1 ') controller.abort();
      },
    });
    expect(r).toEqual({ text: 't0 t1 ', finishReason: null, stopped: true });
    const closed = await Promise.race([slowClosed!, sleep(2000).then(() => 'still open' as const)]);
    expect(closed).toMatchObject({ endedByServer: false });
  });

  it('an onToken that throws rejects with its error and closes the connection', async () => {
    slowClosed = undefined;
    const boom = new Error('render failed');
    await expect(
      streamChat({ baseUrl: base('slow'), model: 'm' }, MESSAGES, {
        onToken: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    const closed = await Promise.race([slowClosed!, sleep(2000).then(() => 'still open' as const)]);
    expect(closed).toMatchObject({ endedByServer: false });
  });

  it('stops before the headers arrive, and does not send anything when already aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    expect(await streamChat({ baseUrl: base('hang'), model: 'm' }, MESSAGES, { signal: controller.signal })).toEqual({ text: '', finishReason: null, stopped: true });
    expect(Date.now() - started).toBeLessThan(2000);

    recorded.length = 0;
    expect(await streamChat({ baseUrl: base('record'), model: 'm' }, MESSAGES, { signal: AbortSignal.abort() })).toEqual({ text: '', finishReason: null, stopped: true });
    expect(recorded).toEqual([]);
  });
});

describe('streamChat: errors name the URL and say what went wrong', () => {
  it('unreachable: nothing listening', async () => {
    const e = await failure(streamChat({ baseUrl: `http://127.0.0.1:${deadPort}`, model: 'm' }, MESSAGES));
    expect(plain(e)).toEqual({
      kind: 'unreachable',
      status: undefined,
      message: `could not reach http://127.0.0.1:${deadPort}/v1/chat/completions: the server is down, or it refused this page (CORS: it must allow this page's origin)`,
    });
  });

  it('unreachable: the connection breaks mid-reply', async () => {
    const tokens: string[] = [];
    const e = await failure(streamChat({ baseUrl: base('reset'), model: 'm' }, MESSAGES, { onToken: (t) => tokens.push(t) }));
    expect(plain(e)).toEqual({ kind: 'unreachable', status: undefined, message: `the connection to ${url('reset')} broke off mid-reply` });
    expect(tokens).toEqual(['half']);
  });

  it('auth: 401 with a key, and without one', async () => {
    expect(plain(await failure(streamChat({ baseUrl: base('auth'), model: 'm', apiKey: 'sk-wrong' }, MESSAGES)))).toEqual({
      kind: 'auth',
      status: 401,
      message: `the endpoint at ${url('auth')} refused the key (HTTP 401: Incorrect API key provided.)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('auth'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'auth',
      status: 401,
      message: `the endpoint at ${url('auth')} refused the request (HTTP 401: Missing bearer authentication in header) — no key was sent; set its API key`,
    });
  });

  it('auth: 403, and the key never appears in a message even when the server echoes it', async () => {
    const key = 'sk-live-SECRET-42';
    const e = await failure(streamChat({ baseUrl: base('echo-key'), model: 'm', apiKey: key }, MESSAGES));
    expect(plain(e)).toEqual({ kind: 'auth', status: 403, message: `the endpoint at ${url('echo-key')} refused the key (HTTP 403: forbidden for Bearer [key])` });
    expect(e.message).not.toContain('SECRET');
  });

  it('not-found: 404 from the model, and from the path', async () => {
    expect(plain(await failure(streamChat({ baseUrl: base('missing'), model: 'nope' }, MESSAGES)))).toEqual({
      kind: 'not-found',
      status: 404,
      message: `no chat completions at ${url('missing')}, or no model "nope" there (HTTP 404: model "nope" not found, try pulling it first)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('nopath'), model: 'llama3' }, MESSAGES)))).toEqual({
      kind: 'not-found',
      status: 404,
      message: `no chat completions at ${url('nopath')}, or no model "llama3" there (HTTP 404: 404 page not found)`,
    });
  });

  it('context-length: OpenAI, llama.cpp and 413 wordings', async () => {
    expect(plain(await failure(streamChat({ baseUrl: base('context'), model: 'gpt-4' }, MESSAGES)))).toEqual({
      kind: 'context-length',
      status: 400,
      message: `the prompt is longer than the context of the model "gpt-4" at ${url('context')} (HTTP 400: This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('context-llamacpp'), model: 'q' }, MESSAGES)))).toEqual({
      kind: 'context-length',
      status: 400,
      message: `the prompt is longer than the context of the model "q" at ${url('context-llamacpp')} (HTTP 400: the request exceeds the available context size, try increasing it)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('context-413'), model: 'q' }, MESSAGES)))).toEqual({
      kind: 'context-length',
      status: 413,
      message: `the prompt is longer than the context of the model "q" at ${url('context-413')} (HTTP 413: Prompt too long)`,
    });
  });

  it('server: other 400s carry the server message ({error:"…"}, text, and a tokens message that is not about length)', async () => {
    expect(plain(await failure(streamChat({ baseUrl: base('badparam'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: 400,
      message: `${url('badparam')} rejected the request (HTTP 400: temperature must be between 0 and 2)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('badtext'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: 400,
      message: `${url('badtext')} rejected the request (HTTP 400: Bad Request: missing field \`messages\`)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('max-tokens'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: 400,
      message: `${url('max-tokens')} rejected the request (HTTP 400: max_tokens must be at least 1, got 0)`,
    });
  });

  it('rate-limit: 429, with Retry-After', async () => {
    expect(plain(await failure(streamChat({ baseUrl: base('ratelimit'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'rate-limit',
      status: 429,
      message: `${url('ratelimit')} is limiting requests (HTTP 429: Rate limit reached for requests); try again in 7 s`,
    });
  });

  it('server: 5xx with the message, an HTML page title, or nothing', async () => {
    expect(plain(await failure(streamChat({ baseUrl: base('boom'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: 500,
      message: `the server at ${url('boom')} failed (HTTP 500: Internal Server Error)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('unavailable'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: 503,
      message: `the server at ${url('unavailable')} failed (HTTP 503: 503 Service Unavailable)`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('boom-empty'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: 502,
      message: `the server at ${url('boom-empty')} failed (HTTP 502)`,
    });
  });

  it('bad-response: a 200 web page, HTML under text/event-stream, an empty body, other JSON, a non-JSON event', async () => {
    const hint = 'check that the base URL points at the API';
    expect(plain(await failure(streamChat({ baseUrl: base('html'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'bad-response',
      status: 200,
      message: `${url('html')} answered HTTP 200 but not with a chat completion (text/html: "<!doctype html> <html><title>Open WebUI</title></html>"); ${hint}`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('sse-html'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'bad-response',
      status: 200,
      message: `${url('sse-html')} answered HTTP 200 but not with a chat completion (text/event-stream: "<html><body>Login required</body></html>"); ${hint}`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('empty'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'bad-response',
      status: 200,
      message: `${url('empty')} answered HTTP 200 but not with a chat completion (an empty body); ${hint}`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('json-other'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'bad-response',
      status: 200,
      message: `${url('json-other')} answered HTTP 200 but not with a chat completion (application/json: "{"models":["a","b"]}"); ${hint}`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('not-json-event'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'bad-response',
      status: undefined,
      message: `${url('not-json-event')} sent an event that is not JSON ("hello there"), not a chat completion chunk`,
    });
  });

  it('server: an error event mid-stream, an "event: error", and a 200 JSON error', async () => {
    const tokens: string[] = [];
    expect(plain(await failure(streamChat({ baseUrl: base('midstream-error'), model: 'm' }, MESSAGES, { onToken: (t) => tokens.push(t) })))).toEqual({
      kind: 'server',
      status: undefined,
      message: `the server at ${url('midstream-error')} reported an error mid-reply: CUDA out of memory`,
    });
    expect(tokens).toEqual(['Par', 'is']);
    expect(plain(await failure(streamChat({ baseUrl: base('event-error'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: undefined,
      message: `the server at ${url('event-error')} reported an error mid-reply: overloaded`,
    });
    expect(plain(await failure(streamChat({ baseUrl: base('json-error'), model: 'm' }, MESSAGES)))).toEqual({
      kind: 'server',
      status: undefined,
      message: `the server at ${url('json-error')} reported an error: model is loading`,
    });
  });
});
