import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { RpcClient } from './client';
import { serve, type Handlers } from './server';
import { RpcError, type RpcMethod, type RpcPort } from './wire';

type TestApi = {
  add: RpcMethod<{ a: number; b: number }, number>;
  count: RpcMethod<{ to: number }, string, { done: number }>;
  fail: RpcMethod<{ code: string }, never>;
  /** Serial: waits for the test to open its gate. */
  slow: RpcMethod<{ label: string }, string>;
  quick: RpcMethod<{ label: string }, string>;
  /** Ends only when cancelled. */
  untilCancelled: RpcMethod<Record<string, never>, string>;
  load: RpcMethod<{ label: string }, string>;
  measure: RpcMethod<{ label: string }, string>;
  buffer: RpcMethod<{ n: number }, ArrayBuffer>;
};
type TestEvents = { status: { docs: number } };

const TAG = 'rpc-test';

function deferred(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Waits until the log reads `expected` (a message can take longer than a tick on a busy machine), then a tick more, so that what must not run yet has had its chance to show. */
async function settled(log: readonly string[], expected: string[]): Promise<void> {
  await vi.waitFor(() => expect(log).toEqual(expected), { timeout: 5_000 });
  await tick();
  expect(log).toEqual(expected);
}

let channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels) {
    c.port1.close();
    c.port2.close();
  }
  channels = [];
});

/** A server and a client on the two ends of a MessageChannel, and the log of what ran when. */
function setup() {
  const channel = new MessageChannel();
  channels.push(channel);
  const log: string[] = [];
  const gates = new Map<string, ReturnType<typeof deferred>>();
  const gate = (label: string) => {
    if (!gates.has(label)) gates.set(label, deferred());
    return gates.get(label)!;
  };
  let lastBuffer: ArrayBuffer | null = null;
  const gated = async (label: string) => {
    log.push(`start ${label}`);
    await gate(label).promise;
    log.push(`end ${label}`);
    return label;
  };
  const handlers: Handlers<TestApi> = {
    add: { concurrency: 'concurrent', run: ({ a, b }) => a + b },
    count: {
      concurrency: 'concurrent',
      run: ({ to }, ctx) => {
        for (let i = 1; i <= to; i++) ctx.progress({ done: i });
        return `counted to ${to}`;
      },
    },
    fail: {
      concurrency: 'concurrent',
      run: ({ code }) => {
        throw new RpcError(code, `failed with ${code}`, { why: code.length });
      },
    },
    slow: { concurrency: 'serial', run: ({ label }) => gated(label) },
    quick: { concurrency: 'concurrent', run: ({ label }) => (log.push(`quick ${label}`), label) },
    untilCancelled: {
      concurrency: 'concurrent',
      run: (_, ctx) => new Promise<string>((_, reject) => ctx.signal.addEventListener('abort', () => reject(new RpcError('stopped', 'stopped by the page')))),
    },
    load: { concurrency: 'serial', run: ({ label }) => gated(label) },
    measure: { concurrency: { after: ['load'] }, run: ({ label }) => (log.push(`measure ${label}`), label) },
    buffer: {
      concurrency: 'concurrent',
      run: ({ n }, ctx) => {
        const b = new Float32Array(n).fill(1.5).buffer;
        lastBuffer = b;
        ctx.transfer(b);
        return b;
      },
    },
  };
  const server = serve<TestApi, TestEvents>(channel.port1 as unknown as RpcPort, TAG, handlers);
  const client = new RpcClient<TestApi, TestEvents>(channel.port2 as unknown as RpcPort, TAG);
  return { client, server, log, gate, port: channel.port2, sent: () => lastBuffer };
}

