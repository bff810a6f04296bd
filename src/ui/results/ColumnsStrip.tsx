import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * The strategy columns side by side. Only this strip may scroll sideways: it is in the Tab
 * order (a focused scroll box scrolls with the arrow keys), named, and says when it scrolls.
 */
export function ColumnsStrip({ searching, children }: { searching: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    for (const child of Array.from(el.children)) ro.observe(child);
    return () => ro.disconnect();
  });
  return (
    <>
      <p className="columns-note small" id="columns-note">
        {overflows ? 'The columns scroll sideways: use the scrollbar, Shift + mouse wheel, or Tab to the strip and press ← →.' : 'Each column is one strategy’s context, best block first.'}
        {' '}Enter on a block opens it in its document; Esc closes it.
      </p>
      <div ref={ref} className={`columns${searching ? ' stale' : ''}`} aria-busy={searching} tabIndex={0} role="group" aria-label="Strategy columns" aria-describedby="columns-note">
        {children}
      </div>
    </>
  );
}
