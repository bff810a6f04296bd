/**
 * Pure helpers for the evaluation lab: parsing the run settings, estimating a sweep's
 * size, putting points and recommendations into words, shaping chart data. The CSV/JSON
 * exports are in analysis-export.ts, the question list's paging in question-rows.ts. No React, no DOM.
 */
import type { Difference } from '../../core/eval/bootstrap';
import { difference, differenceWords, NOT_DISTINGUISHABLE } from '../../core/eval/compare';
import { paramsInWords, pointInWords } from '../../core/eval/describe';
import { METRIC_LABELS, METRIC_NAMES, RANKING_METRICS } from '../../core/eval/metrics';
import { defaultSweep, pointParams, recommend, sweepSize, type MetricName, type Recommendation } from '../../core/eval/sweep';
import { retrievalParams } from '../../core/retrieve/params';
import { RETRIEVERS, type RetrieverName } from '../../core/retrieve/retrievers';
import { BASELINE, COMPARISON_STRATEGY, STRATEGIES, strategyOf, strategyWords, SWEEP_AXES, type StrategyName } from '../../core/strategies/registry';
import { short } from '../../core/strategies/types';
import type { EvalPointQuery, EvalPointView, EvalRunResult, EvalRunSpec } from '../../worker/protocol';

// ---- names (defined in core; re-exported for the lab's components) ------------------------

export { METRIC_LABELS, NOT_DISTINGUISHABLE, paramsInWords, pointInWords };

/** The metrics a run can be judged by, in the order the select shows them. */
export const RUN_METRICS: MetricName[] = RANKING_METRICS;

/** A metric value as shown everywhere: three decimals (tokens: one). */
export function formatMetric(value: number, metric: MetricName = 'answerInContext'): string {
  if (!Number.isFinite(value)) return '–';
  return metric === 'meanContextTokens' ? value.toFixed(1) : value.toFixed(3);
}

/** "+0.041", "−0.002", "±0.000". */
export function formatMargin(value: number): string {
  const s = Math.abs(value).toFixed(3);
  if (Number(s) === 0) return `±${s}`;
  return value > 0 ? `+${s}` : `−${s}`;
}

// ---- run settings ----------------------------------------------------------------------

/** Budgets typed as "256, 512": numbers ≥ 16, de-duplicated, ascending; or why not. */
export function parseBudgets(text: string): { budgets: number[]; error: null } | { budgets: null; error: string } {
  const parts = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.length) return { budgets: null, error: 'Enter at least one budget, e.g. 256, 512.' };
  const out: number[] = [];
  for (const p of parts) {
    const n = Number(p);
    if (!/^\d+(\.\d+)?$/.test(p) || !Number.isFinite(n)) return { budgets: null, error: `“${p}” is not a number of tokens.` };
    if (n < 16) return { budgets: null, error: `Budgets must be at least 16 tokens (got ${p}).` };
    out.push(n);
  }
  return { budgets: [...new Set(out)].sort((a, b) => a - b), error: null };
}

/** What the user ticked in the run settings: a run spec without the view's current parameters. */
export type RunChoice = Omit<EvalRunSpec, 'current'>;

/** Which models are ready (vector retrieval needs an embedder, rerank a reranker). */
export interface Availability {
  embedder: boolean;
  reranker: boolean;
  /** The loaded embedder makes late-chunked vectors (absent: it does not). */
  late?: boolean;
}

