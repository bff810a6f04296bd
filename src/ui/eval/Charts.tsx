import * as Plot from '@observablehq/plot';
import { useMemo } from 'react';
import type { MetricName, Recommendation } from '../../core/eval/sweep';
import { RETRIEVER_NAMES, RETRIEVERS, type RetrieverName } from '../../core/retrieve/retrievers';
import { COMPARISON_STRATEGY, STRATEGIES, strategyOf, strategyWords, type StrategyName } from '../../core/strategies/registry';
import type { EvalPointView } from '../../worker/protocol';
import {
  METRIC_LABELS,
  bestPerStrategy,
  formatMetric,
  paramsInWords,
  paretoFrontier,
  presentRetrievers,
  presentStrategies,
  rrfGrid,
  windowSeries,
} from './analysis';
import { PlotFigure } from './PlotFigure';
import { columnColour, RETRIEVER_COLOURS, useScheme, type Scheme } from '../palette';

const WIDTH = 430;
const RETRIEVER_COLORS: Record<RetrieverName, string> = RETRIEVER_COLOURS;
const budgetLabel = (b: unknown) => `${String(b)} tokens`;

function retrieverScale(retrievers: RetrieverName[]): Plot.ScaleOptions {
  return { domain: retrievers, range: retrievers.map((r) => RETRIEVER_COLORS[r]), legend: true, tickFormat: (r: RetrieverName) => RETRIEVER_NAMES[r].long };
}

/** Strategies in the columns' colours (one colour-blind-safe palette, see ../palette). */
export function strategyScale(strategies: StrategyName[], scheme: Scheme): Plot.ScaleOptions {
  return { domain: strategies, range: strategies.map((s) => columnColour(s, scheme)), legend: true, tickFormat: (s: StrategyName) => strategyWords(s) };
}

/** The cost–quality frontier (points with `tokens` and `value`): for its cost, nothing measured did better. */
export function frontierMarks(frontier: readonly { tokens: number; value: number }[]): Plot.Markish[] {
  return [
    Plot.line(frontier, { x: 'tokens', y: 'value', curve: 'step-after', stroke: 'currentColor', strokeWidth: 1.2, strokeDasharray: '4,3' }),
    Plot.dot(frontier, { x: 'tokens', y: 'value', r: 5.5, stroke: 'currentColor', strokeWidth: 1 }),
  ];
}

/** Bars start at 0 on a 0–1 axis; lines and dots zoom to their values (metrics lie in 0–1). */
function yMetric(metric: MetricName, zoom = false): Plot.ScaleOptions {
  return zoom ? { grid: true, nice: true, label: METRIC_LABELS[metric] } : { domain: [0, 1], grid: true, label: METRIC_LABELS[metric] };
}

/** (a) The metric against the symmetric window size, one line per retriever, faceted by budget. */
function WindowChart({ points, metric }: { points: EvalPointView[]; metric: MetricName }) {
  const label = `${METRIC_LABELS[metric]} vs window size`;
  const data = useMemo(() => windowSeries(points, metric), [points, metric]);
  const options = useMemo<Plot.PlotOptions | null>(() => {
    if (!data.swept) return null;
    const retrievers = RETRIEVERS.filter((r) => data.lines.some((l) => l.retriever === r) || data.naive.some((n) => n.retriever === r));
    const naive = data.naive.filter((n) => data.lines.some((l) => l.retriever === n.retriever && l.budget === n.budget));
    return {
      width: WIDTH,
      height: 260,
      marginLeft: 44,
      x: { label: 'window ±k sentences', ticks: [0, 1, 2, 3, 4, 5], tickFormat: 'd', domain: [0, 5] },
      y: yMetric(metric, true),
      fx: { label: null, tickFormat: budgetLabel },
      color: retrieverScale(retrievers),
      marks: [
        Plot.frame({ stroke: 'currentColor', strokeOpacity: 0.25 }),
        Plot.ruleY(naive, { y: 'value', fx: 'budget', stroke: 'retriever', strokeDasharray: '4 3', strokeOpacity: 0.8 }),
        Plot.line(data.lines, { x: 'k', y: 'value', fx: 'budget', z: 'retriever', stroke: 'retriever' }),
        Plot.dot(data.lines, {
          x: 'k',
          y: 'value',
          fx: 'budget',
          fill: 'retriever',
          r: 2.5,
          tip: true,
          title: (d: (typeof data.lines)[number]) => `${RETRIEVER_NAMES[d.retriever].long}, window ±${d.k}: ${formatMetric(d.value)}`,
        }),
      ],
    };
  }, [data, metric]);
  const hasWindow = points.some((p) => p.strategy === COMPARISON_STRATEGY.name);
  const note = hasWindow
    ? `This run did not sweep window sizes: tick “${strategyOf(COMPARISON_STRATEGY.name).axes[0]?.label}” and run again to see the curve.`
    : 'This run had no sentence-window points.';
  return (
    <PlotFigure
      label={label}
      options={options}
      note={note}
      caption={
        <>
          <strong>{label}.</strong> Sentence windows of ±k sentences (before = after), best over the other swept parameters; dashed lines: the best naive chunks with
          the same retriever and budget.
        </>
      }
    />
  );
}

