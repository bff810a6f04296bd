/**
 * Where a chat completion request goes and what it carries: the URL made from a base URL, the
 * body, and the one-paragraph statement the page shows before anything is sent.
 */
import { codePoints, hasKey, isLoopback, plural } from './endpoint-replies';
import { endpointUrl, EndpointUrlError } from '../util/endpoint-url';
import { GenerationError, type ChatMessage, type EndpointConfig, type StreamOptions } from './endpoint-types';

/**
 * The chat-completions URL for a base URL (see endpointUrl: a bare origin gets
 * "/v1/chat/completions", an API base gets "/chat/completions", a full URL is kept).
 */
export function chatCompletionsUrl(baseUrl: string): string {
  try {
    return endpointUrl(baseUrl, '/chat/completions');
  } catch (e) {
    if (e instanceof EndpointUrlError) throw new GenerationError(e.message, 'config');
    throw e;
  }
}

export function requestBody(endpoint: EndpointConfig, messages: ChatMessage[], options: StreamOptions): string {
  const body: Record<string, unknown> = { model: endpoint.model, messages: messages.map(({ role, content }) => ({ role, content })), stream: true };
  if (typeof options.temperature === 'number' && Number.isFinite(options.temperature)) body.temperature = options.temperature;
  if (typeof options.maxTokens === 'number' && Number.isFinite(options.maxTokens)) body.max_tokens = options.maxTokens;
  if (options.responseFormat) body.response_format = options.responseFormat;
  return JSON.stringify(body);
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
