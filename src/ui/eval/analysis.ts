/**
 * Pure helpers for the evaluation lab: parsing the run settings, estimating a sweep's
 * size, putting points and recommendations into words, shaping chart data, building the
 * CSV/JSON exports, and filtering/paging the question list. No React, no DOM.
 */
import { defaultSweep, pointParams, recommend, sweepSize, type MetricName, type Recommendation } from '../../core/eval/sweep';
import { METRIC_NAMES } from '../../core/eval/metrics';
import { STRATEGIES, type RetrieverName, type StrategyName } from '../../core/retrieve/params';
import type { EvalPointQuery, EvalPointView, EvalRunResult, EvalRunSpec } from '../../worker/protocol';

// ---- names ---------------------------------------------------------------------------

export const METRIC_LABELS: Record<MetricName, string> = {
  hitAt1: 'hit@1',
  hitAt5: 'hit@5',
  answerInContext: 'answer in context',
  recallAt5: 'recall@5',
  mrr: 'MRR',
  ndcg10: 'nDCG@10',
  meanContextTokens: 'context tokens',
};

/** The metrics a run can be judged by, in the order the select shows them. */
export const RUN_METRICS: MetricName[] = ['answerInContext', 'hitAt1', 'hitAt5', 'mrr', 'ndcg10', 'recallAt5'];

export const STRATEGY_WORDS: Record<StrategyName, string> = {
  naive: 'naive chunks',
  sentence: 'sentence hits',
  window: 'sentence windows',
  automerge: 'auto-merged parents',
  adaptive: 'adaptive windows',
  rse: 'relevant segments (RSE)',
};

export const RETRIEVERS: RetrieverName[] = ['bm25', 'vector', 'hybrid'];

export const RETRIEVER_LABELS: Record<RetrieverName, string> = { bm25: 'BM25', vector: 'vector', hybrid: 'hybrid RRF' };

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
}

/** The spec the controller runs: retrievers and rerank limited to what the loaded models allow. */
export function runSpec(choice: RunChoice, available: Availability): Omit<EvalRunSpec, 'current'> {
  return {
    strategies: STRATEGIES.filter((s) => choice.strategies.includes(s)),
    retrievers: RETRIEVERS.filter((r) => choice.retrievers.includes(r) && (r === 'bm25' || available.embedder)),
    budgets: choice.budgets,
    windows: choice.windows,
    thresholds: choice.thresholds,
    rrfGrid: choice.rrfGrid,
    headers: choice.headers,
    rerank: choice.rerank && available.reranker,
    metric: choice.metric,
  };
}

/** How many points the run measures (sweep.ts's sweepSize, once per header variant). */
export function estimatePoints(spec: Omit<EvalRunSpec, 'current'>): number {
  const grid = defaultSweep();
  const n = sweepSize({
    ...grid,
    strategies: spec.strategies,
    retrievers: spec.retrievers,
    budgets: spec.budgets,
    windows: spec.windows ? grid.windows : [{ before: 0, after: 0 }],
    thresholds: spec.thresholds ? grid.thresholds : [0.5],
    rrfC: spec.rrfGrid ? grid.rrfC : [60],
    bm25Weights: spec.rrfGrid ? grid.bm25Weights : [0.5],
    rerank: spec.rerank ? [false, true] : [false],
  });
  return n * (spec.headers ? 2 : 1);
}

// ---- points in words ----------------------------------------------------------------

interface PointParams {
  before?: number;
  after?: number;
  threshold?: number;
  rrfC?: number;
  weights?: { bm25: number; vector: number };
  chunkTokens?: number;
  headers?: boolean;
  rerank?: boolean;
}

const num = (x: number) => String(Number(x.toFixed(3)));

