/**
 * Marked and generated questions measured apart from one run on the whole question set: each
 * point's per-question metrics (in the run's question order) split by where the question came
 * from, and the budgets whose recommendation differs between the two.
 */
import { meanMetrics, metricIntervals, type MetricName } from '../../core/eval/metrics';
import { pointInWords } from '../../core/eval/describe';
import { recommend, type Recommendation } from '../../core/eval/sweep';
import type { QuestionSourceKind } from '../../core/questions/types';
import type { EvalPointView, EvalRunResult } from '../../worker/protocol';
import { formatMetric, METRIC_LABELS } from './analysis';

/** The points measured on the questions of one source only (their metrics and intervals recomputed). */
export function pointsOfSource(result: Pick<EvalRunResult, 'points' | 'questions'>, kind: QuestionSourceKind): EvalPointView[] {
  const keep = result.questions.map((q) => q.source === kind);
  if (!keep.some(Boolean)) return [];
  return result.points.flatMap((p) => {
    const per = p.perQuestion?.filter((_, i) => keep[i]);
    if (!per?.length) return [];
    return [{ ...p, metrics: meanMetrics(per), intervals: metricIntervals(per), perQuestion: per }];
  });
}

export interface SourceDisagreement {
  budgetTokens: number;
  marked: Recommendation;
  generated: Recommendation;
}

/** Budgets where the best strategy or retriever on marked questions is not the one on generated questions. */
export function sourceDisagreements(result: Pick<EvalRunResult, 'points' | 'questions'>, metric: MetricName): SourceDisagreement[] {
  const marked = recommend(pointsOfSource(result, 'marked'), metric);
  const generated = recommend(pointsOfSource(result, 'generated'), metric);
  return marked.flatMap((m) => {
    const g = generated.find((x) => x.budgetTokens === m.budgetTokens);
    if (!g || (g.best.strategy === m.best.strategy && g.best.retriever === m.best.retriever)) return [];
    return [{ budgetTokens: m.budgetTokens, marked: m, generated: g }];
  });
}

/** "At 256 tokens your marked questions favour … (answer in context 1.000), the generated ones … (0.800)." */
export function disagreementSentence(d: SourceDisagreement, counts: { marked: number; generated: number }): string {
  const m = d.marked.best as EvalPointView;
  const g = d.generated.best as EvalPointView;
  const metric = d.marked.metric;
  return (
    `At ${d.budgetTokens} tokens the recommendation differs: your ${counts.marked} marked question${counts.marked === 1 ? '' : 's'} favour ${pointInWords(m)} ` +
    `(${METRIC_LABELS[metric]} ${formatMetric(m.metrics[metric], metric)}), the ${counts.generated} generated one${counts.generated === 1 ? '' : 's'} ${pointInWords(g)} ` +
    `(${formatMetric(g.metrics[metric], metric)}). Generated questions tend to reuse their passage's words, which favours BM25; the questions you marked are closer to what you ask.`
  );
}
