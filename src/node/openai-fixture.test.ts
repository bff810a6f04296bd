/**
 * The shared OpenAI-compatible fixture's own mechanics, which its users rely on: routes only
 * /v1 paths, answers SSE or JSON as asked unless the reply says, checks the key, records each
 * request read once with its status, and notices when a client hangs up on a slow stream.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIFixture, type OpenAIFixture } from './openai-fixture';

let fixture: OpenAIFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

const post = (path: string, body: unknown, key?: string, signal?: AbortSignal) =>
  fetch(`${fixture!.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, ...(signal ? { signal } : {}) });

describe('startOpenAIFixture', () => {
  it('answers as the request asks or as the reply says, refuses other keys and paths, and records each request read once', async () => {
    fixture = await startOpenAIFixture({ chat: (call) => ({ content: `to ${call.user}`, ...(call.model === 'plain' ? { form: 'json' as const } : {}) }), key: 'k' });
    const messages = [{ role: 'user', content: 'hi' }];
    const sse = await post('/v1/chat/completions', { model: 'm', messages, stream: true });
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    const events = (await sse.text()).split('\n\n').filter(Boolean);
    expect(events.map((e) => (e === 'data: [DONE]' ? null : (JSON.parse(e.slice(6)) as { choices: { delta: { content: string } }[] }).choices[0]!.delta.content))).toEqual(['to', ' hi', '', null]);
    const json = await post('/v1/chat/completions', { model: 'plain', messages, stream: true }, 'k');
    expect(((await json.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('to hi');
    expect((await post('/v1/chat/completions', { model: 'm', messages }, 'wrong')).status).toBe(401);
    expect((await post('/app/chat/completions', { model: 'm', messages })).status).toBe(404);
    expect((await post('/v1/embeddings', { model: 'e', input: ['a', 'b'] })).status).toBe(404);
    expect(fixture.requests.map((r) => [r.path, r.model, r.messages.length, r.texts, r.authorization, r.status])).toEqual([
      ['/v1/chat/completions', 'm', 1, [], null, 200],
      ['/v1/chat/completions', 'plain', 1, [], 'Bearer k', 200],
      ['/v1/chat/completions', 'm', 1, [], 'Bearer wrong', 401],
      ['/app/chat/completions', 'm', 1, [], null, 404],
      ['/v1/embeddings', 'e', 0, ['a', 'b'], null, 404],
    ]);
    expect(fixture.chatRequests()).toHaveLength(3);
  });

  it('streams a slow reply chunk by chunk and says how many chunks a client that hung up was sent', async () => {
    let hungUp!: (sent: number) => void;
    const sentWhenHungUp = new Promise<number>((r) => (hungUp = r));
    const chunks = Array.from({ length: 100 }, (_, i) => `w${i} `);
    fixture = await startOpenAIFixture({ chat: () => ({ content: chunks.join(''), chunks, chunkDelayMs: 20, ragged: true, onHangUp: hungUp }) });
    const stop = new AbortController();
    const res = await post('/v1/chat/completions', { model: 'slow', messages: [{ role: 'user', content: 'go' }], stream: true }, undefined, stop.signal);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('w1 ')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text.startsWith(': keep-alive\n\n')).toBe(true);
    stop.abort();
    const sent = await sentWhenHungUp;
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(sent).toBeLessThan(chunks.length);
  });
});
