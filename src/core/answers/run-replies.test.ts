import { describe, expect, it } from 'vitest';
import { faithfulnessOf, readCorrect, readStatements, readVerdicts } from './judge';
import { MemoryReplyCache, readCachedReply } from './reply-cache';
import { planReplies, runReplies, STOP_AFTER_FAILURES_IN_A_ROW, type ReplyCaller, type ReplyRequest } from './run-replies';

const req = (key: string, promptTokens = 10): ReplyRequest => ({ key, messages: [{ role: 'user', content: key }], promptTokens });

function caller(reply: (key: string) => string | Error, concurrency = 1): ReplyCaller & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    concurrency,
    complete: async (messages) => {
      const key = messages[0]!.content;
      sent.push(key);
      const r = reply(key);
      if (r instanceof Error) throw r;
      return { text: r, finishReason: 'stop', stopped: false, usage: { promptTokens: 7, completionTokens: 2 } };
    },
  };
}

describe('planning and running replies', () => {
  it('plans what the cache saves and what the rest costs', async () => {
    const cache = new MemoryReplyCache();
    await cache.put('a', { text: 'x', promptTokens: 10, ms: 5, finishReason: 'stop', at: '2026-01-01T00:00:00Z' });
    const plan = await planReplies([req('a'), req('b', 300), req('c', 300)], cache, { replyTokens: 15, rate: { promptTokensPerSecond: 100, replyTokensPerSecond: 10 }, concurrency: 2 });
    // (600 / 100 + 30 / 10) / 2 = 4.5 s.
    expect(plan).toEqual({ requests: 3, cached: 1, calls: 2, promptTokens: 600, savedPromptTokens: 10, replyTokens: 30, seconds: 5, rate: 'measured' });
  });

  it('sends identical requests once, keeps the server’s token counts, and answers a repeat from the cache', async () => {
    const cache = new MemoryReplyCache();
    const c = caller((k) => `reply ${k}`, 3);
    const r = await runReplies({ requests: [req('a'), req('b'), req('a')], cache, caller: c });
    expect(c.sent.sort()).toEqual(['a', 'b']);
    expect(r.replies.get('a')).toMatchObject({ text: 'reply a', promptTokens: 7, completionTokens: 2, cached: false });
    const again = caller(() => 'never');
    const r2 = await runReplies({ requests: [req('a'), req('b')], cache, caller: again });
    expect(again.sent).toEqual([]);
    expect(r2.progress).toMatchObject({ done: 2, total: 2, cached: 2, calls: 0 });
  });

  it('stops after calls keep failing, keeping what was made', async () => {
    const keys = Array.from({ length: 9 }, (_, i) => `k${i}`);
    const c = caller((k) => (k === 'k0' ? 'fine' : new Error('could not reach http://127.0.0.1:9/v1/chat/completions')));
    const r = await runReplies({ requests: keys.map((k) => req(k)), cache: new MemoryReplyCache(), caller: c });
    expect(c.sent).toHaveLength(1 + STOP_AFTER_FAILURES_IN_A_ROW);
    expect(r.replies.size).toBe(1);
    expect(r.stopped).toMatch(/^stopped after 5 failed calls in a row; the last: could not reach/);
  });

  it('waits at the gate while paused and keeps every reply made when cancelled', async () => {
    const controller = new AbortController();
    let open!: () => void;
    let gate: Promise<void> | null = null;
    const c = caller((k) => {
      if (k === 'b') {
        gate = new Promise((r) => (open = r)); // pause after the second call
      }
      return `reply ${k}`;
    });
    const running = runReplies({ requests: ['a', 'b', 'c', 'd'].map((k) => req(k)), cache: new MemoryReplyCache(), caller: c, signal: controller.signal, gate: () => gate ?? Promise.resolve() });
    await new Promise((r) => setTimeout(r, 20));
    expect(c.sent).toEqual(['a', 'b']);
    controller.abort();
    open();
    const r = await running;
    expect(r.cancelled).toBe(true);
    expect([...r.replies.keys()]).toEqual(['a', 'b']);
    expect(c.sent).toEqual(['a', 'b']);
  });

  it('ignores a cached value that is not a reply', () => {
    expect(readCachedReply({ text: 'x', promptTokens: 3, ms: 1, finishReason: null, at: 't' })).toEqual({ text: 'x', promptTokens: 3, ms: 1, finishReason: null, at: 't' });
    for (const bad of [null, 'x', { text: 1, promptTokens: 3, ms: 1, finishReason: null, at: 't' }, { text: 'x', promptTokens: -1, ms: 1, finishReason: null, at: 't' }, { text: 'x', promptTokens: 3, ms: 1, at: 't' }]) expect(readCachedReply(bad)).toBeNull();
  });
});

describe("reading the judge's replies", () => {
  it('reads grades tolerantly', () => {
    expect(readCorrect('{"correct": true, "reason": "same city"}')).toEqual({ correct: true, reason: 'same city' });
    expect(readCorrect('Here you go:\n```json\n{"correct": "no", "reason": "wrong year"}\n```')).toEqual({ correct: false, reason: 'wrong year' });
    expect(readCorrect('<think>hmm</think>True.')).toEqual({ correct: true, reason: '' });
    expect(readCorrect('It depends.')).toBeNull();
  });
  it('reads statements and verdicts, and refuses verdicts that do not match the statements', () => {
    expect(readStatements('{"statements": ["A is B.", " C is D. "]}')).toEqual(['A is B.', 'C is D.']);
    expect(readStatements('["A is B."]')).toEqual(['A is B.']);
    expect(readStatements('{"statements": []}')).toEqual([]);
    expect(readStatements('A is B.')).toBeNull();
    expect(readVerdicts('{"verdicts": [{"statement": "A", "supported": true}, {"statement": "C", "supported": "no"}]}', 2)).toEqual([true, false]);
    expect(readVerdicts('[true, false, true]', 3)).toEqual([true, false, true]);
    expect(readVerdicts('{"verdicts": [{"statement": "A", "supported": true}]}', 2)).toBeNull();
  });
  it('aggregates faithfulness as Ragas does', () => {
    expect(faithfulnessOf([true, false, true, true])).toBe(0.75);
    expect(faithfulnessOf([])).toBeNull();
  });
});
