import { useEffect, useRef, useState, type RefObject } from 'react';

/** How far outside the window a light block turns full: half a screen above and below, so scrolling meets full blocks. */
export const NEAR_MARGIN = '50% 0px';

/**
 * The ids of the light blocks (elements with `data-lite` and `data-block-id` inside `box`) that
 * have come near the viewport since the answer `key` was painted; they stay full until the next
 * answer. One IntersectionObserver per column, made again when the set of light blocks changes
 * (a new answer, more blocks mounted, some turned full), so no element is observed after it is gone.
 */
export function useNearViewport(key: unknown, mounted: number): { box: RefObject<HTMLDivElement | null>; near: ReadonlySet<string> } {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ key: unknown; near: ReadonlySet<string> }>({ key, near: new Set() });
  let near = state.near;
  if (state.key !== key) {
    // A new answer: none of its blocks has been near yet (reset during render, as progressive.ts does).
    near = new Set();
    setState({ key, near });
  }
  useEffect(() => {
    const el = box.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        const ids = entries.flatMap((e) => (e.isIntersecting ? [(e.target as HTMLElement).dataset.blockId!] : []));
        if (ids.length) setState((s) => (s.key === key ? { key, near: new Set([...s.near, ...ids]) } : s));
      },
      { rootMargin: NEAR_MARGIN },
    );
    for (const lite of el.querySelectorAll('[data-lite]')) io.observe(lite);
    return () => io.disconnect();
  }, [key, mounted, near]);
  return { box, near };
}
