import { useEffect, useState } from 'react';

/** Blocks a column paints with its answer (more than a screen holds), then how many join per frame. */
export const FIRST_BLOCKS = 12;
export const BLOCKS_PER_FRAME = 24;

/** How many of `total` blocks to show after `shown`, one frame later. */
export function nextShown(shown: number, total: number): number {
  return Math.min(total, shown + BLOCKS_PER_FRAME);
}

/**
 * How many articles a column holds while it draws `shown` of its answer's `total` blocks, the
 * last commit having held `before`: the rest of those it had, up to `total`, stay as they were
 * (the last answer's) until their turn comes, a few frames later. A new answer keyed by rank so
 * updates the articles a long column already has, rather than removing a hundred and making them
 * again frame by frame.
 */
export function keptTail(shown: number, total: number, before: number): number {
  return Math.max(shown, Math.min(total, before));
}

/**
 * Chunked rendering: a new answer (`key`) paints its first blocks at once (`first`, FIRST_BLOCKS
 * unless the column says how many it shows) and the rest over the next frames, so a column of
 * 100 blocks (top-k 100, windows 10/10) does not hold the paint of the answer, and a slider drag
 * whose answers come faster than that never renders the long tails it would throw away.
 * `paused` (another search already on its way, as in a drag) holds the rest until it is not.
 */
export function useProgressive(total: number, key: unknown, first = FIRST_BLOCKS, paused = false): number {
  const [state, setState] = useState({ key, shown: Math.min(total, first) });
  let shown = state.shown;
  if (state.key !== key) {
    // Reset during render (React's pattern for state derived from props): the first commit of a new answer is short.
    shown = Math.min(total, first);
    setState({ key, shown });
  }
  useEffect(() => {
    if (shown >= total || paused) return;
    const id = requestAnimationFrame(() => setState((s) => (s.key === key ? { key, shown: nextShown(s.shown, total) } : s)));
    return () => cancelAnimationFrame(id);
  }, [shown, total, key, paused]);
  return Math.min(shown, total);
}
