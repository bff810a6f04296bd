/**
 * The one OpenAI-compatible test server of the project, on 127.0.0.1: tests, e2e specs and
 * benchmarks give it their behaviours, it does the rest the same way every time — POST
 * /v1/chat/completions and /v1/embeddings, streamed (SSE) or whole JSON replies as the request
 * asks, CORS preflights answered as Ollama with OLLAMA_ORIGINS set, an optional API key (any
 * other Bearer key gets HTTP 401), HTTP faults with their headers, and a record of every request
 * with the status it got. A behaviour says only what to answer.
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

export type ChatReply =
  /** A completion: SSE chunks when the request streams (the content cut in two, or `chunks`), else one JSON object. */
  | { content: string; chunks?: string[]; finishReason?: string; usage?: { prompt_tokens: number; completion_tokens: number }; delayMs?: number }
  /** An HTTP error with an OpenAI-shaped body. */
  | { status: number; error: string; code?: string; headers?: Record<string, string> }
  /** Full control of the response (slow streams, broken bodies). */
  | { write: (res: ServerResponse, req: IncomingMessage) => Promise<void> | void };

export interface EmbeddingCall {
  body: Record<string, unknown>;
  model: string;
  texts: string[];
  authorization: string | null;
}

export type EmbeddingReply = { vectors: number[][]; delayMs?: number; order?: 'reversed' } | { status: number; error: string; headers?: Record<string, string> } | { html: string };

export interface FixtureOptions {
  chat?: (call: ChatCall) => ChatReply | Promise<ChatReply>;
  embeddings?: (call: EmbeddingCall) => EmbeddingReply | Promise<EmbeddingReply>;
  /** When set, a request with another Bearer key gets HTTP 401 (one without a key passes unless `requireKey`). */
  key?: string;
  requireKey?: boolean;
  /** Answers any other path (default: 404 JSON). */
  other?: (req: IncomingMessage, res: ServerResponse) => void;
  port?: number;
}

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | null;
  body: Record<string, unknown> | null;
  status: number;
}

export interface OpenAIFixture {
  url: string;
  requests: RecordedCall[];
  /** Chat completion requests only. */
  chatRequests(): RecordedCall[];
  close(): Promise<void>;
}

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

export async function startOpenAIFixture(options: FixtureOptions = {}): Promise<OpenAIFixture> {
  const requests: RecordedCall[] = [];
  let chatIndex = 0;
  const server = createServer(async (req, res) => {
    cors(res);
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const raw = await readBody(req);
    const body = parse(raw);
    const record: RecordedCall = { method: req.method ?? '', path, authorization: req.headers.authorization ?? null, body, status: 0 };
    requests.push(record);
    const fail = (status: number, message: string, headers: Record<string, string> = {}, code?: string) => {
      record.status = status;
      sendJson(res, status, { error: { message, type: 'invalid_request_error', ...(code ? { code } : {}) } }, headers);
    };
    const isChat = req.method === 'POST' && /\/chat\/completions$/.test(path) && options.chat;
    const isEmbeddings = req.method === 'POST' && /\/embeddings$/.test(path) && options.embeddings;
    if (!isChat && !isEmbeddings) {
      if (options.other) {
        record.status = 200;
        return options.other(req, res);
      }
      return fail(404, `no route ${req.method} ${path}`);
    }
    const auth = req.headers.authorization;
    if (options.key && ((auth && auth !== `Bearer ${options.key}`) || (!auth && options.requireKey))) return fail(401, 'Incorrect API key provided', {}, 'invalid_api_key');
    if (!body) return fail(400, 'the body is not JSON');
    const model = typeof body.model === 'string' ? body.model : '';
    if (isEmbeddings) {
      const input = body.input;
      const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input.map(String) : [];
      const r = await options.embeddings!({ body, model, texts, authorization: auth ?? null });
      if ('html' in r) {
        record.status = 200;
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return void res.end(r.html);
      }
      if ('status' in r) return fail(r.status, r.error, r.headers);
      if (r.delayMs) await sleep(r.delayMs);
      record.status = 200;
      const data = r.vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }));
      return sendJson(res, 200, { object: 'list', model, data: r.order === 'reversed' ? data.reverse() : data, usage: { prompt_tokens: 0, total_tokens: 0 } });
    }
    const messages = (Array.isArray(body.messages) ? body.messages : []).filter((m): m is ChatMessageIn => Boolean(m) && typeof (m as ChatMessageIn).content === 'string');
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
    if ('status' in r) return fail(r.status, r.error, r.headers, r.code);
    if (r.delayMs) await sleep(r.delayMs);
    record.status = 200;
    if (body.stream === true) {
      const half = Math.floor(r.content.length / 2);
      const chunks = r.chunks ?? (r.content ? [r.content.slice(0, half), r.content.slice(half)] : []);
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const c of chunks) res.write(deltaEvent(c));
      const usage = r.usage ? `data: ${JSON.stringify({ choices: [], usage: r.usage })}\n\n` : '';
      return void res.end(`${deltaEvent('', r.finishReason ?? 'stop')}${usage}data: [DONE]\n\n`);
    }
    sendJson(res, 200, completionObject(r.content, r.finishReason ?? 'stop', r.usage));
  });
  const { url, close } = await listenLocally(server, options.port);
  return { url, requests, chatRequests: () => requests.filter((r) => /\/chat\/completions$/.test(r.path) && r.method === 'POST'), close };
}

/**
 * Wraps a behaviour so that the first time each distinct request (its body) arrives it gets an
 * HTTP fault instead — a 429 with Retry-After, or a 5xx — and the retry gets the behaviour.
 */
export function failingFirst(behaviour: (call: ChatCall) => ChatReply | Promise<ChatReply>, fault: (call: ChatCall) => { status: number; error: string; headers?: Record<string, string> } | null): (call: ChatCall) => ChatReply | Promise<ChatReply> {
  const seen = new Set<string>();
  return (call) => {
    const f = seen.has(call.raw) ? null : fault(call);
    seen.add(call.raw);
    return f ?? behaviour(call);
  };
}
