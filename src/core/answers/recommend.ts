/**
 * What an answer run recommends: per budget, the best point by an answer metric (ties go to the
 * cheaper prompt), its margin over the baseline's best point, and the best point by answer in
 * context beside it — so the page and the CLI can say where judging by the answer and judging by
 * the context disagree, with the paired difference of the two on the answer metric. And the
 * Pareto front of answer accuracy against prompt tokens: the points no other point beats on both.
 */
import type { Difference } from '../eval/bootstrap';
import type { Metrics } from '../eval/metrics';
import type { RetrieverName } from '../retrieve/retrievers';
import { BASELINE, type StrategyName } from '../strategies/registry';
import { answerDifference, type AnswerPointResult, type AnswerRankingMetric } from './answer-metrics';
import type { BlockOrder } from './block-order';

/** A measured point with its answers at one block order. */
export interface AnsweredPoint {
  strategy: StrategyName;
  retriever: RetrieverName;
  budgetTokens: number | null;
  params: Record<string, unknown>;
  metrics: Metrics;
  order: BlockOrder;
  answer: AnswerPointResult;
}

export interface AnswerRecommendation {
  budgetTokens: number | null;
  metric: AnswerRankingMetric;
  best: AnsweredPoint;
  /** The best point by answer in context (ties: fewer context tokens), with its answers. */
  bestByContext: AnsweredPoint;
  /** True when judging by the context would have chosen another strategy or parameters. */
  differs: boolean;
  /** best − bestByContext on the answer metric, paired over the questions; null when they are the same point. */
  overContext: Difference | null;
  baseline: AnsweredPoint | null;
  margin: number | null;
  /** Best point of every strategy at this budget, best first. */
  byStrategy: AnsweredPoint[];
}

const value = (p: AnsweredPoint, m: AnswerRankingMetric) => p.answer.metrics[m] ?? -Infinity;
const tokens = (p: AnsweredPoint) => p.answer.metrics.promptTokens ?? Infinity;

/** Better first: the metric, then fewer prompt tokens, then more answers in context. */
function better(m: AnswerRankingMetric) {
  return (a: AnsweredPoint, b: AnsweredPoint) => value(b, m) - value(a, m) || tokens(a) - tokens(b) || b.metrics.answerInContext - a.metrics.answerInContext;
}

const sameSetting = (a: AnsweredPoint, b: AnsweredPoint) => a.strategy === b.strategy && a.retriever === b.retriever && JSON.stringify(a.params) === JSON.stringify(b.params);

/** Per budget, best first by `metric`; points without a value for it are not ranked. */
export function recommendByAnswers(points: readonly AnsweredPoint[], metric: AnswerRankingMetric): AnswerRecommendation[] {
  const budgets = [...new Set(points.map((p) => p.budgetTokens))].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  const out: AnswerRecommendation[] = [];
  for (const budget of budgets) {
    const at = points.filter((p) => p.budgetTokens === budget && p.answer.metrics[metric] !== null);
    if (!at.length) continue;
    const byStrategy = [...new Set(at.map((p) => p.strategy))].map((s) => at.filter((p) => p.strategy === s).sort(better(metric))[0]!).sort(better(metric));
    const best = byStrategy[0]!;
    const byContext = [...at].sort((a, b) => b.metrics.answerInContext - a.metrics.answerInContext || a.metrics.meanContextTokens - b.metrics.meanContextTokens || better(metric)(a, b))[0]!;
    const baseline = byStrategy.find((p) => p.strategy === BASELINE) ?? null;
    const differs = !sameSetting(best, byContext);
    out.push({
      budgetTokens: budget,
      metric,
      best,
      bestByContext: byContext,
      differs,
      overContext: best === byContext ? null : answerDifference(best.answer, byContext.answer, metric),
      baseline,
      margin: baseline ? value(best, metric) - value(baseline, metric) : null,
      byStrategy,
    });
  }
  return out;
}

/** The points on the front of `metric` against mean prompt tokens, cheapest first. */
export function answerPareto(points: readonly AnsweredPoint[], metric: AnswerRankingMetric): AnsweredPoint[] {
  const ranked = points.filter((p) => p.answer.metrics[metric] !== null && p.answer.metrics.promptTokens !== null).sort((a, b) => tokens(a) - tokens(b) || value(b, metric) - value(a, metric));
  const front: AnsweredPoint[] = [];
  let bestSoFar = -Infinity;
  for (const p of ranked) {
    if (value(p, metric) > bestSoFar) {
      front.push(p);
      bestSoFar = value(p, metric);
    }
  }
  return front;
}
