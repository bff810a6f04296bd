import { useMemo } from 'react';
import type { MetricName } from '../../core/eval/sweep';
import { RETRIEVER_NAMES } from '../../core/retrieve/retrievers';
import { strategyWords } from '../../core/strategies/registry';
import type { EvalPointView } from '../../worker/protocol';
import { METRIC_LABELS, NOT_DISTINGUISHABLE, formatMargin, formatMetric, intervalWords, metricInterval, paramsInWords } from './analysis';
import { variantRows } from './variant-rows';

/** A run that compared switches off and on (headers, late chunking, contextual retrieval): each variant's best point, side by side. */
export function VariantTable({ points, metric }: { points: readonly EvalPointView[]; metric: MetricName }) {
  const rows = useMemo(() => variantRows(points, metric), [points, metric]);
  if (!rows.length) return null;
  return (
    <div className="eval-table-wrap" tabIndex={0} role="group" aria-label="Variants compared (scrolls sideways when narrow)">
      <table className="eval-table" aria-label="Variants compared">
        <caption>
          Each variant’s best point per strategy and budget, by {METRIC_LABELS[metric]}, with its 95 % bootstrap interval; the last column, the paired difference from the
          same point with the compared switches off.
        </caption>
        <thead>
          <tr>
            <th scope="col">budget</th>
            <th scope="col">strategy</th>
            <th scope="col">variant</th>
            <th scope="col">retriever · parameters</th>
            <th scope="col" className="sorted">
              {METRIC_LABELS[metric]}
            </th>
            <th scope="col">vs off</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>{r.budget}</td>
              <th scope="row">{strategyWords(r.strategy)}</th>
              <td>{r.variant}</td>
              <td className="eval-params">
                {RETRIEVER_NAMES[r.point.retriever].long}
                {paramsInWords(r.point) ? ` · ${paramsInWords(r.point)}` : ''}
              </td>
              <td className="num sorted">
                {formatMetric(r.point.metrics[metric], metric)}
                {metricInterval(r.point, metric) ? <span className="eval-ci">{metricInterval(r.point, metric)}</span> : null}
              </td>
              <td className={`num${r.vsOff && !r.vsOff.distinguishable ? ' eval-nd' : ''}`}>
                {r.vsOff ? formatMargin(r.vsOff.mean) : '–'}
                {r.vsOff ? <span className="eval-ci">{intervalWords(r.vsOff)}</span> : null}
                {r.vsOff && !r.vsOff.distinguishable ? <span className="eval-ci">{NOT_DISTINGUISHABLE}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
