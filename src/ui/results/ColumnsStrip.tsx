import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLasting } from './lasting';
import { setColumnsInSight } from '../../state/columns-in-sight';
import type { ColumnId } from '../../worker/protocol';
import { spanInSight, StripSightContext, type StripSight } from './strip-sight';

/**
 * The strategy columns side by side. Only this strip may scroll sideways: it is in the Tab
 * order (a focused scroll box scrolls with the arrow keys), named, and says when it scrolls.
 */
export function ColumnsStrip({ searching, ids, children }: { searching: boolean; ids: readonly ColumnId[]; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const dim = useLasting(searching, DIM_AFTER_MS);
  const [overflows, setOverflows] = useState(false);
  // Where each column lies in the strip and how far it is scrolled, as last measured.
  const seen = useRef({ left: 0, width: 0, spans: [] as [number, number][] });
  const sight = useMemo<StripSight>(
    () => ({
      inSight: (i) => spanInSight(seen.current.spans[i], seen.current.left, seen.current.width),
      width: (i) => {
        const span = seen.current.spans[i];
        return span ? span[1] - span[0] : window.innerWidth;
      },
    }),
    [],
  );
  const columns = ids.join(' ');
  // Observed again only when the columns come or go (not on every answer). The observer reports
  // after layout, once at the start and on every resize, so reading sizes here never forces a layout.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      const box = el.getBoundingClientRect();
      seen.current = {
        left: el.scrollLeft,
        width: el.clientWidth,
        spans: Array.from(el.children, (c) => {
          const r = c.getBoundingClientRect();
          return [r.left - box.left + el.scrollLeft, r.right - box.left + el.scrollLeft] as [number, number];
        }),
      };
      setOverflows(el.scrollWidth > el.clientWidth + 1);
      tellInSight();
    });
    // The next search asks for the columns in sight first (columns-in-sight.ts).
    const tellInSight = () => setColumnsInSight(ids.filter((_, i) => spanInSight(seen.current.spans[i], seen.current.left, seen.current.width)));
    const onScroll = () => {
      seen.current.left = el.scrollLeft;
      tellInSight();
    };
    ro.observe(el);
    for (const child of Array.from(el.children)) ro.observe(child);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', onScroll);
      setColumnsInSight(null);
    };
  }, [columns]);
  return (
    <>
      <p className="columns-note small" id="columns-note">
        {overflows ? 'The columns scroll sideways: use the scrollbar, Shift + mouse wheel, or Tab to the strip and press ← →.' : 'Each column is one strategy’s context, best block first.'}
        {' '}Enter on a block opens it in its document; Esc closes it.
      </p>
      <div ref={ref} className={`columns${dim ? ' stale' : ''}`} aria-busy={searching} tabIndex={0} role="group" aria-label="Strategy columns" aria-describedby="columns-note">
        <StripSightContext.Provider value={sight}>{children}</StripSightContext.Provider>
      </div>
    </>
  );
}

/**
 * The strip dims (`.stale`) only when a search lasts this long: dimming repaints every column
 * into a layer of its own (~80 ms of a loaded 2-core machine), which a search answered in 30 ms
 * would have to wait for. `aria-busy` says at once that a search runs (no style depends on it: it makes no frame).
 */
export const DIM_AFTER_MS = 250;