/** (b) RRF c × BM25 weight heatmap for hybrid retrieval at the first budget. */
function RrfHeatmap({ points, metric }: { points: EvalPointView[]; metric: MetricName }) {
  const label = 'RRF weight × c heatmap';
  const grid = useMemo(() => rrfGrid(points, metric), [points, metric]);
  const options = useMemo<Plot.PlotOptions | null>(() => {
    if (!grid) return null;
    const cs = [...new Set(grid.cells.map((c) => c.c))].sort((a, b) => a - b);
    const ws = [...new Set(grid.cells.map((c) => c.w))].sort((a, b) => a - b);
    return {
      width: WIDTH,
      height: 260,
      marginLeft: 44,
      padding: 0.04,
      x: { type: 'band', domain: ws, label: 'BM25 weight (vector = 1 − w)' },
      y: { type: 'band', domain: cs, label: 'RRF c' },
      color: { scheme: 'blues', legend: true, label: METRIC_LABELS[metric] },
      marks: [
        Plot.cell(grid.cells, { x: 'w', y: 'c', fill: 'value', tip: true, title: (d: (typeof grid.cells)[number]) => `c ${d.c}, BM25 ${d.w}: ${formatMetric(d.value)}` }),
        Plot.text(grid.cells, { x: 'w', y: 'c', text: (d: (typeof grid.cells)[number]) => d.value.toFixed(3), fill: 'black', stroke: 'white', strokeWidth: 3, paintOrder: 'stroke', fontSize: 10 }),
      ],
    };
  }, [grid, metric]);
  return (
    <PlotFigure
      label={label}
      options={options}
      note="Needs hybrid retrieval with “RRF c × weights” swept (several c and weights)."
      caption={
        <>
          <strong>{label}.</strong>{' '}
          {grid
            ? `Hybrid ${strategyWords(grid.strategy)} at ${grid.budget} tokens: ${METRIC_LABELS[metric]} for each RRF constant c and BM25 weight, best over the other parameters.`
            : 'Hybrid retrieval over RRF constants and BM25 weights.'}
        </>
      }
    />
  );
}

