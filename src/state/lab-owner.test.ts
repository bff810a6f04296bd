/**
 * The takeover between tabs (lab-owner.ts), with two tabs' copies of the module in one process:
 * a Web Locks manager and a BroadcastChannel shared by both, in memory, and fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Owner = typeof import('./lab-owner');

/** Web Locks for one lock name as the spec has them: queued requests, ifAvailable, signal, steal. */
class FakeLocks {
  private holder: { stolen: (e: Error) => void } | null = null;
  private readonly queue: (() => void)[] = [];

  request(_name: string, options: LockOptions, callback: (lock: Lock | null) => Promise<unknown> | unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        const mine = { stolen: reject };
        this.holder = mine;
        void Promise.resolve(callback({ name: _name, mode: 'exclusive' } as Lock)).then(resolve, reject).finally(() => {
          if (this.holder !== mine) return;
          this.holder = null;
          this.queue.shift()?.();
        });
      };
      if (options.steal) {
        this.holder?.stolen(new DOMException('stolen', 'AbortError'));
        this.holder = null;
        grant();
      } else if (!this.holder) grant();
      else if (options.ifAvailable) void Promise.resolve(callback(null)).then(resolve, reject);
      else {
        const waiter = () => grant();
        this.queue.push(waiter);
        options.signal?.addEventListener('abort', () => {
          const i = this.queue.indexOf(waiter);
          if (i < 0) return;
          this.queue.splice(i, 1);
          reject(new DOMException('aborted', 'AbortError'));
        });
      }
    });
  }
}

/** A BroadcastChannel whose messages reach the other channels of its name (never itself), a task later. */
class FakeChannel extends EventTarget {
  static readonly open: FakeChannel[] = [];
  constructor(readonly name: string) {
    super();
    FakeChannel.open.push(this);
  }
  postMessage(data: unknown): void {
    for (const c of FakeChannel.open) if (c !== this && c.name === this.name) setTimeout(() => c.dispatchEvent(new MessageEvent('message', { data })), 0);
  }
}

/** One tab's copy of the module. */
async function tab(): Promise<Owner> {
  vi.resetModules();
  return import('./lab-owner');
}

let locks: FakeLocks;
let events: string[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(() => {
  vi.useFakeTimers();
  locks = new FakeLocks();
  FakeChannel.open.length = 0;
  events = [];
  vi.stubGlobal('navigator', { locks });
  vi.stubGlobal('BroadcastChannel', FakeChannel);
  // Hidden tabs: a read-only tab queues for the lock only while visible, which these cases leave out.
  vi.stubGlobal('document', { visibilityState: 'hidden', addEventListener: () => undefined });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Tab B, read-only because `owner` holds the lab: its claim gives up after the start's wait. */
async function readOnlyTab(): Promise<Owner> {
  const b = await tab();
  const claimed = b.claimLab({ gained: async () => void events.push('B gained'), yielded: async () => void events.push('B yielded') });
  await vi.advanceTimersByTimeAsync(2000);
  expect(await claimed).toBe(false);
  return b;
}

describe('Use it here', () => {
  it('waits for an owner that answered and takes longer than HANDOVER_MS to store what it made: no lock is stolen', async () => {
    const a = await tab();
    const storing = a.HANDOVER_MS + 3000;
    expect(
      await a.claimLab({
        gained: async () => void events.push('A gained'),
        yielded: async () => {
          events.push('A storing');
          await sleep(storing);
          events.push('A stored');
        },
      }),
    ).toBe(true);
    const b = await readOnlyTab();
    const taking = b.useItHere();
    await vi.advanceTimersByTimeAsync(a.HANDOVER_MS + 1000);
    expect(events).toEqual(['A storing']);
    expect(a.ownsLab()).toBe(true);
    await vi.advanceTimersByTimeAsync(storing);
    await taking;
    // Once: a stolen lock would have made A hand over a second time, after B had the lab.
    expect(events).toEqual(['A storing', 'A stored', 'B gained']);
    expect(a.ownsLab()).toBe(false);
    expect(b.ownsLab()).toBe(true);
  });

  it('takes the lock after HANDOVER_MS from an owner that never answers (a hung page)', async () => {
    const { HANDOVER_MS, LAB_LOCK } = await tab();
    let robbed: unknown = null;
    // A page that holds the lock and listens to nothing.
    locks.request(LAB_LOCK, {}, () => new Promise(() => undefined)).catch((e: unknown) => (robbed = e));
    const b = await readOnlyTab();
    const taking = b.useItHere();
    await vi.advanceTimersByTimeAsync(HANDOVER_MS - 100);
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    await taking;
    expect(events).toEqual(['B gained']);
    expect((robbed as DOMException | null)?.name).toBe('AbortError');
  });

  it('takes the lock after HANDING_OVER_MS from an owner that answered and never let go', async () => {
    const a = await tab();
    await a.claimLab({
      gained: async () => void events.push('A gained'),
      yielded: () => {
        events.push('A storing');
        return new Promise(() => undefined);
      },
    });
    const b = await readOnlyTab();
    const taking = b.useItHere();
    await vi.advanceTimersByTimeAsync(a.HANDING_OVER_MS - 100);
    expect(events).toEqual(['A storing']);
    await vi.advanceTimersByTimeAsync(200);
    await taking;
    // Robbed, A's page tells its worker again to stop writing.
    expect(events).toEqual(['A storing', 'A storing', 'B gained']);
    expect(b.ownsLab()).toBe(true);
    expect(a.ownsLab()).toBe(false);
  });
});
