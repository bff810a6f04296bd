import { useEffect, useState } from 'react';
import { searchWaiting } from '../../state/searches';
import { useResults } from '../../state/stores';

/**
 * The rest of long block texts, a frame after their head was painted (windowing.ts, headChars).
 * One task for all the blocks of an answer, run after the frame that paints the heads: a
 * requestAnimationFrame alone would run before that frame's layout and lay the rest out with it.
 * While another search waits for the one running (a drag), the rests wait for the last answer.
 */
const waiting = new Set<() => void>();
let scheduled = false;
/** A task queued from the frame's requestAnimationFrame runs after that frame is painted. */
let channel: MessageChannel | null = null;

/** Unsubscribes from the results store while the rests wait for the searches to end. */
let unsubscribe: (() => void) | null = null;

function runWaiting(): void {
  scheduled = false;
  // While another search is on its way (a slider drag), its answer replaces these blocks: laying
  // their rests out now would be thrown away a frame later. They join after the last answer's heads.
  // (A new question's first columns, answered while the worker searches the others, do not wait.)
  if (useResults.getState().searching && searchWaiting()) {
    unsubscribe ??= useResults.subscribe((s) => {
      if (s.searching) return;
      unsubscribe?.();
      unsubscribe = null;
      if (waiting.size) schedule();
    });
    return;
  }
  const runs = [...waiting];
  waiting.clear();
  // One task: React renders every block's rest in one commit.
  for (const r of runs) r();
}

function schedule(): void {
  if (scheduled || unsubscribe) return;
  scheduled = true;
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = runWaiting;
  }
  const port = channel.port2;
  requestAnimationFrame(() => port.postMessage(null));
}

/** Runs `run` in a task after the next frame is painted, and not while searches wait for each other; the function returned cancels it. */
export function afterNextPaint(run: () => void): () => void {
  waiting.add(run);
  schedule();
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
