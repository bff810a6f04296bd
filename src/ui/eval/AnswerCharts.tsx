import * as Plot from '@observablehq/plot';
import { useMemo } from 'react';
import type { AnswerRankingMetric } from '../../core/answers/answer-metrics';
import { answerPareto } from '../../core/answers/recommend';
import { RETRIEVER_NAMES, type RetrieverName } from '../../core/retrieve/retrievers';
import { strategyWords } from '../../core/strategies/registry';
import { useScheme } from '../palette';
import { ANSWER_METRIC_LABELS, answerWindowSeries, formatAnswerMetric, type AnsweredView } from './answer-analysis';
import { paramsInWords, presentStrategies } from './analysis';
import { frontierMarks, strategyScale } from './Charts';
import { PlotFigure } from './PlotFigure';

const WIDTH = 430;

/** The answer metric and answer in context against the window size: the answers' peak and fall beside the context's rise. */
function AnswerWindowChart({ points, metric }: { points: AnsweredView[]; metric: AnswerRankingMetric }) {
  const label = `${ANSWER_METRIC_LABELS[metric]} and answer in context vs window size`;
  const data = useMemo(() => answerWindowSeries(points, metric), [points, metric]);
  const options = useMemo<Plot.PlotOptions | null>(() => {
    if (!data.swept) return null;
    const retrievers = [...new Set(data.rows.map((r) => r.retriever))];
    return {
      width: WIDTH,
      height: 260,
      marginLeft: 44,
      x: { label: 'window ±k sentences', tickFormat: 'd' },
      y: { domain: [0, 1], grid: true, label: 'share of questions' },
      fx: { label: null, tickFormat: (b: unknown) => `${String(b)} tokens` },
      ...(retrievers.length > 1 ? { fy: { label: null, tickFormat: (r: RetrieverName) => RETRIEVER_NAMES[r].short } } : {}),
      color: { domain: data.series, range: ['#0072b2', '#999999'], legend: true },
      marks: [
        Plot.frame({ stroke: 'currentColor', strokeOpacity: 0.25 }),
        Plot.line(
          data.rows.filter((r) => r.series === data.series[0]),
          { x: 'k', y: 'value', fx: 'budget', ...(retrievers.length > 1 ? { fy: 'retriever' } : {}), stroke: 'series' },
        ),
        Plot.line(
          data.rows.filter((r) => r.series === data.series[1]),
          { x: 'k', y: 'value', fx: 'budget', ...(retrievers.length > 1 ? { fy: 'retriever' } : {}), stroke: 'series', strokeDasharray: '4 3' },
        ),
        Plot.dot(data.rows, {
          x: 'k',
          y: 'value',
          fx: 'budget',
          ...(retrievers.length > 1 ? { fy: 'retriever' } : {}),
          fill: 'series',
          r: 3,
          tip: true,
          title: (d: (typeof data.rows)[number]) => `${RETRIEVER_NAMES[d.retriever].long}, window ±${d.k}, ${d.budget} tokens\n${d.series}: ${d.value.toFixed(3)}`,
        }),
      ],
    };
  }, [data]);
  return (
    <PlotFigure
      label={label}
      options={options}
      note="Answer a run that swept window sizes (sentence windows, “Window sizes” ticked) to see the curve."
      caption={
        <>
          <strong>{label}.</strong> Sentence windows of ±k sentences answered by the generator: the solid line is how often its answers were right, the dashed line how
          often the answer was somewhere in the context. Where the dashed line still rises and the solid one falls, more context is noise.
        </>
      }
    />
  );
}

/** Every answered point: answer accuracy against the prompt tokens it cost, the Pareto front ringed. */
function AnswerCostChart({ points, metric }: { points: AnsweredView[]; metric: AnswerRankingMetric }) {
  const label = `${ANSWER_METRIC_LABELS[metric]} vs prompt tokens`;
  const scheme = useScheme();
  const options = useMemo<Plot.PlotOptions | null>(() => {
    const ok = points.filter((p) => p.answer.metrics[metric] !== null && p.answer.metrics.promptTokens !== null);
    if (!ok.length) return null;
    const strategies = presentStrategies(ok);
    const data = ok.map((p) => ({ strategy: p.strategy, tokens: p.answer.metrics.promptTokens!, value: p.answer.metrics[metric]!, words: paramsInWords(p), retriever: p.retriever, budget: p.budgetTokens }));
    const front = answerPareto(ok, metric).map((p) => ({ tokens: p.answer.metrics.promptTokens!, value: p.answer.metrics[metric]! }));
    return {
      width: WIDTH,
      height: 260,
      marginLeft: 44,
      x: { label: 'mean prompt tokens', grid: true, nice: true },
      y: { grid: true, nice: true, label: ANSWER_METRIC_LABELS[metric] },
      color: strategyScale(strategies, scheme),
      marks: [
        ...frontierMarks(front),
        Plot.dot(data, {
          x: 'tokens',
          y: 'value',
          stroke: 'strategy',
          r: 3,
          tip: true,
          title: (d: (typeof data)[number]) => `${strategyWords(d.strategy)} · ${RETRIEVER_NAMES[d.retriever].long} · ${d.budget} tokens${d.words ? `\n${d.words}` : ''}\n${ANSWER_METRIC_LABELS[metric]} ${formatAnswerMetric(d.value, metric)}, ${d.tokens.toFixed(0)} prompt tokens`,
        }),
      ],
    };
  }, [points, metric, scheme]);
  return (
    <PlotFigure
      label={label}
      options={options}
      note="No answered points."
      caption={
        <>
          <strong>{label}.</strong> Every answered point (strategy, parameters, block order): how good its answers were against the prompt it cost. The dashed line
          joins the Pareto front (ringed): no other point answered as well for fewer tokens.
        </>
      }
    />
  );
}

export function AnswerCharts({ points, metric }: { points: AnsweredView[]; metric: AnswerRankingMetric }) {
  return (
    <div className="eval-charts">
      <AnswerWindowChart points={points} metric={metric} />
      <AnswerCostChart points={points} metric={metric} />
    </div>
  );
}
