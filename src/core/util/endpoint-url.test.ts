import { describe, expect, it } from 'vitest';
import { chatCompletionsUrl } from '../generate/endpoint-request';
import { embeddingsUrl } from '../embed/endpoint-reply';
import { apiBaseOf, endpointUrl, EndpointUrlError } from './endpoint-url';

describe('endpointUrl: one route of an OpenAI-compatible API from a typed base URL', () => {
  it.each([
    // A bare origin, with or without its slash, gets /v1.
    ['http://localhost:11434', '/embeddings', 'http://localhost:11434/v1/embeddings'],
    ['http://localhost:11434/', '/embeddings', 'http://localhost:11434/v1/embeddings'],
    // Any path is the API base, with or without trailing slashes.
    ['http://127.0.0.1:1234/v1', '/embeddings', 'http://127.0.0.1:1234/v1/embeddings'],
    ['http://127.0.0.1:1234/v1/', '/embeddings', 'http://127.0.0.1:1234/v1/embeddings'],
    ['http://127.0.0.1:1234/v1//', '/chat/completions', 'http://127.0.0.1:1234/v1/chat/completions'],
    ['https://example.com/api/v1beta/openai/', '/embeddings', 'https://example.com/api/v1beta/openai/embeddings'],
    // The full route is kept (and its trailing slash dropped); the query stays, the fragment goes.
    ['https://api.openai.com/v1/embeddings', '/embeddings', 'https://api.openai.com/v1/embeddings'],
    ['https://api.openai.com/v1/embeddings/', '/embeddings', 'https://api.openai.com/v1/embeddings'],
    ['HTTPS://Example.COM:443/v1?api-version=2024-06-01#x', '/embeddings', 'https://example.com/v1/embeddings?api-version=2024-06-01'],
  ])('%s + %s → %s', (base, route, expected) => {
    expect(endpointUrl(base, route)).toBe(expected);
  });

  it.each([
    ['', 'the embedding endpoint URL is empty; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['localhost:11434', '"localhost:11434" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1'],
    ['http://u:sk-1@h/v1', 'the embedding endpoint URL contains a user name or password; remove it and put the key in the API key field'],
  ])('refuses %j with one sentence naming the field', (base, message) => {
    expect(() => endpointUrl(base, '/embeddings', 'the embedding endpoint URL')).toThrow(new EndpointUrlError(message));
  });

  it('chat and embeddings build their URLs the same way', () => {
    for (const base of ['http://localhost:11434', 'http://h:8080/v1/', 'https://api.openai.com/v1']) {
      expect(chatCompletionsUrl(base).replace('/chat/completions', '')).toBe(embeddingsUrl(base).replace('/embeddings', ''));
    }
  });

  it('apiBaseOf gives the base an SDK takes back', () => {
    expect(apiBaseOf('http://127.0.0.1:5000/v1/embeddings', '/embeddings')).toBe('http://127.0.0.1:5000/v1');
    expect(apiBaseOf('https://example.com/api/v1beta/openai/embeddings?x=1', '/embeddings')).toBe('https://example.com/api/v1beta/openai');
  });
});