/** (c) The best point of each strategy at each budget, side by side. */
function StrategyBars({ recs, metric }: { recs: Recommendation[]; metric: MetricName }) {
  const label = 'Strategies at equal budget';
  const scheme = useScheme();
  const options = useMemo<Plot.PlotOptions | null>(() => {
    const best = bestPerStrategy(recs);
    if (!best.length) return null;
    const strategies = STRATEGIES.filter((s) => best.some((p) => p.strategy === s));
    const data = best.map((p) => ({ strategy: p.strategy, budget: p.budgetTokens ?? 0, value: p.metrics[metric], words: paramsInWords(p), retriever: p.retriever }));
    return {
      width: WIDTH,
      height: 260,
      marginLeft: 44,
      marginBottom: 30,
      x: { domain: strategies, axis: null, padding: 0.15 },
      y: yMetric(metric),
      fx: { label: null, tickFormat: budgetLabel, axis: 'bottom' },
      color: strategyScale(strategies, scheme),
      marks: [
        Plot.barY(data, { x: 'strategy', y: 'value', fx: 'budget', fill: 'strategy', tip: true, title: (d: (typeof data)[number]) => `${strategyWords(d.strategy)} (${RETRIEVER_NAMES[d.retriever].long}${d.words ? `; ${d.words}` : ''}): ${formatMetric(d.value)}` }),
        Plot.text(data, { x: 'strategy', y: 'value', fx: 'budget', text: (d: (typeof data)[number]) => d.value.toFixed(2), dy: -6, fontSize: 10 }),
        Plot.ruleY([0]),
      ],
    };
  }, [recs, metric, scheme]);
  return (
    <PlotFigure
      label={label}
      options={options}
      note="No points to compare."
      caption={
        <>
          <strong>{label}.</strong> The best point of each strategy (any retriever and parameters) at each context budget.
        </>
      }
    />
  );
}

/** (d) Every point: the metric against the context it cost, the Pareto frontier joined by a line. */
function CostChart({ points, metric }: { points: EvalPointView[]; metric: MetricName }) {
  const label = 'Cost';
  const scheme = useScheme();
  const options = useMemo<Plot.PlotOptions | null>(() => {
    if (!points.length) return null;
    const strategies = presentStrategies(points);
    const data = points.map((p) => ({
      strategy: p.strategy,
      retriever: p.retriever,
      budget: p.budgetTokens ?? 0,
      tokens: p.metrics.meanContextTokens,
      value: p.metrics[metric],
      words: paramsInWords(p),
    }));
    const frontier = paretoFrontier(points, metric).map((p) => ({ tokens: p.metrics.meanContextTokens, value: p.metrics[metric] }));
    return {
      width: WIDTH,
      height: 260,
      marginLeft: 44,
      x: { label: 'mean context tokens', grid: true, nice: true },
      y: yMetric(metric, true),
      color: strategyScale(strategies, scheme),
      symbol: presentRetrievers(points).length > 1 ? { legend: true, domain: presentRetrievers(points), tickFormat: (r: RetrieverName) => RETRIEVER_NAMES[r].long } : undefined,
      marks: [
        ...frontierMarks(frontier),
        Plot.dot(data, {
          x: 'tokens',
          y: 'value',
          stroke: 'strategy',
          symbol: presentRetrievers(points).length > 1 ? 'retriever' : undefined,
          r: 3,
          strokeOpacity: 0.6,
          tip: true,
          title: (d: (typeof data)[number]) =>
            `${strategyWords(d.strategy)} · ${RETRIEVER_NAMES[d.retriever].long} · ${d.budget} tokens${d.words ? `\n${d.words}` : ''}\n${METRIC_LABELS[metric]} ${formatMetric(d.value)}, ${d.tokens.toFixed(0)} tokens`,
        }),
      ],
    };
  }, [points, metric, scheme]);
  return (
    <PlotFigure
      label={label}
      options={options}
      note="No points."
      caption={
        <>
          <strong>{label}.</strong> Every measured point: {METRIC_LABELS[metric]} against the mean context tokens it handed over, coloured by strategy
          {presentRetrievers(points).length > 1 ? ', shaped by retriever' : ''}. The dashed line joins the Pareto frontier (ringed points): no other point gives
          as much for fewer tokens.
        </>
      }
    />
  );
}

export function EvalCharts({ points, recs, metric }: { points: EvalPointView[]; recs: Recommendation[]; metric: MetricName }) {
  return (
    <div className="eval-charts">
      <WindowChart points={points} metric={metric} />
      <RrfHeatmap points={points} metric={metric} />
      <StrategyBars recs={recs} metric={metric} />
      <CostChart points={points} metric={metric} />
    </div>
  );
}