/** The spec the controller runs: retrievers and rerank limited to what the loaded models allow. */
export function runSpec(choice: RunChoice, available: Availability): Omit<EvalRunSpec, 'current'> {
  const swept = Object.fromEntries(SWEEP_AXES.map((a) => [a.id, Boolean(choice[a.id])])) as Pick<RunChoice, (typeof SWEEP_AXES)[number]['id']>;
  return {
    strategies: STRATEGIES.filter((s) => choice.strategies.includes(s)),
    retrievers: RETRIEVERS.filter((r) => choice.retrievers.includes(r) && (r === 'bm25' || available.embedder)),
    budgets: choice.budgets,
    ...swept,
    rrfGrid: choice.rrfGrid,
    headers: choice.headers,
    ...(choice.late && available.late ? { late: true } : {}),
    ...(choice.contextual ? { contextual: true } : {}),
    rerank: choice.rerank && available.reranker,
    metric: choice.metric,
    ...(choice.answers ? { answers: true } : {}),
  };
}

/** How many points the run measures (sweep.ts's sweepSize, once per header variant). */
export function estimatePoints(spec: Omit<EvalRunSpec, 'current'>): number {
  const grid = defaultSweep();
  const swept = spec as unknown as Record<string, boolean>;
  // An axis not swept measures one value: any one does for counting.
  const axes = Object.fromEntries(SWEEP_AXES.map((a) => [a.id, swept[a.id] ? grid[a.id] : grid[a.id].slice(0, 1)]));
  const n = sweepSize({
    ...grid,
    strategies: spec.strategies,
    retrievers: spec.retrievers,
    budgets: spec.budgets,
    ...axes,
    rrfC: spec.rrfGrid ? grid.rrfC : [60],
    bm25Weights: spec.rrfGrid ? grid.bm25Weights : [0.5],
    rerank: spec.rerank ? [false, true] : [false],
  });
  return n * (spec.headers ? 2 : 1) * (spec.late ? 2 : 1) * (spec.contextual ? 2 : 1);
}

// ---- points in words ----------------------------------------------------------------

/** Reported parameters of a window point, as the charts read them. */
interface PointParams {
  before?: number;
  after?: number;
  rrfC?: number;
  weights?: { bm25: number; vector: number };
}

/**
 * "At 512 tokens the best is sentence windows (BM25; window ±2 sentences) with answer in
 * context 0.873, +0.041 over the best naive chunks."
 */
export function recommendationSentence(rec: Recommendation): string {
  const best = rec.best as EvalPointView;
  const head = `At ${rec.budgetTokens} tokens the best is ${pointInWords(best)} with ${METRIC_LABELS[rec.metric]} ${formatMetric(best.metrics[rec.metric])}`;
  const baseline = strategyWords(BASELINE);
  if (!rec.baseline) return `${head} (${baseline} were not measured).`;
  if (rec.best === rec.baseline || best.strategy === BASELINE) return `${head}, ${formatMargin(0)} over the best ${baseline}: the baseline itself is best.`;
  const d = vsBaseline(rec, best);
  if (!d) return `${head}, ${formatMargin(rec.margin ?? 0)} over the best ${baseline}.`;
  return `${head}, ${formatMargin(rec.margin ?? 0)} over the best ${baseline} (paired 95 % interval ${intervalWords(d)})${d.distinguishable ? '.' : `: ${NOT_DISTINGUISHABLE}.`}`;
}

/** A point's difference from its budget's best baseline point on the recommendation's metric (paired bootstrap); null for the baseline or without per-question metrics. */
export function vsBaseline(rec: Recommendation, p: EvalPointView): Difference | null {
  return rec.baseline && p !== rec.baseline ? difference(p, rec.baseline, rec.metric) : null;
}

/** "+0.012 to +0.069". */
export function intervalWords(d: { low: number; high: number }): string {
  return `${formatMargin(d.low)} to ${formatMargin(d.high)}`;
}

/** "0.811–0.857": a metric's 95 % bootstrap interval as shown beside it, '' when the run has none. */
export function metricInterval(p: EvalPointView, m: MetricName): string {
  const iv = p.intervals?.[m];
  return iv ? `${formatMetric(iv.low, m)}–${formatMetric(iv.high, m)}` : '';
}

export { differenceWords };

