/**
 * One lab per browser profile, across tabs. Every tab of the site shares the lab's storage; the
 * tab that holds the Web Lock LAB_LOCK owns the lab: its worker writes and embeds. Another tab
 * opens read-only: its worker shows what the owner stores and reads each change it announces
 * (src/worker/lab-changes.ts), and the page says "The lab is open in another tab" with a
 * *Use it here* button, which takes the lab over safely:
 *
 * 1. it asks the owner to hand over (a BroadcastChannel message); the owner's worker stores
 *    what it made and has not stored yet (yieldLab), then its page lets the lock go;
 * 2. the lock granted, this tab's worker claims the storage, reads it, and only then writes
 *    or embeds (own). The owner's page says at once that it is handing over; one that does not
 *    say so within HANDOVER_MS (hung, frozen), or says so and has not let go within
 *    HANDING_OVER_MS, has the lock stolen: the storage's claim, checked in every write's
 *    transaction, refuses its late writes (src/worker/persistence.ts).
 *
 * A read-only tab also waits for the lock while it is visible: when the owner's tab closes, the
 * one the user is looking at gets the lab by itself. Without Web Locks every tab owns the lab;
 * the storage's claim still lets only the last one write.
 */
import { create } from 'zustand';

export const LAB_LOCK = 'rag-context-lab';
const CHANNEL = 'rag-context-lab-tabs';
/** At start, how long the lock may still be held by the page this one replaces (a reload). */
const START_WAIT_MS = 1500;
/** How long a takeover waits for the owner to answer before it takes the lock anyway. */
export const HANDOVER_MS = 4000;
/**
 * How long it waits for an owner that answered to let go: its worker stores what it made first,
 * after the work under way (a batch, a file being read), which on a busy machine took longer than
 * HANDOVER_MS. A lock taken then made the new owner embed again what the old one was storing.
 */
export const HANDING_OVER_MS = 60_000;

export interface LabOwnerHooks {
  /** This tab got the lab: its worker takes it (reads the storage, then writes and embeds). */
  gained(): Promise<void>;
  /** This tab hands the lab over (asked by another, or it was taken): its worker stores what it made and stops writing. */
  yielded(): Promise<void>;
}

/** Whether a takeover is under way, for the button. */
export const useLabOwner = create<{ taking: boolean }>(() => ({ taking: false }));

let hooks: LabOwnerHooks | null = null;
/** The held lock's release, while this tab holds it. */
let held: (() => void) | null = null;
/** The request waiting for the lock, while this tab is read-only and visible. */
let waiting: AbortController | null = null;
let channel: BroadcastChannel | null = null;

const locks = (): LockManager | null => (typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null);

/** Whether this tab owns the lab (always, without Web Locks). */
export function ownsLab(): boolean {
  return held !== null || locks() === null;
}

/**
 * Asks for the lock; true once it is granted (it is then held until released or stolen), false
 * when it was not (ifAvailable, or the request aborted). A stolen lock hands the lab over.
 */
function hold(options: LockOptions): Promise<boolean> {
  return new Promise((answer) => {
    let granted = false;
    locks()!
      .request(LAB_LOCK, options, (lock) => {
        if (!lock) {
          answer(false);
          return undefined;
        }
        granted = true;
        answer(true);
        return new Promise<void>((release) => (held = release));
      })
      .catch(() => {
        if (!granted) answer(false);
        else if (held) {
          // Stolen: another tab took the lab without this one's answer.
          held = null;
          void hooks?.yielded().finally(waitWhileVisible);
        }
      });
  });
}

/** While this tab is read-only and visible, it queues for the lock: it gets the lab when the owner's tab closes. */
function waitWhileVisible(): void {
  if (held || waiting || document.visibilityState !== 'visible') return;
  const request = new AbortController();
  waiting = request;
  void hold({ signal: request.signal }).then((got) => {
    if (waiting === request) waiting = null;
    if (got) void hooks?.gained();
  });
}

function stopWaiting(): void {
  waiting?.abort();
  waiting = null;
}

/** The owner, asked to hand over: its worker stores what it made, then the lock goes. */
async function handOver(): Promise<void> {
  if (!held) return;
  try {
    await hooks?.yielded();
  } finally {
    held?.();
    held = null;
    waitWhileVisible();
  }
}

/**
 * At start: whether this tab owns the lab. A lock still held by the page this one replaces (a
 * reload) is waited for a moment; after that, another tab has it and this one is read-only
 * (and waits for it while visible: start() of the page calls followOwner afterwards).
 */
export async function claimLab(next: LabOwnerHooks): Promise<boolean> {
  hooks = next;
  if (!locks()) return true;
  if (!channel && typeof BroadcastChannel !== 'undefined') {
    channel = new BroadcastChannel(CHANNEL);
    channel.addEventListener('message', (e: MessageEvent) => {
      if ((e.data as { type?: unknown } | null)?.type !== 'hand-over' || !held) return;
      // Answered before the worker's work: the tab taking over then waits for it (HANDING_OVER_MS).
      channel?.postMessage({ type: 'handing-over' });
      void handOver();
    });
    document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? waitWhileVisible() : stopWaiting()));
  }
  if (held) return true;
  if (await hold({ ifAvailable: true })) return true;
  const start = new AbortController();
  const timer = setTimeout(() => start.abort(), START_WAIT_MS);
  const got = await hold({ signal: start.signal });
  clearTimeout(timer);
  return got;
}

/** Read-only from the start: wait for the lock while visible (after the worker has started). */
export function followOwner(): void {
  if (locks() && !held) waitWhileVisible();
}

/** "Use it here": the owner is asked to hand over; one that does not answer in time has the lock taken. */
export async function useItHere(): Promise<void> {
  if (useLabOwner.getState().taking) return;
  useLabOwner.setState({ taking: true });
  try {
    // Holding the lock (or without Web Locks) while the storage's claim is another tab's: claiming again is enough.
    if (ownsLab()) {
      await hooks?.gained();
      return;
    }
    stopWaiting();
    const patience = new AbortController();
    let timer = setTimeout(() => patience.abort(), HANDOVER_MS);
    const answered = (e: MessageEvent) => {
      if ((e.data as { type?: unknown } | null)?.type !== 'handing-over') return;
      clearTimeout(timer);
      timer = setTimeout(() => patience.abort(), HANDING_OVER_MS);
    };
    channel?.addEventListener('message', answered);
    channel?.postMessage({ type: 'hand-over' });
    let got = await hold({ signal: patience.signal });
    clearTimeout(timer);
    channel?.removeEventListener('message', answered);
    if (!got) got = await hold({ steal: true });
    if (got) await hooks?.gained();
  } finally {
    useLabOwner.setState({ taking: false });
  }
}
