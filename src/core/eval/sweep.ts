/**
 * Parameter sweeps: which strategy and which parameters retrieve the answer best, at
 * equal context budgets. Candidates are retrieved once per question, retriever and
 * fusion setting; every window size, merge threshold and budget then re-runs only the
 * cheap, pure block building — so a 36-point window grid costs little more than one run.
 */
import type { RetrievalEngine } from '../engine';
import { STRATEGIES, STRATEGY_UNIT, retrievalParams, type RetrievalParams, type RetrieverName, type StrategyName } from '../retrieve/params';
import type { EvalSet } from './dataset';
import { judged, meanMetrics, scoreQuestion, type Metrics } from './metrics';
import { strategyParams, type EvalRow } from './run-eval';

export interface SweepSpec {
  strategies: StrategyName[];
  retrievers: RetrieverName[];
  /** Context budgets in tokens; every point is measured at each. */
  budgets: number[];
  /** Window sizes (before, after) for the window strategy. */
  windows: { before: number; after: number }[];
  /** Merge thresholds for auto-merging. */
  thresholds: number[];
  /** RRF constants and BM25 weights (the vector weight is 1 − w) for hybrid retrieval. */
  rrfC: number[];
  bm25Weights: number[];
  /** Rerank off and/or on (on needs a reranker in the engine). */
  rerank: boolean[];
  /** Candidates retrieved per question (enough to fill the largest budget). */
  topK: number;
}

/** The grid: windows 0–5 × 0–5, thresholds 0.1–0.9, RRF c × weights, at 256 and 512 tokens. */
export function defaultSweep(partial: Partial<SweepSpec> = {}): SweepSpec {
  const windows: { before: number; after: number }[] = [];
  for (let b = 0; b <= 5; b++) for (let a = 0; a <= 5; a++) windows.push({ before: b, after: a });
  return {
    strategies: [...STRATEGIES],
    retrievers: ['bm25', 'vector', 'hybrid'],
    budgets: [256, 512],
    windows,
    thresholds: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
    rrfC: [1, 10, 30, 60, 100],
    bm25Weights: [0, 0.25, 0.5, 0.75, 1],
    rerank: [false],
    topK: 50,
    ...partial,
  };
}

/** One measured point of the sweep. */
export interface SweepPoint extends EvalRow {
  rerank: boolean;
}

interface Accumulator {
  row: Omit<SweepPoint, 'metrics'>;
  per: Metrics[];
}

export interface SweepProgress {
  done: number;
  total: number;
}

/** The strategy-specific parameter points to try. */
function strategyPoints(s: StrategyName, spec: SweepSpec): Partial<RetrievalParams>[] {
  if (s === 'window') return spec.windows.map((w) => ({ window: { ...w, bySection: false } }));
  if (s === 'automerge') return spec.thresholds.map((t) => ({ merge: { threshold: t } }));
  return [{}];
}

/** The retrieval points (fusion settings) to try for a retriever. */
function retrievalPoints(r: RetrieverName, spec: SweepSpec): Partial<RetrievalParams>[] {
  if (r !== 'hybrid') return [{ retriever: r }];
  const out: Partial<RetrievalParams>[] = [];
  for (const c of spec.rrfC) for (const w of spec.bm25Weights) out.push({ retriever: r, rrf: { c, weights: { bm25: w, vector: Number((1 - w).toFixed(6)) } } });
  return out;
}

/** How many points a sweep measures (for progress and for saying what it costs). */
export function sweepSize(spec: SweepSpec): number {
  let n = 0;
  for (const r of spec.retrievers) {
    const rp = retrievalPoints(r, spec).length;
    for (const s of spec.strategies) n += rp * strategyPoints(s, spec).length * spec.budgets.length * spec.rerank.length;
  }
  return n;
}

/**
 * Runs the sweep over the engine's current corpus (and its current header variant; run
 * it once per variant to compare headers). Returns one row per point, with mean metrics.
 */
