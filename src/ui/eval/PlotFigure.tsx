import * as Plot from '@observablehq/plot';
import { useEffect, useRef, type ReactNode } from 'react';
import { useQuestionSource } from './source-context';

interface Props {
  /** The figure's accessible name. */
  label: string;
  caption: ReactNode;
  /** Plot options (memoise them: a new object redraws); null shows `note` instead of a chart. */
  options: Plot.PlotOptions | null;
  note?: ReactNode;
}

/** One Observable Plot chart: built in an effect and appended to a div (replacing the previous one). */
export function PlotFigure({ label, caption, options, note }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const source = useQuestionSource();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (!options) {
      el.replaceChildren();
      return;
    }
    const chart = Plot.plot({ ariaLabel: label, ...options });
    // Plot names its mark groups ("dot", "line") with aria-label on plain <g>s, which ARIA forbids
    // (no role); the figure's own name and caption say what the chart shows.
    for (const g of chart.querySelectorAll('g[aria-label]')) g.removeAttribute('aria-label');
    el.replaceChildren(chart);
    return () => chart.remove();
  }, [options, label]);
  return (
    <figure className="eval-figure" aria-label={label}>
      <div ref={ref} className="eval-plot" />
      {!options && note && <p className="eval-note">{note}</p>}
      <figcaption>
        {caption}
        {source && <span className="eval-sources"> {source}</span>}
      </figcaption>
    </figure>
  );
}