/** "window 2 before, 3 after", "merge threshold 0.5", "RRF c 60, weights BM25 0.5 / vector 0.5", "headers on", "reranked". */
export function paramsInWords(point: Pick<EvalPointView, 'strategy' | 'retriever' | 'params' | 'rerank'> & { headers?: boolean }): string {
  const p = point.params as PointParams;
  const parts: string[] = [];
  if (point.strategy === 'window' && p.before !== undefined && p.after !== undefined) {
    parts.push(p.before === p.after ? (p.before === 0 ? 'window ±0 (hit sentences only)' : `window ±${p.before} sentences`) : `window ${p.before} before, ${p.after} after`);
  }
  if (point.strategy === 'automerge' && p.threshold !== undefined) parts.push(`merge threshold ${num(p.threshold)}`);
  if (point.strategy === 'naive' && p.chunkTokens !== undefined) parts.push(`${p.chunkTokens}-token chunks`);
  if (point.retriever === 'hybrid' && p.rrfC !== undefined && p.weights) {
    parts.push(`RRF c ${num(p.rrfC)}, weights BM25 ${num(p.weights.bm25)} / vector ${num(p.weights.vector)}`);
  }
  if (point.headers ?? p.headers) parts.push('headers on');
  if (point.rerank || p.rerank) parts.push('reranked');
  return parts.join('; ');
}

/** "sentence windows (BM25; window ±2 sentences)". */
export function pointInWords(point: EvalPointView): string {
  const params = paramsInWords(point);
  return `${STRATEGY_WORDS[point.strategy]} (${RETRIEVER_LABELS[point.retriever]}${params ? `; ${params}` : ''})`;
}

/**
 * "At 512 tokens the best is sentence windows (BM25; window ±2 sentences) with answer in
 * context 0.873, +0.041 over the best naive chunks."
 */
export function recommendationSentence(rec: Recommendation): string {
  const best = rec.best as EvalPointView;
  const head = `At ${rec.budgetTokens} tokens the best is ${pointInWords(best)} with ${METRIC_LABELS[rec.metric]} ${formatMetric(best.metrics[rec.metric])}`;
  if (!rec.baseline) return `${head} (naive chunks were not measured).`;
  if (rec.best === rec.baseline || best.strategy === 'naive') return `${head}, ${formatMargin(0)} over the best naive chunks: the baseline itself is best.`;
  return `${head}, ${formatMargin(rec.margin ?? 0)} over the best naive chunks.`;
}

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

