/** The evaluation lab's exports, made in the page: every point as CSV, the run as JSON. Pure. */
import { METRIC_NAMES } from '../../core/eval/metrics';
import type { Recommendation } from '../../core/eval/sweep';
import type { EvalPointView, EvalRunResult } from '../../worker/protocol';
import { recommendationSentence, vsBaseline } from './analysis';

/** One CSV field: quoted when it holds a comma, quote or line break. */
export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const EXPORT_METRICS = METRIC_NAMES;

/** One row per point: strategy, retriever, budget, headers, rerank, params (JSON), every metric. */
export function pointsCsv(points: readonly EvalPointView[]): string {
  // Each metric, then each metric's 95 % bootstrap interval (empty for runs saved without one).
  const head = ['strategy', 'retriever', 'budget_tokens', 'headers', 'rerank', 'params', ...EXPORT_METRICS, ...EXPORT_METRICS.flatMap((m) => [`${m}_low`, `${m}_high`])];
  const rows = points.map((p) => [
    p.strategy,
    p.retriever,
    p.budgetTokens ?? '',
    Boolean(p.headers),
    p.rerank,
    JSON.stringify(p.params),
    ...EXPORT_METRICS.map((m) => Number(p.metrics[m].toFixed(6))),
    ...EXPORT_METRICS.flatMap((m): (number | string)[] => (p.intervals ? [Number(p.intervals[m].low.toFixed(6)), Number(p.intervals[m].high.toFixed(6))] : ['', ''])),
  ]);
  return [head, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The run as JSON: the set, the metric, one entry per point, and the recommendations. */
export function pointsJson(result: EvalRunResult, recs: readonly Recommendation[]): string {
  const point = (p: EvalPointView) => ({
    strategy: p.strategy,
    retriever: p.retriever,
    budgetTokens: p.budgetTokens,
    headers: Boolean(p.headers),
    rerank: p.rerank,
    params: p.params,
    metrics: p.metrics,
    ...(p.intervals ? { intervals: p.intervals } : {}),
  });
  return JSON.stringify(
    {
      set: result.set,
      questions: result.questions.length,
      ms: Math.round(result.ms),
      points: result.points.map(point),
      recommendations: recs.map((r) => ({
        budgetTokens: r.budgetTokens,
        metric: r.metric,
        best: point(r.best as EvalPointView),
        margin: r.margin,
        ...(() => {
          const d = vsBaseline(r, r.best as EvalPointView);
          return d ? { marginInterval: { low: d.low, high: d.high }, distinguishable: d.distinguishable } : {};
        })(),
        sentence: recommendationSentence(r),
      })),
    },
    null,
    2,
  );
}

/** A file name from the set's name: "xquad.en.json" → "xquad.en-sweep.csv". */
export function exportName(setName: string, ext: 'csv' | 'json'): string {
  const base = setName.replace(/\.(json|jsonl|csv|tsv|txt)$/i, '').replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'evaluation';
  return `${base}-sweep.${ext}`;
}