/** The recommendations by `metric`: the run's own when it used that metric, else recomputed. */
export function recommendationsFor(result: EvalRunResult, metric: MetricName): Recommendation[] {
  if (result.recommendations.length && result.recommendations[0]!.metric === metric) return result.recommendations;
  if (!result.points.length) return [];
  return recommend(result.points, metric);
}

// ---- chart data --------------------------------------------------------------------

/** Better by the metric, then cheaper context. */
function better(metric: MetricName) {
  return (a: EvalPointView, b: EvalPointView) => b.metrics[metric] - a.metrics[metric] || a.metrics.meanContextTokens - b.metrics.meanContextTokens;
}

/** The best point of each group (by the metric, then fewer tokens), in first-seen group order. */
export function bestOf<K>(points: readonly EvalPointView[], metric: MetricName, key: (p: EvalPointView) => K): Map<string, EvalPointView> {
  const out = new Map<string, EvalPointView>();
  const cmp = better(metric);
  for (const p of points) {
    const k = JSON.stringify(key(p));
    const prev = out.get(k);
    if (!prev || cmp(p, prev) < 0) out.set(k, p);
  }
  return out;
}

export function budgetsOf(points: readonly EvalPointView[]): number[] {
  return [...new Set(points.map((p) => p.budgetTokens ?? 0))].sort((a, b) => a - b);
}

export interface WindowSeries {
  /** Several symmetric window sizes were measured. */
  swept: boolean;
  lines: { retriever: RetrieverName; budget: number; k: number; value: number }[];
  naive: { retriever: RetrieverName; budget: number; value: number }[];
}

/** Sentence windows with before === after: the best value per retriever, budget and k; the baseline's rules. */
export function windowSeries(points: readonly EvalPointView[], metric: MetricName): WindowSeries {
  const sym = points.filter((p) => {
    const q = p.params as PointParams;
    return p.strategy === COMPARISON_STRATEGY.name && q.before !== undefined && q.before === q.after;
  });
  const ks = new Set(sym.map((p) => (p.params as PointParams).before));
  const best = bestOf(sym, metric, (p) => [p.retriever, p.budgetTokens, (p.params as PointParams).before]);
  const lines = [...best.values()]
    .map((p) => ({ retriever: p.retriever, budget: p.budgetTokens ?? 0, k: (p.params as PointParams).before!, value: p.metrics[metric] }))
    .sort((a, b) => RETRIEVERS.indexOf(a.retriever) - RETRIEVERS.indexOf(b.retriever) || a.budget - b.budget || a.k - b.k);
  const naive = [...bestOf(points.filter((p) => p.strategy === BASELINE), metric, (p) => [p.retriever, p.budgetTokens]).values()].map((p) => ({
    retriever: p.retriever,
    budget: p.budgetTokens ?? 0,
    value: p.metrics[metric],
  }));
  return { swept: ks.size > 1, lines, naive };
}

export interface RrfGrid {
  strategy: StrategyName;
  budget: number;
  cells: { c: number; w: number; value: number }[];
}

/**
 * Hybrid points over several c and weights at the first budget, best over the rest; or null.
 * Drawn for the comparison strategy (sentence windows), else the first other strategy measured.
 */
export function rrfGrid(points: readonly EvalPointView[], metric: MetricName): RrfGrid | null {
  const hybrid = points.filter((p) => p.retriever === 'hybrid' && (p.params as PointParams).rrfC !== undefined && (p.params as PointParams).weights);
  const order: StrategyName[] = [COMPARISON_STRATEGY.name, ...STRATEGIES.filter((s) => s !== BASELINE && s !== COMPARISON_STRATEGY.name)];
  const strategy = order.find((s) => hybrid.some((p) => p.strategy === s));
  if (!strategy) return null;
  const budget = budgetsOf(hybrid.filter((p) => p.strategy === strategy))[0];
  if (budget === undefined) return null;
  const at = hybrid.filter((p) => p.strategy === strategy && (p.budgetTokens ?? 0) === budget);
  const key = (p: EvalPointView) => {
    const q = p.params as PointParams;
    return [q.rrfC!, Number(q.weights!.bm25.toFixed(6))] as const;
  };
  const cells = [...bestOf(at, metric, key).values()]
    .map((p) => ({ c: key(p)[0], w: key(p)[1], value: p.metrics[metric] }))
    .sort((a, b) => a.c - b.c || a.w - b.w);
  if (new Set(cells.map((x) => x.c)).size < 2 || new Set(cells.map((x) => x.w)).size < 2) return null;
  return { strategy, budget, cells };
}

