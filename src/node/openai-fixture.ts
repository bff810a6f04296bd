/**
 * The one OpenAI-compatible test server of the project, on 127.0.0.1: tests, e2e specs and
 * benchmarks give it their behaviours, it does the rest the same way every time — POST
 * /v1/chat/completions and /v1/embeddings, streamed (SSE) or whole JSON replies as the request
 * asks, CORS preflights answered as Ollama with OLLAMA_ORIGINS set, an optional API key (any
 * other Bearer key gets HTTP 401), HTTP faults with their headers, slow streams that notice a
 * hang-up, and a record of every request, read once, with the status it got. A behaviour says
 * only what to answer.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocally } from './listen-locally';

export interface ChatMessageIn {
  role: string;
  content: string;
}

/** A chat request as a behaviour sees it. */
export interface ChatCall {
  body: Record<string, unknown>;
  model: string;
  messages: ChatMessageIn[];
  /** The last user message and the system message ('' when absent). */
  user: string;
  system: string;
  /** The raw body text: identical retried requests have the same one. */
  raw: string;
  /** How many chat requests came before this one. */
  index: number;
}

/** An HTTP error with an OpenAI-shaped body. */
export interface Fault {
  status: number;
  error: string;
  code?: string;
  headers?: Record<string, string>;
}

/** A completion: SSE chunks when the request streams (the content cut in two, or `chunks`), else one JSON object. */
export interface Completion {
  content: string;
  chunks?: string[];
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Wait this long before answering (ms). */
  delayMs?: number;
  /** Answer SSE or JSON whatever the request asked, as servers that ignore `stream` do. */
  form?: 'sse' | 'json';
  /** Streamed: a pause after each chunk (ms), as a slow model. */
  chunkDelayMs?: number;
  /** Streamed: an SSE comment first, and each event written in two pieces 30 ms apart, which a reader must join. */
  ragged?: boolean;
  /** Streamed: called when the client hangs up before the end, with the number of chunks sent by then. */
  onHangUp?: (sent: number) => void;
}

export type ChatReply =
  | Completion
  | Fault
  /** Full control of the response (broken bodies). */
  | { write: (res: ServerResponse, req: IncomingMessage) => Promise<void> | void };

export interface EmbeddingCall {
  body: Record<string, unknown>;
  model: string;
  texts: string[];
  /** The `dimensions` asked for, when a positive whole number. */
  dimensions?: number;
  authorization: string | null;
}

export type EmbeddingReply = { vectors: number[][]; delayMs?: number; order?: 'reversed' } | Fault | { html: string };

export interface FixtureOptions {
  chat?: (call: ChatCall) => ChatReply | Promise<ChatReply>;
  embeddings?: (call: EmbeddingCall) => EmbeddingReply | Promise<EmbeddingReply>;
  /** When set, a request with another Bearer key gets HTTP 401 (one without a key passes unless `requireKey`). */
  key?: string;
  requireKey?: boolean;
  /** Answers any other path or method (default: 404 JSON): a handler, or a web page (HTTP 200). */
  other?: ((req: IncomingMessage, res: ServerResponse) => void) | { html: string };
  port?: number;
}

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | null;
  /** The JSON body; null when it is not a JSON object. */
  body: Record<string, unknown> | null;
  /** What the body asks, read once: its model (''), chat messages and texts to embed ([] when none). */
  model: string;
  messages: ChatMessageIn[];
  texts: string[];
  status: number;
}

export interface OpenAIFixture {
  url: string;
  requests: RecordedCall[];
  /** Chat completion requests only. */
  chatRequests(): RecordedCall[];
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';
const EMBEDDINGS_PATH = '/v1/embeddings';

/** What the fixture answers a wrong key; behaviours that refuse a model answer the same. */
export const REFUSED_KEY: Fault = { status: 401, error: 'Incorrect API key provided', code: 'invalid_api_key' };

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const cors = (res: ServerResponse) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
};

export function sendJson(res: ServerResponse, status: number, obj: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(obj));
}

/** One SSE event of a chat completion chunk. */
export function deltaEvent(content: string, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
}

/** A whole chat completion object. */
export function completionObject(content: string, finishReason = 'stop', usage?: { prompt_tokens: number; completion_tokens: number }): Record<string, unknown> {
  return { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }], ...(usage ? { usage } : {}) };
}

/**
 * A server of fixed capacity: each batch is served after the ones before it, `perSecond` units
 * a second, in arrival order. Returns how long a batch of `units` arriving now waits (ms).
 */
