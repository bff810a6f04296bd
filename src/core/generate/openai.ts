/**
 * Streaming chat completions from any OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio,
 * llama.cpp server, vLLM, …). Runs unchanged in browsers, Web Workers and Node ≥ 18: it uses
 * only fetch, ReadableStream, TextDecoder and AbortSignal.
 *
 * - The reply is read as Server-Sent Events, tolerant of chunks split anywhere (mid-line,
 *   mid-UTF-8 character, between `\r` and `\n`), comments, keep-alives and `[DONE]`; a server
 *   that answers one plain JSON completion instead is accepted too.
 * - Stopping (the caller's AbortSignal) is not an error: the promise resolves with the text so
 *   far and `stopped: true`, and the connection is closed.
 * - Every failure is a GenerationError with a kind and one clear sentence that names the URL;
 *   the API key never appears in a message.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface EndpointConfig {
  /** "http://localhost:11434", "https://api.openai.com/v1", ".../v1/", or the full ".../chat/completions". */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set (and non-empty). */
  apiKey?: string;
}

export interface StreamOptions {
  /** Aborting it stops the reply: the promise resolves with `stopped: true` and the text so far. */
  signal?: AbortSignal;
  /** Called with each non-empty piece of the reply, in order. */
  onToken?: (text: string) => void;
  temperature?: number;
  maxTokens?: number;
  /** Sent as `response_format` (OpenAI structured outputs, e.g. {type: 'json_schema', json_schema: {…}}). */
  responseFormat?: Record<string, unknown>;
  /** Replaces the global fetch (tests, proxies). It is called unbound, as a plain function. */
  fetch?: typeof fetch;
}

export interface StreamResult {
  /** The whole reply (all pieces concatenated). */
  text: string;
  /** choices[0].finish_reason as the server sent it ("stop", "length", …), or null. */
  finishReason: string | null;
  /** True when the caller's signal stopped the reply. */
  stopped: boolean;
  /** Present only when the server reported usage. */
  usage?: { promptTokens: number; completionTokens: number };
}

export type GenerationErrorKind = 'unreachable' | 'auth' | 'not-found' | 'context-length' | 'rate-limit' | 'server' | 'bad-response' | 'config' | 'model-load' | 'out-of-memory';

/** A failed generation: `message` is one sentence for the user, `kind` is for the program. */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly kind: GenerationErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GenerationError';
  }
}

// ---------------------------------------------------------------------------------------------
// URLs and the request

const MAX_SHOWN = 300;

/**
 * The chat-completions URL for a base URL. A bare origin gets "/v1/chat/completions"; any other
 * path is taken as the API's base (as the OpenAI SDKs' baseURL is: ".../v1", ".../v1/",
 * ".../v1beta/openai/") and gets "/chat/completions"; a URL that already ends in
 * "/chat/completions" is kept. The query is kept, the fragment dropped.
 */
export function chatCompletionsUrl(baseUrl: string): string {
  const raw = baseUrl.trim();
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const shown = raw === '' ? 'the base URL is empty' : `"${clip(raw, 100)}" is not an http(s) URL`;
    throw new GenerationError(`${shown}; it should look like http://localhost:11434 or https://api.openai.com/v1`, 'config');
  }
  if (url.username !== '' || url.password !== '') {
    throw new GenerationError('the base URL contains a user name or password; remove it and put the key in the API key field', 'config');
  }
  url.hash = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') path = '/v1/chat/completions';
  else if (!/\/chat\/completions$/.test(path)) path += '/chat/completions';
  url.pathname = path;
  return url.toString();
}

function requestBody(endpoint: EndpointConfig, messages: ChatMessage[], options: StreamOptions): string {
  const body: Record<string, unknown> = { model: endpoint.model, messages: messages.map(({ role, content }) => ({ role, content })), stream: true };
  if (typeof options.temperature === 'number' && Number.isFinite(options.temperature)) body.temperature = options.temperature;
  if (typeof options.maxTokens === 'number' && Number.isFinite(options.maxTokens)) body.max_tokens = options.maxTokens;
  if (options.responseFormat) body.response_format = options.responseFormat;
  return JSON.stringify(body);
}