export async function sweep(
  engine: RetrievalEngine,
  set: EvalSet,
  spec: SweepSpec,
  options: { onProgress?: (p: SweepProgress) => void; signal?: AbortSignal } = {},
): Promise<SweepPoint[]> {
  const docIds = engine.corpus.docs.map((d) => d.id);
  const docLevel = set.questions.every((q) => q.targets.every((t) => !t.spans));
  if (spec.retrievers.some((r) => r !== 'bm25')) await engine.embedQueries(set.questions.map((q) => q.question));
  const acc = new Map<string, Accumulator>();
  const total = set.questions.length;
  let done = 0;
  for (const q of set.questions) {
    if (options.signal?.aborted) throw new DOMException('the sweep was cancelled', 'AbortError');
    for (const r of spec.retrievers) {
      for (const rp of retrievalPoints(r, spec)) {
        for (const rerank of spec.rerank) {
          const base = retrievalParams({ ...rp, topK: spec.topK, budgetTokens: null, rerank: { enabled: rerank, topN: spec.topK } });
          // Candidates once per unit kind; every strategy point reuses them.
          const byKind = new Map<string, Awaited<ReturnType<RetrievalEngine['candidates']>>>();
          for (const s of spec.strategies) {
            const kind = STRATEGY_UNIT[s];
            let c = byKind.get(kind);
            if (!c) byKind.set(kind, (c = await engine.candidates(q.question, kind, base)));
            for (const sp of strategyPoints(s, spec)) {
              for (const budget of spec.budgets) {
                const p = retrievalParams({ ...base, ...sp, budgetTokens: budget });
                const blocks = engine.blocks(s, c.candidates, p, q.question);
                const key = JSON.stringify([s, r, rp, rerank, sp, budget]);
                let a = acc.get(key);
                if (!a) {
                  a = { row: { strategy: s, retriever: r, params: { ...strategyParams(s, p, engine), ...(rerank ? { rerank: true } : {}) }, budgetTokens: budget, rerank }, per: [] };
                  acc.set(key, a);
                }
                a.per.push(scoreQuestion(q, judged(blocks, docIds), { byDocument: docLevel }));
              }
            }
          }
        }
      }
    }
    options.onProgress?.({ done: ++done, total });
    // Yield now and then so a worker stays responsive (progress, cancel).
    if (done % 8 === 0) await new Promise((res) => setTimeout(res, 0));
  }
  return [...acc.values()].map((a) => ({ ...a.row, metrics: meanMetrics(a.per) }));
}

export type MetricName = keyof Metrics;

/** The retrieval parameters of a sweep point (the inverse of strategyParams), to replay it. */
export function pointParams(p: Pick<SweepPoint, 'strategy' | 'retriever' | 'params'>): Partial<RetrievalParams> {
  const q = p.params as { topK?: number; before?: number; after?: number; bySection?: boolean; threshold?: number; rrfC?: number; weights?: { bm25: number; vector: number } };
  return {
    retriever: p.retriever,
    ...(q.topK !== undefined ? { topK: q.topK } : {}),
    ...(q.before !== undefined && q.after !== undefined ? { window: { before: q.before, after: q.after, bySection: Boolean(q.bySection) } } : {}),
    ...(q.threshold !== undefined ? { merge: { threshold: q.threshold } } : {}),
    ...(q.rrfC !== undefined && q.weights ? { rrf: { c: q.rrfC, weights: q.weights } } : {}),
  };
}

/** The best point per (strategy, budget) by a metric, and its margin over the best naive point. */
export interface Recommendation {
  budgetTokens: number;
  metric: MetricName;
  best: SweepPoint;
  baseline: SweepPoint | null;
  /** best − baseline, in the metric's units. */
  margin: number | null;
  /** Best point of every strategy at this budget, best first. */
  byStrategy: SweepPoint[];
}

/**
 * What the sweep says: per budget, the best strategy and parameters by `metric`, and how
 * far it is above the naive baseline's best point. Ties go to the cheaper context.
 */
export function recommend(points: SweepPoint[], metric: MetricName = 'answerInContext'): Recommendation[] {
  const budgets = [...new Set(points.map((p) => p.budgetTokens ?? 0))].sort((a, b) => a - b);
  const better = (a: SweepPoint, b: SweepPoint) => b.metrics[metric] - a.metrics[metric] || a.metrics.meanContextTokens - b.metrics.meanContextTokens;
  return budgets.map((budget) => {
    const at = points.filter((p) => (p.budgetTokens ?? 0) === budget);
    const byStrategy = [...new Set(at.map((p) => p.strategy))]
      .map((s) => [...at.filter((p) => p.strategy === s)].sort(better)[0]!)
      .sort(better);
    const best = byStrategy[0]!;
    const baseline = byStrategy.find((p) => p.strategy === 'naive') ?? null;
    return { budgetTokens: budget, metric, best, baseline, margin: baseline ? best.metrics[metric] - baseline.metrics[metric] : null, byStrategy };
  });
}