describe('RPC between a page and a worker', () => {
  it('answers a typed call with its result', async () => {
    const { client } = setup();
    const r = client.request('add', { a: 2, b: 3 });
    expectTypeOf(r.promise).toEqualTypeOf<Promise<number>>();
    expect(await r.promise).toBe(5);
    // @ts-expect-error: params are checked against the method
    void client.request('add', { a: 2 }).promise.catch(() => undefined);
    // @ts-expect-error: no such method
    void client.request('nope', {});
  });

  it('checks results at compile time', () => {
    const wrong: Handlers<Pick<TestApi, 'add'>> = {
      // @ts-expect-error: add answers a number, not a string
      add: { concurrency: 'concurrent', run: () => 'five' },
    };
    expect(wrong.add.concurrency).toBe('concurrent');
  });

  it('sends progress before the result, in order', async () => {
    const { client } = setup();
    const seen: number[] = [];
    const r = await client.request('count', { to: 4 }, { onProgress: (p) => seen.push(p.done) }).promise;
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(r).toBe('counted to 4');
  });

  it('fails with the error’s code, message and data', async () => {
    const { client } = setup();
    const e = await client.request('fail', { code: 'document-gone' }).promise.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect(e).toMatchObject({ code: 'document-gone', message: 'failed with document-gone', data: { why: 13 }, cancelled: false });
  });

  it('answers an unknown method with an error, not silence', async () => {
    const { client } = setup();
    const e = await (client as unknown as RpcClient<{ ghost: RpcMethod<object, never> }>).request('ghost', {}).promise.catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'unknown-method', message: 'no such method: ghost' });
  });

  it('answers a cancel: true while the call runs, and the call fails as cancelled', async () => {
    const { client } = setup();
    const r = client.request('untilCancelled', {});
    await tick();
    expect(await r.cancel()).toBe(true);
    const e = await r.promise.catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'stopped', message: 'stopped by the page', cancelled: true });
  });

  it('answers a cancel of a finished call with false', async () => {
    const { client } = setup();
    const r = client.request('add', { a: 1, b: 1 });
    expect(await r.promise).toBe(2);
    expect(await r.cancel()).toBe(false);
  });

  it('cancels through an AbortSignal', async () => {
    const { client } = setup();
    const ac = new AbortController();
    const r = client.request('untilCancelled', {}, { signal: ac.signal });
    ac.abort();
    await expect(r.promise).rejects.toMatchObject({ cancelled: true });
  });

  it('runs serial calls one after another', async () => {
    const { client, log, gate } = setup();
    const a = client.request('slow', { label: 'a' });
    const b = client.request('slow', { label: 'b' });
    await settled(log, ['start a']);
    gate('a').open();
    expect(await a.promise).toBe('a');
    await settled(log, ['start a', 'end a', 'start b']);
    gate('b').open();
    expect(await b.promise).toBe('b');
  });

  it('runs a concurrent call at once, while a serial one waits', async () => {
    const { client, log, gate } = setup();
    const a = client.request('slow', { label: 'a' });
    expect(await client.request('quick', { label: 'q' }).promise).toBe('q');
    expect(log).toEqual(['start a', 'quick q']);
    gate('a').open();
    await a.promise;
  });

  it('runs an { after } call once the latest load is done, without waiting for the serial queue', async () => {
    const { client, log, gate } = setup();
    const load = client.request('load', { label: 'model' });
    const answer = client.request('slow', { label: 'answer' });
    const m = client.request('measure', { label: 'm' });
    await settled(log, ['start model']);
    gate('model').open();
    expect(await m.promise).toBe('m');
    // The measure ran while the queued answer was still running.
    expect(log).toEqual(['start model', 'end model', 'start answer', 'measure m']);
    gate('answer').open();
    await Promise.all([load.promise, answer.promise]);
  });

  it('delivers events to their listeners until they stop listening', async () => {
    const { client, server } = setup();
    const seen: number[] = [];
    const off = client.on('status', (s) => seen.push(s.docs));
    server.emit('status', { docs: 1 });
    server.emit('status', { docs: 2 });
    await client.request('add', { a: 0, b: 0 }).promise;
    off();
    server.emit('status', { docs: 3 });
    await client.request('add', { a: 0, b: 0 }).promise;
    expect(seen).toEqual([1, 2]);
  });

  it('moves transferred buffers instead of copying them', async () => {
    const { client, sent } = setup();
    const b = await client.request('buffer', { n: 4 }).promise;
    expect([...new Float32Array(b)]).toEqual([1.5, 1.5, 1.5, 1.5]);
    expect(sent()!.byteLength).toBe(0);
  });

  it('ignores messages without its tag (pdf.js posts its own in the lab worker)', async () => {
    const { client, port } = setup();
    port.postMessage({ kind: 'call', id: 99, method: 'add', params: { a: 1, b: 1 } });
    port.postMessage('ready');
    expect(await client.request('add', { a: 3, b: 4 }).promise).toBe(7);
  });

  it('fails every waiting call, and every later one, when the worker is gone', async () => {
    const { client } = setup();
    const waiting = client.request('untilCancelled', {});
    client.fail(new RpcError('crashed', 'the worker stopped: out of memory'));
    await expect(waiting.promise).rejects.toMatchObject({ code: 'crashed', message: 'the worker stopped: out of memory' });
    await expect(client.request('add', { a: 1, b: 2 }).promise).rejects.toMatchObject({ code: 'crashed' });
    expect(await waiting.cancel()).toBe(false);
  });
});