export function fixedCapacity(): (units: number, perSecond: number) => number {
  let nextFree = 0;
  return (units, perSecond) => {
    const now = performance.now();
    nextFree = Math.max(now, nextFree) + (units / perSecond) * 1000;
    return nextFree - now;
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parse(raw: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The request as sent, read once: what the record keeps and the behaviours are given. */
function readRequest(req: IncomingMessage, path: string, body: Record<string, unknown> | null): RecordedCall {
  const input = body?.input;
  return {
    method: req.method ?? '',
    path,
    authorization: req.headers.authorization ?? null,
    body,
    model: typeof body?.model === 'string' ? body.model : '',
    messages: (Array.isArray(body?.messages) ? body.messages : []).filter((m): m is ChatMessageIn => Boolean(m) && typeof (m as ChatMessageIn).content === 'string'),
    texts: typeof input === 'string' ? [input] : Array.isArray(input) ? input.map(String) : [],
    status: 0,
  };
}

/** A completion as SSE events: paced, ragged and hung up on as the reply says. */
async function stream(res: ServerResponse, r: Completion): Promise<void> {
  const half = Math.floor(r.content.length / 2);
  const chunks = r.chunks ?? (r.content ? [r.content.slice(0, half), r.content.slice(half)] : []);
  let sent = 0;
  let hungUp = false;
  res.on('close', () => {
    if (res.writableFinished) return;
    hungUp = true;
    r.onHangUp?.(sent);
  });
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  if (r.ragged) res.write(': keep-alive\n\n');
  for (const c of chunks) {
    if (hungUp) return;
    const event = deltaEvent(c);
    if (r.ragged) {
      const cut = Math.floor(event.length / 2);
      res.write(event.slice(0, cut));
      await sleep(30);
      res.write(event.slice(cut));
    } else res.write(event);
    sent++;
    if (r.chunkDelayMs) await sleep(r.chunkDelayMs);
  }
  if (hungUp) return;
  const usage = r.usage ? `data: ${JSON.stringify({ choices: [], usage: r.usage })}\n\n` : '';
  res.end(`${deltaEvent('', r.finishReason ?? 'stop')}${usage}data: [DONE]\n\n`);
}

export async function startOpenAIFixture(options: FixtureOptions = {}): Promise<OpenAIFixture> {
  const requests: RecordedCall[] = [];
  let chatIndex = 0;
  const server = createServer(async (req, res) => {
    cors(res);
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const raw = await readBody(req);
    const body = parse(raw);
    const record = readRequest(req, path, body);
    requests.push(record);
    const fail = ({ status, error, headers = {}, code }: Fault) => {
      record.status = status;
      sendJson(res, status, { error: { message: error, type: 'invalid_request_error', ...(code ? { code } : {}) } }, headers);
    };
    const isChat = req.method === 'POST' && path === CHAT_PATH && options.chat;
    const isEmbeddings = req.method === 'POST' && path === EMBEDDINGS_PATH && options.embeddings;
    if (!isChat && !isEmbeddings) {
      const other = options.other;
      if (!other) return fail({ status: 404, error: `no route ${req.method} ${path}` });
      record.status = 200;
      if (typeof other === 'function') return other(req, res);
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return void res.end(other.html);
    }
    const auth = record.authorization;
    if (options.key && ((auth && auth !== `Bearer ${options.key}`) || (!auth && options.requireKey))) return fail(REFUSED_KEY);
    if (!body) return fail({ status: 400, error: 'the body is not JSON' });
    const { model, messages, texts } = record;
    if (isEmbeddings) {
      const dimensions = Number.isInteger(body.dimensions) && (body.dimensions as number) > 0 ? (body.dimensions as number) : undefined;
      const r = await options.embeddings!({ body, model, texts, ...(dimensions ? { dimensions } : {}), authorization: auth });
      if ('html' in r) {
        record.status = 200;
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return void res.end(r.html);
      }
      if ('status' in r) return fail(r);
      if (r.delayMs) await sleep(r.delayMs);
      record.status = 200;
      const data = r.vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
      return sendJson(res, 200, { object: 'list', model, data: r.order === 'reversed' ? data.reverse() : data, usage: { prompt_tokens: 0, total_tokens: 0 } });
    }
    const call: ChatCall = {
      body,
      model,
      messages,
      user: [...messages].reverse().find((m) => m.role === 'user')?.content ?? '',
      system: messages.find((m) => m.role === 'system')?.content ?? '',
      raw,
      index: chatIndex++,
    };
    const r = await options.chat!(call);
    if ('write' in r) {
      record.status = 200;
      return r.write(res, req);
    }
    if ('status' in r) return fail(r);
    if (r.delayMs) await sleep(r.delayMs);
    record.status = 200;
    if ((r.form ?? (body.stream === true ? 'sse' : 'json')) === 'sse') return stream(res, r);
    sendJson(res, 200, completionObject(r.content, r.finishReason ?? 'stop', r.usage));
  });
  const { url, close } = await listenLocally(server, options.port);
  return { url, requests, chatRequests: () => requests.filter((r) => r.path === CHAT_PATH && r.method === 'POST'), close };
}

/**
 * Wraps a behaviour so that the first time each distinct request (its body) arrives it gets an
 * HTTP fault instead — a 429 with Retry-After, or a 5xx — and the retry gets the behaviour.
 */
export function failingFirst(behaviour: (call: ChatCall) => ChatReply | Promise<ChatReply>, fault: (call: ChatCall) => Fault | null): (call: ChatCall) => ChatReply | Promise<ChatReply> {
  const seen = new Set<string>();
  return (call) => {
    const f = seen.has(call.raw) ? null : fault(call);
    seen.add(call.raw);
    return f ?? behaviour(call);
  };
}
