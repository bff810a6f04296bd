/**
 * What one tab's lab tells the others of the same browser profile: after each write it has
 * committed, what changed (documents, vectors, questions, contexts), on a BroadcastChannel that
 * the lab workers of every tab listen to. A tab that does not own the lab (lab-owner, page side)
 * reads those records again and shows them; the tab that owns it ignores the others' news (only
 * it writes). Each tab's lab has an id of its own: the claim it writes under (persistence.ts).
 */
import type { StorageChange } from './persistence';

export type LabChange = StorageChange | 'contexts';

export const CHANGES_CHANNEL = 'rag-context-lab-changes';

interface ChangeMessage {
  from: string;
  change: LabChange;
}

function isChange(data: unknown): data is ChangeMessage {
  const m = data as ChangeMessage | null;
  return typeof m?.from === 'string' && ['docs', 'vectors', 'questions', 'contexts'].includes(m.change);
}

/** A random id for this tab's lab (crypto.randomUUID needs a secure context; the fallback does not). */
function newTabId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export class LabChanges {
  readonly tab = newTabId();
  private readonly channel: BroadcastChannel | null;

  /** `heard`: another tab stored a change (called for every message; the lab coalesces). */
  constructor(heard: (change: LabChange) => void) {
    this.channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANGES_CHANNEL);
    this.channel?.addEventListener('message', (e: MessageEvent) => {
      if (isChange(e.data) && e.data.from !== this.tab) heard(e.data.change);
    });
  }

  announce(change: LabChange): void {
    this.channel?.postMessage({ from: this.tab, change } satisfies ChangeMessage);
  }

  close(): void {
    this.channel?.close();
  }
}
