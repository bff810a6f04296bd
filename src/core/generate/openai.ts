/**
 * Streaming chat completions from any OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio,
 * llama.cpp server, vLLM, …). Runs unchanged in browsers, Web Workers and Node ≥ 18: it uses
 * only fetch, ReadableStream, TextDecoder and AbortSignal.
 *
 * - The reply is read as Server-Sent Events with eventsource-parser (the parser most of the
 *   ecosystem uses: chunks split anywhere, comments, keep-alives); `[DONE]` ends it, and a
 *   server that answers one plain JSON completion instead is accepted too.
 * - Stopping (the caller's AbortSignal) is not an error: the promise resolves with the text so
 *   far and `stopped: true`, and the connection is closed.
 * - Every failure is a GenerationError with a kind and one clear sentence that names the URL;
 *   the API key never appears in a message.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { chatCompletionsUrl, requestBody } from './endpoint-request';
import { badResponse, clip, collapse, errorOf, firstChoice, hasKey, httpError, MAX_SHOWN, messageOf, parseEventData, parseJsonCompletion, quoteClip, readCapped, redactKey, sniff, usageOf } from './endpoint-replies';
import { GenerationError, type ChatMessage, type EndpointConfig, type StreamOptions, type StreamResult } from './endpoint-types';

export { chatCompletionsUrl, describeRequest } from './endpoint-request';
export { GenerationError, type ChatMessage, type EndpointConfig, type GenerationErrorKind, type StreamOptions, type StreamResult } from './endpoint-types';

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

  let sawDone = false;
  /** Handles one SSE event; returns true at [DONE]. */
  const handleEvent = (ev: EventSourceMessage): boolean => {
    const data = ev.data.trim();
    if (data === '[DONE]') {
      sawDone = true;
      return true;
    }
    if (data === '') return false;
    for (const obj of parseEventData(data)) {
      if (obj === undefined) throw new GenerationError(`${url} sent an event that is not JSON (${quoteClip(redact(data))}), not a chat completion chunk`, 'bad-response');
      sawEvent = true;
      const errorMessage = ev.event === 'error' ? (messageOf(obj) ?? collapse(data)) : errorOf(obj);
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

  // The parser calls back per event; the first [DONE], abort or failure ends our reading.
  let over = false;
  let failure: unknown = null;
  const parser = createParser({
    onEvent: (ev) => {
      if (over || failure !== null) return;
      try {
        if (handleEvent(ev) || signal?.aborted) over = true;
      } catch (err) {
        failure = err;
      }
    },
  });
  /** Feeds decoded text to the SSE parser; returns true when the stream is over for us. */
  const feedSse = (chunk: string, end: boolean): boolean => {
    parser.feed(chunk);
    // The standard drops an event still open when the stream ends; a server that closed
    // without the last blank line still meant it, so end the line and the event ourselves.
    if (end) parser.feed('\n\n');
    if (failure !== null) throw failure;
    return over;
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
    if (mode === 'sse' && sawDone) return { text, finishReason, stopped: false, ...(usage ? { usage } : {}) };
    throw badResponse(url, response.status, contentType, redact(head));
  }
  return { text, finishReason, stopped: false, ...(usage ? { usage } : {}) };
}
