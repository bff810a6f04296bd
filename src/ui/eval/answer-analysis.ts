/**
 * Pure helpers for the answer run's part of the lab: the measured points joined with their
 * answers, the window curve of answer accuracy beside answer in context, the answer metrics a
 * reader can rank by, and numbers in words. No React, no DOM.
 */
import { ANSWER_METRIC_LABELS, type AnswerMetricName, type AnswerPointResult, type AnswerRankingMetric } from '../../core/answers/answer-metrics';
import type { AnswerRunResult } from '../../core/answers/answer-run';
import type { AnsweredPoint } from '../../core/answers/recommend';
import { RETRIEVERS, type RetrieverName } from '../../core/retrieve/retrievers';
import { COMPARISON_STRATEGY } from '../../core/strategies/registry';
import type { EvalPointView, EvalRunResult } from '../../worker/protocol';

export { ANSWER_METRIC_LABELS };

/** The answer metrics a run can be ranked by, those it measured first. */
export function rankingChoices(results: readonly AnswerPointResult[]): AnswerRankingMetric[] {
  const has = (m: AnswerRankingMetric) => results.some((r) => r.metrics[m] !== null);
  return (['answerF1', 'answerExact', 'judgeCorrect', 'faithfulness', 'abstention'] as AnswerRankingMetric[]).filter(has);
}

export type AnsweredView = AnsweredPoint & EvalPointView;

/** Every answered point: the measured point (its retrieval metrics) with its answers at one block order. */
export function answeredPoints(evalResult: EvalRunResult, run: Pick<AnswerRunResult, 'results'>): AnsweredView[] {
  return run.results.map((a) => ({ ...evalResult.points[a.ref.point]!, order: a.ref.order, answer: a }));
}

/** "0.412", "–" for nothing; prompt tokens with one decimal, time in whole ms. */
export function formatAnswerMetric(v: number | null | undefined, m: AnswerMetricName): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return m === 'promptTokens' ? v.toFixed(1) : m === 'answerMs' ? `${Math.round(v)}` : v.toFixed(3);
}

/** "0.301–0.522", '' when the point has no interval for the metric. */
export function answerInterval(a: AnswerPointResult, m: AnswerMetricName): string {
  const iv = a.intervals[m];
  return iv ? `${formatAnswerMetric(iv.low, m)}–${formatAnswerMetric(iv.high, m)}` : '';
}

export interface AnswerWindowRow {
  retriever: RetrieverName;
  budget: number;
  k: number;
  series: string;
  value: number;
}

/**
 * Sentence windows of ±k (before = after) at the first block order: for each retriever, budget
 * and k, the point with the best answers (over the other swept parameters), its answer metric
 * and its answer in context — two lines on one axis, so the peak of the answers and the rise of
 * the context can be seen together.
 */
export function answerWindowSeries(points: readonly AnsweredView[], metric: AnswerRankingMetric): { swept: boolean; rows: AnswerWindowRow[]; series: [string, string] } {
  const series: [string, string] = [ANSWER_METRIC_LABELS[metric], 'answer in context'];
  const order = points[0]?.order;
  const sym = points.filter((p) => {
    const q = p.params as { before?: number; after?: number };
    return p.order === order && p.strategy === COMPARISON_STRATEGY.name && q.before !== undefined && q.before === q.after && p.answer.metrics[metric] !== null;
  });
  const best = new Map<string, AnsweredView>();
  for (const p of sym) {
    const k = JSON.stringify([p.retriever, p.budgetTokens, (p.params as { before: number }).before]);
    const prev = best.get(k);
    if (!prev || p.answer.metrics[metric]! > prev.answer.metrics[metric]! || (p.answer.metrics[metric] === prev.answer.metrics[metric] && (p.answer.metrics.promptTokens ?? 0) < (prev.answer.metrics.promptTokens ?? 0))) best.set(k, p);
  }
  const rows = [...best.values()]
    .flatMap((p) => {
      const base = { retriever: p.retriever, budget: p.budgetTokens ?? 0, k: (p.params as { before: number }).before };
      return [
        { ...base, series: series[0], value: p.answer.metrics[metric]! },
        { ...base, series: series[1], value: p.metrics.answerInContext },
      ];
    })
    .sort((a, b) => RETRIEVERS.indexOf(a.retriever) - RETRIEVERS.indexOf(b.retriever) || a.budget - b.budget || a.k - b.k);
  return { swept: new Set(sym.map((p) => (p.params as { before: number }).before)).size > 1, rows, series };
}

/** "12 calls, 3 from the cache, 1 failed, 4.1 s". */
export function runWords(p: { calls: number; cached: number; failed: number; elapsedMs: number }): string {
  return `${p.calls} call${p.calls === 1 ? '' : 's'}, ${p.cached} from the cache, ${p.failed} failed, ${(p.elapsedMs / 1000).toFixed(1)} s`;
}
