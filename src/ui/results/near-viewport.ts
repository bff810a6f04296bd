import { useEffect, useRef, useState, type RefObject } from 'react';
import { NEAR_FRACTION } from './windowing';

/** How far outside the window a light block turns full: half a screen above and below, so scrolling meets full blocks. */
export const NEAR_MARGIN = `${NEAR_FRACTION * 100}% 0px`;

/**
 * The ids of the light blocks (elements with `data-lite` and `data-block-id` inside `box`) that
 * have come near the viewport since the answer `key` was painted; they stay full until the next
 * answer. One IntersectionObserver per column and answer (a new one reports every block it
 * observes once, so an element kept from the last answer is asked again); blocks mounted later
 * (`mounted`) are added to it, and one that turned full is no longer counted.
 */
export function useNearViewport(key: unknown, mounted: number): { box: RefObject<HTMLDivElement | null>; near: ReadonlySet<string> } {
  const box = useRef<HTMLDivElement>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  const [state, setState] = useState<{ key: unknown; near: ReadonlySet<string> }>({ key, near: new Set() });
  let near = state.near;
  if (state.key !== key) {
    // A new answer: none of its blocks has been near yet (reset during render, as progressive.ts does).
    near = new Set();
    setState({ key, near });
  }
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        const ids = entries.flatMap((e) => (e.isIntersecting && e.target.hasAttribute('data-lite') ? [(e.target as HTMLElement).dataset.blockId!] : []));
        if (ids.length) setState((s) => (s.key === key ? { key, near: new Set([...s.near, ...ids]) } : s));
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.current = io;
    return () => {
      io.disconnect();
      observer.current = null;
    };
  }, [key]);
  useEffect(() => {
    // Observing an element again does nothing: only the blocks mounted since are added.
    const el = box.current;
    const io = observer.current;
    if (el && io) for (const lite of el.querySelectorAll(':scope > [data-lite]')) io.observe(lite);
  }, [key, mounted]);
  return { box, near };
}