/**
 * The Pareto frontier of context tokens against a metric: the points no other point
 * beats on both (as many or fewer tokens and as high or higher a metric, one strictly),
 * cheapest first. Points equal on both keep the first.
 */
export function paretoFrontier(points: readonly EvalPointView[], metric: MetricName): EvalPointView[] {
  const sorted = [...points].sort((a, b) => a.metrics.meanContextTokens - b.metrics.meanContextTokens || b.metrics[metric] - a.metrics[metric]);
  const out: EvalPointView[] = [];
  let best = -Infinity;
  for (const p of sorted) {
    // Cheapest first: a point is on the frontier when it beats every cheaper (or as cheap) one.
    if (p.metrics[metric] > best) {
      out.push(p);
      best = p.metrics[metric];
    }
  }
  return out;
}

/** Best point per strategy and budget, ordered by budget then strategy. */
export function bestPerStrategy(recs: readonly Recommendation[]): EvalPointView[] {
  return recs.flatMap((r) => [...r.byStrategy].sort((a, b) => STRATEGIES.indexOf(a.strategy) - STRATEGIES.indexOf(b.strategy))) as EvalPointView[];
}

/** The drill-down's points: the best of each strategy at the first budget, ready to replay. */
export function drillPoints(recs: readonly Recommendation[]): EvalPointQuery[] {
  const first = recs[0];
  if (!first) return [];
  return [...first.byStrategy]
    .sort((a, b) => STRATEGIES.indexOf(a.strategy) - STRATEGIES.indexOf(b.strategy))
    .map((p) => pointQuery(p as EvalPointView));
}

export function pointQuery(p: EvalPointView): EvalPointQuery {
  return {
    strategy: p.strategy,
    retriever: p.retriever,
    budgetTokens: p.budgetTokens ?? 512,
    params: pointParams(p),
    headers: Boolean(p.headers),
    // The point's own vectors and texts (plain or late-chunked, with or without contexts), whatever the engine has now:
    // a point records these only when on, so their absence means off, never "as the engine is".
    late: Boolean(p.late ?? (p.params as { late?: boolean }).late),
    contextual: Boolean(p.contextual),
    rerank: p.rerank,
  };
}

/** A replayed point's column title: "Sentence windows · BM25 · window ±2 sentences · 256 tokens". */
export function queryInWords(q: EvalPointQuery): string {
  const s = strategyOf(q.strategy);
  const parts = [...(s.words?.(s.report?.(retrievalParams(q.params)) ?? {}, 'short') ?? [])];
  if (q.retriever === 'hybrid' && q.params.rrf) parts.push(`c ${short(q.params.rrf.c)}, BM25 ${short(q.params.rrf.weights.bm25)}`);
  if (q.headers) parts.push('headers');
  if (q.late) parts.push('late chunking');
  if (q.contextual) parts.push('contextual');
  if (q.rerank) parts.push('reranked');
  return parts.join(' · ');
}

/** The strategies and retrievers present in a run's points, in the usual order. */
export function presentStrategies(points: readonly EvalPointView[]): StrategyName[] {
  return STRATEGIES.filter((s) => points.some((p) => p.strategy === s));
}

export function presentRetrievers(points: readonly EvalPointView[]): RetrieverName[] {
  return RETRIEVERS.filter((r) => points.some((p) => p.retriever === r));
}