/** Sentence windows with before === after: the best value per retriever, budget and k; naive rules. */
export function windowSeries(points: readonly EvalPointView[], metric: MetricName): WindowSeries {
  const sym = points.filter((p) => {
    const q = p.params as PointParams;
    return p.strategy === 'window' && q.before !== undefined && q.before === q.after;
  });
  const ks = new Set(sym.map((p) => (p.params as PointParams).before));
  const best = bestOf(sym, metric, (p) => [p.retriever, p.budgetTokens, (p.params as PointParams).before]);
  const lines = [...best.values()]
    .map((p) => ({ retriever: p.retriever, budget: p.budgetTokens ?? 0, k: (p.params as PointParams).before!, value: p.metrics[metric] }))
    .sort((a, b) => RETRIEVERS.indexOf(a.retriever) - RETRIEVERS.indexOf(b.retriever) || a.budget - b.budget || a.k - b.k);
  const naive = [...bestOf(points.filter((p) => p.strategy === 'naive'), metric, (p) => [p.retriever, p.budgetTokens]).values()].map((p) => ({
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

/** Hybrid points over several c and weights at the first budget (window strategy, else sentence), best over the rest; or null. */
export function rrfGrid(points: readonly EvalPointView[], metric: MetricName): RrfGrid | null {
  const hybrid = points.filter((p) => p.retriever === 'hybrid' && (p.params as PointParams).rrfC !== undefined && (p.params as PointParams).weights);
  const strategy: StrategyName | undefined = hybrid.some((p) => p.strategy === 'window') ? 'window' : hybrid.some((p) => p.strategy === 'sentence') ? 'sentence' : undefined;
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
    rerank: p.rerank,
  };
}

/** A replayed point's column title: "Sentence windows · BM25 · window ±2 sentences · 256 tokens". */
export function queryInWords(q: EvalPointQuery): string {
  const parts: string[] = [];
  const w = q.params.window;
  if (q.strategy === 'window' && w) parts.push(w.before === w.after ? `±${w.before}` : `${w.before} before, ${w.after} after`);
  if (q.strategy === 'automerge' && q.params.merge) parts.push(`threshold ${num(q.params.merge.threshold)}`);
  if (q.retriever === 'hybrid' && q.params.rrf) parts.push(`c ${num(q.params.rrf.c)}, BM25 ${num(q.params.rrf.weights.bm25)}`);
  if (q.headers) parts.push('headers');
  if (q.rerank) parts.push('reranked');
  return parts.join(' · ');
}

// ---- exports -------------------------------------------------------------------------

/** One CSV field: quoted when it holds a comma, quote or line break. */
export function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const EXPORT_METRICS = METRIC_NAMES;

/** One row per point: strategy, retriever, budget, headers, rerank, params (JSON), every metric. */
export function pointsCsv(points: readonly EvalPointView[]): string {
  const head = ['strategy', 'retriever', 'budget_tokens', 'headers', 'rerank', 'params', ...EXPORT_METRICS];
  const rows = points.map((p) => [
    p.strategy,
    p.retriever,
    p.budgetTokens ?? '',
    Boolean(p.headers),
    p.rerank,
    JSON.stringify(p.params),
    ...EXPORT_METRICS.map((m) => Number(p.metrics[m].toFixed(6))),
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

// ---- question list --------------------------------------------------------------------

export const PAGE_SIZE = 25;

export interface QuestionRow {
  id: string;
  question: string;
  answers: string[];
}

/** Questions whose text, id or answers contain every word of the filter (case- and accent-insensitive). */
export function filterQuestions<Q extends QuestionRow>(questions: readonly Q[], filter: string): Q[] {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const words = fold(filter).split(/\s+/).filter(Boolean);
  if (!words.length) return [...questions];
  return questions.filter((q) => {
    const hay = fold(`${q.question} ${q.id} ${q.answers.join(' ')}`);
    return words.every((w) => hay.includes(w));
  });
}

/** One page (0-based, clamped) of a list, with the page count (≥ 1). */
export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  return { items: items.slice(p * size, (p + 1) * size), page: p, pages };
}

// ---- answers in block text ---------------------------------------------------------------

export interface MarkedPiece {
  text: string;
  /** A retrieved sentence. */
  hit: boolean;
  /** A gold answer string. */
  answer: boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Splits pieces (from splitByHits) further where a gold answer occurs (case-insensitive,
 * any whitespace between words), keeping every character once and in order.
 */
export function markAnswers(pieces: readonly { text: string; hit: boolean }[], answers: readonly string[]): MarkedPiece[] {
  const words = answers.map((a) => a.trim()).filter(Boolean);
  if (!words.length) return pieces.map((p) => ({ ...p, answer: false }));
  const re = new RegExp(
    words
      .sort((a, b) => b.length - a.length)
      .map((a) => a.split(/\s+/).map(escapeRegExp).join('\\s+'))
      .join('|'),
    'giu',
  );
  const out: MarkedPiece[] = [];
  for (const p of pieces) {
    let at = 0;
    for (const m of p.text.matchAll(re)) {
      if (!m[0]) continue;
      const i = m.index ?? 0;
      if (i > at) out.push({ text: p.text.slice(at, i), hit: p.hit, answer: false });
      out.push({ text: m[0], hit: p.hit, answer: true });
      at = i + m[0].length;
    }
    if (at < p.text.length || p.text.length === 0) out.push({ text: p.text.slice(at), hit: p.hit, answer: false });
  }
  return out;
}

/** The strategies and retrievers present in a run's points, in the usual order. */
export function presentStrategies(points: readonly EvalPointView[]): StrategyName[] {
  return STRATEGIES.filter((s) => points.some((p) => p.strategy === s));
}

export function presentRetrievers(points: readonly EvalPointView[]): RetrieverName[] {
  return RETRIEVERS.filter((r) => points.some((p) => p.retriever === r));
}