function hasKey(endpoint: EndpointConfig): boolean {
  return typeof endpoint.apiKey === 'string' && endpoint.apiKey.trim() !== '';
}

/** A one-paragraph statement of exactly what streamChat would send, and where. Never contains the key. */
export function describeRequest(endpoint: EndpointConfig, messages: ChatMessage[]): string {
  let url: string;
  try {
    url = chatCompletionsUrl(endpoint.baseUrl);
  } catch (err) {
    return `Nothing can be sent: ${(err as Error).message}.`;
  }
  const roles: Record<ChatMessage['role'], number> = { system: 0, user: 0, assistant: 0 };
  let chars = 0;
  for (const m of messages) {
    roles[m.role] += 1;
    chars += codePoints(m.content);
  }
  const parts = (['system', 'user', 'assistant'] as const).filter((r) => roles[r] > 0).map((r) => `${roles[r]} ${r}`);
  const count = `${plural(messages.length, 'message')}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
  const host = new URL(url);
  const local = isLoopback(host.hostname);
  const sentences = [
    `A POST request goes to ${url} asking the model "${endpoint.model}" to stream a reply to ${count} totalling ${plural(chars, 'character')}.`,
    hasKey(endpoint) ? 'An API key is sent in the Authorization header (the key itself is not shown here).' : 'No API key is sent.',
    local ? 'The endpoint is on this machine, so the text does not leave it.' : `The text leaves this machine for ${host.host}${host.protocol === 'http:' ? ', unencrypted (plain http)' : ''}.`,
  ];
  return sentences.join(' ');
}

// ---------------------------------------------------------------------------------------------
// Streaming

/** Streams one chat completion. Resolves with the reply (or, when stopped, the reply so far). */
export async function streamChat(endpoint: EndpointConfig, messages: ChatMessage[], options: StreamOptions = {}): Promise<StreamResult> {
  const url = chatCompletionsUrl(endpoint.baseUrl);
  if (typeof endpoint.model !== 'string' || endpoint.model.trim() === '') throw new GenerationError(`no model name is set for ${url}`, 'config');
  if (messages.length === 0) throw new GenerationError('there are no messages to send', 'config');
  if (hasKey(endpoint) && /[^\x21-\x7e]/.test(endpoint.apiKey!.trim())) {
    throw new GenerationError('the API key contains spaces or characters that cannot be sent in a header; paste it again', 'config');
  }

  const { signal, onToken } = options;
  const stoppedResult = (text = '', finishReason: string | null = null, usage?: StreamResult['usage']): StreamResult => ({ text, finishReason, stopped: true, ...(usage ? { usage } : {}) });
  if (signal?.aborted) return stoppedResult();

  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (hasKey(endpoint)) headers.Authorization = `Bearer ${endpoint.apiKey!.trim()}`;
  const redact = (s: string): string => redactKey(s, endpoint.apiKey);

  // Called as a plain function: browsers throw "Illegal invocation" when fetch's `this` is not the global.
  const doFetch: typeof fetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await doFetch(url, { method: 'POST', headers, body: requestBody(endpoint, messages, options), ...(signal ? { signal } : {}) });
  } catch (err) {
    if (signal?.aborted) return stoppedResult();
    if (err instanceof GenerationError) throw err;
    throw new GenerationError(`could not reach ${url}: the server is down, or it refused this page (CORS: it must allow this page's origin)`, 'unreachable');
  }

  if (!response.ok) {
    const body = await readCapped(response, 64 * 1024, signal);
    if (body === null) return stoppedResult();
    throw httpError(response, body, url, endpoint, redact);
  }

  const reader = response.body?.getReader();
  const contentType = response.headers.get('content-type') ?? '';
  if (!reader) throw badResponse(url, response.status, contentType, '');

  const decoder = new TextDecoder();
  const sse = new SseParser();
  let mode: 'sniff' | 'sse' | 'json' = 'sniff';
  let pending = ''; // text read while sniffing, and the whole body in json mode
  let head = ''; // the body's first characters, for messages
  let text = '';
  let finishReason: string | null = null;
  let usage: StreamResult['usage'];
  let sawEvent = false;
  let finished = false; // the body was read to its end (or to [DONE]); no need to cancel it

  // Also cancel on abort ourselves, in case a custom fetch ignores the signal.
  const onAbort = (): void => {
    reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  /** Handles one SSE event; returns true at [DONE]. */
  const handleEvent = (ev: SseEvent): boolean => {
    const data = ev.data.trim();
    if (data === '[DONE]') return true;
    if (data === '') return false;
    for (const obj of parseEventData(data)) {
      if (obj === undefined) throw new GenerationError(`${url} sent an event that is not JSON (${quoteClip(redact(data))}), not a chat completion chunk`, 'bad-response');
      sawEvent = true;
      const errorMessage = ev.type === 'error' ? (messageOf(obj) ?? collapse(data)) : errorOf(obj);
      if (errorMessage !== undefined) throw new GenerationError(`the server at ${url} reported an error mid-reply: ${clip(redact(errorMessage), MAX_SHOWN)}`, 'server');
      const choice = firstChoice(obj);
      const content = choice?.delta?.content;
      if (typeof content === 'string' && content !== '') {
        text += content;
        onToken?.(content);
        if (signal?.aborted) return true;
      }
      if (typeof choice?.finish_reason === 'string') finishReason = choice.finish_reason;
      usage = usageOf(obj) ?? usage;
    }
    return false;
  };

  /** Feeds decoded text to the SSE parser; returns true when the stream is over for us. */
  const feedSse = (chunk: string, end: boolean): boolean => {
    const events = sse.push(chunk, end);
    for (const ev of events) if (handleEvent(ev) || signal?.aborted) return true;
    return false;
  };

  try {
    for (;;) {
      if (signal?.aborted) break;
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        if (signal?.aborted) break;
        throw new GenerationError(`the connection to ${url} broke off mid-reply`, 'unreachable');
      }
      if (signal?.aborted) break;
      const end = chunk.done;
      const piece = end ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      if (end) finished = true;
      if (head.length < 200) head += piece.slice(0, 200 - head.length);

      if (mode === 'sniff') {
        pending += piece;
        const decided = sniff(pending, end, contentType);
        if (decided === undefined) continue;
        if (decided === 'bad') throw badResponse(url, response.status, contentType, redact(head));
        mode = decided;
        if (mode === 'sse') {
          const buffered = pending;
          pending = '';
          if (feedSse(buffered, end)) break;
        }
      } else if (mode === 'sse') {
        if (feedSse(piece, end)) break;
      } else {
        pending += piece;
      }
      if (end) break;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) reader.cancel().catch(() => undefined);
  }

  if (signal?.aborted) return stoppedResult(text, finishReason, usage);

  if (mode === 'json') {
    const result = parseJsonCompletion(pending, url, response.status, contentType, redact);
    if (result.text !== '') onToken?.(result.text);
    return result;
  }
  if (mode === 'sniff' || !sawEvent) {
    if (mode === 'sse' && sse.sawDone) return { text, finishReason, stopped: false, ...(usage ? { usage } : {}) };
    throw badResponse(url, response.status, contentType, redact(head));
  }
  return { text, finishReason, stopped: false, ...(usage ? { usage } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Server-Sent Events

interface SseEvent {
  type: string;
  data: string;
}

/**
 * An incremental SSE parser (the WHATWG event-stream rules): lines end in \r\n, \n or \r
 * (a \r at the end of one chunk and \n at the start of the next are one line end); an empty
 * line dispatches the event; lines starting with ':' are comments; `data:` lines are joined
 * with \n; one space after the colon is dropped. Unlike the standard, an event still open when
 * the stream ends is dispatched rather than dropped.
 */
class SseParser {
  private buffer = '';
  private skipLf = false;
  private data: string[] = [];
  private type = '';
  sawDone = false;

  push(chunk: string, end: boolean): SseEvent[] {
    const events: SseEvent[] = [];
    let s = chunk;
    if (this.skipLf && s.startsWith('\n')) s = s.slice(1);
    if (s !== '') this.skipLf = false;
    let buf = this.buffer + s;
    let start = 0;
    for (let i = this.buffer.length; i < buf.length; i++) {
      const c = buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(buf.slice(start, i), events);
      if (c === 13) {
        if (i + 1 < buf.length) {
          if (buf.charCodeAt(i + 1) === 10) i++;
        } else {
          this.skipLf = true;
        }
      }
      start = i + 1;
    }
    buf = buf.slice(start);
    this.buffer = buf;
    if (end) {
      if (this.buffer !== '') this.line(this.buffer, events);
      this.buffer = '';
      this.line('', events);
    }
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) {
        const data = this.data.join('\n');
        if (data.trim() === '[DONE]') this.sawDone = true;
        events.push({ type: this.type || 'message', data });
      }
      this.data = [];
      this.type = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
  }
}

/**
 * An event's data as JSON objects: normally one; a server that puts several `data:` lines in
 * one event without blank lines between them gives one per line. undefined marks data that is
 * not JSON.
 */
function parseEventData(data: string): unknown[] {
  const whole = tryJson(data);
  if (whole !== undefined) return [whole];
  if (data.includes('\n')) {
    const lines = data.split('\n').map((l) => l.trim()).filter((l) => l !== '' && l !== '[DONE]');
    const parsed = lines.map(tryJson);
    if (parsed.every((p) => p !== undefined)) return parsed;
  }
  return [undefined];
}

/** How the body looks, from its first characters: undefined while it cannot tell yet. */
function sniff(text: string, end: boolean, contentType: string): 'sse' | 'json' | 'bad' | undefined {
  const t = text.replace(/^[\s\uFEFF]+/, '');
  if (t === '') return end ? 'bad' : undefined;
  if (t.startsWith('{')) return 'json';
  const nl = t.search(/[\r\n]/);
  const firstLine = nl < 0 ? t : t.slice(0, nl);
  if (/^(?::|(?:data|event|id|retry)\s*:)/.test(firstLine)) return 'sse';
  if (nl < 0 && !end && firstLine.length < 7) return undefined;
  return /text\/event-stream/i.test(contentType) ? 'sse' : 'bad';
}

// ---------------------------------------------------------------------------------------------
// Reading JSON shapes

interface ChoiceShape {
  delta?: { content?: unknown };
  message?: { content?: unknown };
  finish_reason?: unknown;
}

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function firstChoice(obj: unknown): ChoiceShape | undefined {
  if (!isObject(obj) || !Array.isArray(obj.choices)) return undefined;
  const c: unknown = obj.choices[0];
  return isObject(c) ? (c as ChoiceShape) : undefined;
}

function usageOf(obj: unknown): StreamResult['usage'] | undefined {
  if (!isObject(obj) || !isObject(obj.usage)) return undefined;
  const { prompt_tokens: p, completion_tokens: c } = obj.usage;
  return typeof p === 'number' && typeof c === 'number' ? { promptTokens: p, completionTokens: c } : undefined;
}

/** The message of an `error` member ({error:{message}} or {error:"…"}), if there is one. */
function errorOf(obj: unknown): string | undefined {
  if (!isObject(obj) || obj.error === undefined || obj.error === null) return undefined;
  const e = obj.error;
  if (typeof e === 'string') return e;
  if (isObject(e) && typeof e.message === 'string') return e.message;
  return JSON.stringify(e);
}

/** The server's message in an error body of any common shape. */
function messageOf(obj: unknown): string | undefined {
  const e = errorOf(obj);
  if (e !== undefined) return e;
  if (!isObject(obj)) return undefined;
  if (typeof obj.message === 'string') return obj.message; // vLLM's older {object:"error", message}
  if (typeof obj.detail === 'string') return obj.detail; // FastAPI
  if (Array.isArray(obj.detail)) {
    const msgs = obj.detail.map((d: unknown) => (isObject(d) && typeof d.msg === 'string' ? d.msg : undefined)).filter((m): m is string => m !== undefined);
    if (msgs.length > 0) return msgs.join('; ');
  }
  return undefined;
}

/** The server's message from an error body: JSON shapes, an HTML page's title, or the text. */
function serverMessage(body: string): string {
  const json = tryJson(body);
  const fromJson = json === undefined ? undefined : messageOf(json);
  if (fromJson !== undefined) return collapse(fromJson);
  if (/^\s*</.test(body)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1];
    return collapse(title ?? body.replace(/<[^>]*>/g, ' '));
  }
  return collapse(body);
}

function parseJsonCompletion(body: string, url: string, status: number, contentType: string, redact: (s: string) => string): StreamResult {
  const obj = tryJson(body);
  const err = obj === undefined ? undefined : errorOf(obj);
  if (err !== undefined) throw new GenerationError(`the server at ${url} reported an error: ${clip(redact(collapse(err)), MAX_SHOWN)}`, 'server');
  const choice = firstChoice(obj);
  const content = choice?.message?.content;
  if (!choice || !isObject(choice.message) || (typeof content !== 'string' && content !== null && content !== undefined)) {
    throw badResponse(url, status, contentType, redact(body));
  }
  const usage = usageOf(obj);
  return {
    text: typeof content === 'string' ? content : '',
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    stopped: false,
    ...(usage ? { usage } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Errors

const CONTEXT_PATTERN =
  /context[ _-]?(?:length|window|size)|maximum context|too long|too many tokens|exceeds?[^.]{0,60}(?:context|tokens?)|tokens?[^.]{0,60}(?:exceed|maximum|limit)/i;

function httpError(response: Response, body: string, url: string, endpoint: EndpointConfig, redact: (s: string) => string): GenerationError {
  const status = response.status;
  const msg = clip(redact(serverMessage(body)), MAX_SHOWN);
  const http = msg === '' ? `(HTTP ${status})` : `(HTTP ${status}: ${msg})`;
  if (status === 401 || status === 403) {
    return hasKey(endpoint)
      ? new GenerationError(`the endpoint at ${url} refused the key ${http}`, 'auth', status)
      : new GenerationError(`the endpoint at ${url} refused the request ${http} — no key was sent; set its API key`, 'auth', status);
  }
  if (status === 404) return new GenerationError(`no chat completions at ${url}, or no model "${endpoint.model}" there ${http}`, 'not-found', status);
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_PATTERN.test(body)) {
    return new GenerationError(`the prompt is longer than the context of the model "${endpoint.model}" at ${url} ${http}`, 'context-length', status);
  }
  if (status === 429) {
    const retry = response.headers.get('retry-after');
    const wait = retry !== null && /^\d+$/.test(retry.trim()) ? `try again in ${retry.trim()} s` : 'wait and try again';
    return new GenerationError(`${url} is limiting requests ${http}; ${wait}`, 'rate-limit', status);
  }
  if (status >= 500) return new GenerationError(`the server at ${url} failed ${http}`, 'server', status);
  if (status >= 400 && status < 500) return new GenerationError(`${url} rejected the request ${http}`, 'server', status);
  return new GenerationError(`${url} answered with an unexpected status ${http}`, 'bad-response', status);
}

function badResponse(url: string, status: number, contentType: string, body: string): GenerationError {
  const type = contentType.split(';')[0]?.trim() || 'no content type';
  const shown = body.trim() === '' ? 'an empty body' : `${type}: ${quoteClip(body)}`;
  return new GenerationError(`${url} answered HTTP ${status} but not with a chat completion (${shown}); check that the base URL points at the API`, 'bad-response', status);
}

/** Reads at most `limit` characters of an error body; null when the signal stopped it. */
async function readCapped(response: Response, limit: number, signal: AbortSignal | undefined): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      text += decoder.decode(value, { stream: true });
      if (text.length >= limit) {
        reader.cancel().catch(() => undefined);
        return text.slice(0, limit);
      }
    }
  } catch {
    if (signal?.aborted) return null;
    return text;
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function quoteClip(s: string): string {
  return `"${clip(collapse(s), 80)}"`;
}

function redactKey(s: string, key: string | undefined): string {
  const k = key?.trim();
  return k && k.length >= 4 ? s.split(k).join('[key]') : s;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function plural(n: number, word: string): string {
  const digits = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${digits} ${word}${n === 1 ? '' : 's'}`;
}

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '[::1]';
}
