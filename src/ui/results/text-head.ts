import { useEffect, useState } from 'react';

/**
 * The rest of long block texts, a frame after their head was painted (windowing.ts, headChars).
 * One task for all the blocks of an answer, run after the frame that paints the heads: a
 * requestAnimationFrame alone would run before that frame's layout and lay the rest out with it.
 */
const waiting = new Set<() => void>();
let scheduled = false;
/** A task queued from the frame's requestAnimationFrame runs after that frame is painted. */
let channel: MessageChannel | null = null;

function runWaiting(): void {
  scheduled = false;
  const runs = [...waiting];
  waiting.clear();
  // One task: React renders every block's rest in one commit.
  for (const r of runs) r();
}

function afterNextPaint(run: () => void): () => void {
  waiting.add(run);
  if (!scheduled) {
    scheduled = true;
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = runWaiting;
    }
    const port = channel.port2;
    requestAnimationFrame(() => port.postMessage(null));
  }
  return () => waiting.delete(run);
}

/** Whether all of the text `key` may be drawn: false for its first paint when `long`, true from the frame after. */
export function useWholeText(key: unknown, long: boolean): boolean {
  const [whole, setWhole] = useState<unknown>(null);
  const done = !long || whole === key;
  useEffect(() => {
    if (done) return;
    return afterNextPaint(() => setWhole(key));
  }, [key, done]);
  return done;
}
