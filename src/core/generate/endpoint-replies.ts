/**
 * Reading what an OpenAI-compatible endpoint answers: chat completion shapes (streamed
 * chunks and whole JSON replies), the server's error messages in their common shapes, and one
 * clear GenerationError per HTTP failure. Pure helpers of streamChat (openai.ts).
 */
import { GenerationError, type EndpointConfig, type StreamResult } from './endpoint-types';

/** The longest server message quoted in an error. */
export const MAX_SHOWN = 300;

/**
 * An event's data as JSON objects: normally one; a server that puts several `data:` lines in
 * one event without blank lines between them gives one per line. undefined marks data that is
 * not JSON.
 */
export function parseEventData(data: string): unknown[] {
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
export function sniff(text: string, end: boolean, contentType: string): 'sse' | 'json' | 'bad' | undefined {
  const t = text.replace(/^[\s\uFEFF]+/, '');
  if (t === '') return end ? 'bad' : undefined;
  if (t.startsWith('{')) return 'json';
  const nl = t.search(/[\r\n]/);
  const firstLine = nl < 0 ? t : t.slice(0, nl);
  if (/^(?::|(?:data|event|id|retry)\s*:)/.test(firstLine)) return 'sse';
  if (nl < 0 && !end && firstLine.length < 7) return undefined;
  return /text\/event-stream/i.test(contentType) ? 'sse' : 'bad';
}


interface ChoiceShape {
  delta?: { content?: unknown };
  message?: { content?: unknown };
  finish_reason?: unknown;
}

export function tryJson(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function firstChoice(obj: unknown): ChoiceShape | undefined {
  if (!isObject(obj) || !Array.isArray(obj.choices)) return undefined;
  const c: unknown = obj.choices[0];
  return isObject(c) ? (c as ChoiceShape) : undefined;
}

export function usageOf(obj: unknown): StreamResult['usage'] | undefined {
  if (!isObject(obj) || !isObject(obj.usage)) return undefined;
  const { prompt_tokens: p, completion_tokens: c } = obj.usage;
  return typeof p === 'number' && typeof c === 'number' ? { promptTokens: p, completionTokens: c } : undefined;
}

/** The message of an `error` member ({error:{message}} or {error:"…"}), if there is one. */
export function errorOf(obj: unknown): string | undefined {
  if (!isObject(obj) || obj.error === undefined || obj.error === null) return undefined;
  const e = obj.error;
  if (typeof e === 'string') return e;
  if (isObject(e) && typeof e.message === 'string') return e.message;
  return JSON.stringify(e);
}

/** The server's message in an error body of any common shape. */
export function messageOf(obj: unknown): string | undefined {
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
export function serverMessage(body: string): string {
  const json = tryJson(body);
  const fromJson = json === undefined ? undefined : messageOf(json);
  if (fromJson !== undefined) return collapse(fromJson);
  if (/^\s*</.test(body)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1];
    return collapse(title ?? body.replace(/<[^>]*>/g, ' '));
  }
  return collapse(body);
}

export function parseJsonCompletion(body: string, url: string, status: number, contentType: string, redact: (s: string) => string): StreamResult {
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


const CONTEXT_PATTERN =
  /context[ _-]?(?:length|window|size)|maximum context|too long|too many tokens|exceeds?[^.]{0,60}(?:context|tokens?)|tokens?[^.]{0,60}(?:exceed|maximum|limit)/i;

export function httpError(response: Response, body: string, url: string, endpoint: EndpointConfig, redact: (s: string) => string): GenerationError {
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

export function badResponse(url: string, status: number, contentType: string, body: string): GenerationError {
  const type = contentType.split(';')[0]?.trim() || 'no content type';
  const shown = body.trim() === '' ? 'an empty body' : `${type}: ${quoteClip(body)}`;
  return new GenerationError(`${url} answered HTTP ${status} but not with a chat completion (${shown}); check that the base URL points at the API`, 'bad-response', status);
}

/** Reads at most `limit` characters of an error body; null when the signal stopped it. */
export async function readCapped(response: Response, limit: number, signal: AbortSignal | undefined): Promise<string | null> {
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


export function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export function quoteClip(s: string): string {
  return `"${clip(collapse(s), 80)}"`;
}

export function redactKey(s: string, key: string | undefined): string {
  const k = key?.trim();
  return k && k.length >= 4 ? s.split(k).join('[key]') : s;
}

export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function plural(n: number, word: string): string {
  const digits = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${digits} ${word}${n === 1 ? '' : 's'}`;
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '[::1]';
}

export function hasKey(endpoint: EndpointConfig): boolean {
  return typeof endpoint.apiKey === 'string' && endpoint.apiKey.trim() !== '';
}
