/**
 * Parameter sweeps: which strategy and which parameters retrieve the answer best, at
 * equal context budgets. Candidates are retrieved once per question, retriever and
 * fusion setting; every window size, merge threshold and budget then re-runs only the
 * cheap, pure block building — so a 36-point window grid costs little more than one run.
 * What is swept for each strategy is its sweep axes (strategies/registry).
 */
import type { RetrievalEngine } from '../engine';
import { retrievalParams, type RetrievalParams } from '../retrieve/params';
import { RETRIEVERS, type RetrieverName } from '../retrieve/retrievers';
import { BASELINE, PARAM_GROUPS, STRATEGIES, strategyOf, strategySource, SWEEP_AXES, type StrategyName, type SweepAxisId, type SweepAxisValues } from '../strategies/registry';
import type { SweepAxis } from '../strategies/types';
import type { ContextBlock } from '../types';
import type { EvalSet } from './dataset';
import { planBlocks, planCandidates, type CandidateGroup, type SweepTransform } from '../transform/retrieval';

export type { SweepTransform } from '../transform/retrieval';
import { goldRegions, judged, meanMetrics, metricIntervals, scoreQuestion, type Metrics, type MetricName } from './metrics';
import { strategyParams, type EvalRow } from './run-eval';

export type { MetricName } from './metrics';

/** What to sweep: strategies, retrievers, budgets, each sweep axis's values (`windows`, `thresholds`, …) and the RRF grid. */
export type SweepSpec = {
  strategies: StrategyName[];
  retrievers: RetrieverName[];
  /** Context budgets in tokens; every point is measured at each. */
  budgets: number[];
  /** RRF constants and BM25 weights (the vector weight is 1 − w) for hybrid retrieval. */
  rrfC: number[];
  bm25Weights: number[];
  /** Rerank off and/or on (on needs a reranker in the engine). */
  rerank: boolean[];
  /** Candidates retrieved per question (enough to fill the largest budget). */
  topK: number;
} & SweepAxisValues;

/** Each axis's default grid where `swept` says so, else the value `current` holds. */
export function axisValues(swept: Partial<Record<SweepAxisId, boolean>>, current: RetrievalParams): SweepAxisValues {
  const groups = current as unknown as Record<string, object | undefined>;
  return Object.fromEntries(SWEEP_AXES.map((a) => [a.id, swept[a.id] ? a.grid() : [a.current(groups[a.group.key] ?? a.group.defaults)]])) as SweepAxisValues;
}

/** The grid: windows 0–5 × 0–5, thresholds 0.1–0.9, RRF c × weights, at 256 and 512 tokens. */
export function defaultSweep(partial: Partial<SweepSpec> = {}): SweepSpec {
  return {
    strategies: [...STRATEGIES],
    retrievers: [...RETRIEVERS],
    budgets: [256, 512],
    ...(Object.fromEntries(SWEEP_AXES.map((a) => [a.id, a.grid()])) as SweepAxisValues),
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
  row: Omit<SweepPoint, 'metrics' | 'intervals' | 'perQuestion'>;
  per: Metrics[];
  /** Its place in the returned list. */
  index: number;
}

export interface SweepProgress {
  done: number;
  total: number;
}

/** The strategy-specific parameter points to try: every combination of its axes' values. */
function strategyPoints(s: StrategyName, spec: SweepSpec): Partial<RetrievalParams>[] {
  let points: Partial<RetrievalParams>[] = [{}];
  for (const axis of strategyOf(s).axes as readonly SweepAxis<SweepAxisId>[]) {
    const values = spec[axis.id] as unknown[];
    points = points.flatMap((p) => values.map((v) => ({ ...p, [axis.group.key]: axis.apply(v) })));
  }
  return points;
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
  options: {
    onProgress?: (p: SweepProgress) => void;
    signal?: AbortSignal;
    /**
     * Called with what each point handed over for each question (the index of the point in the
     * returned list; the question's index in set.questions, then set.unanswerable): an answer
     * run's contexts. With it, the set's unanswerable questions are retrieved too (not scored).
     */
    onBlocks?: (point: number, question: number, blocks: ContextBlock[]) => void;
    /**
     * A query transformation (transform/): each question's plan for a retriever, retrieved as
     * the plan says; every point reports `params.queryTransform` (and `params.tools`, the tool
     * set's name, when tools are used).
     */
    transform?: SweepTransform;
  } = {},
): Promise<SweepPoint[]> {
  const docIds = engine.corpus.docs.map((d) => d.id);
  const docLevel = set.questions.every((q) => q.targets.every((t) => !t.spans));
  if (spec.retrievers.some((r) => r !== 'bm25')) await engine.embedQueries(set.questions.map((q) => q.question));
  const acc = new Map<string, Accumulator>();
  const asked = options.onBlocks ? [...set.questions, ...(set.unanswerable ?? [])] : set.questions;
  if (asked.length > set.questions.length && spec.retrievers.some((r) => r !== 'bm25')) await engine.embedQueries(asked.slice(set.questions.length).map((q) => q.question));
  const total = asked.length;
  let done = 0;
  for (const [qi, q] of asked.entries()) {
    if (options.signal?.aborted) throw new DOMException('the sweep was cancelled', 'AbortError');
    const scored = qi < set.questions.length;
    const gold = scored ? goldRegions(q, engine.corpus) : [];
    for (const r of spec.retrievers) {
      for (const rp of retrievalPoints(r, spec)) {
        for (const rerank of spec.rerank) {
          const base = retrievalParams({ ...rp, topK: spec.topK, budgetTokens: null, rerank: { enabled: rerank, topN: spec.topK } });
          const plan = options.transform?.plan(q, r) ?? null;
          // Candidates once per unit kind (and plain or contextual text); every strategy point reuses them.
          const byKind = new Map<string, CandidateGroup[]>();
          for (const s of spec.strategies) {
            const src = strategySource(s, base, engine.structure.contextual);
            const key = `${src.kind}|${src.contextual}`;
            let groups = byKind.get(key);
            if (!groups) {
              groups = plan ? await planCandidates(engine, plan, src.kind, base, src.contextual) : [{ query: q.question, ...(await engine.candidates(q.question, src.kind, base, src.contextual)) }];
              byKind.set(key, groups);
            }
            for (const sp of strategyPoints(s, spec)) {
              for (const budget of spec.budgets) {
                const p = retrievalParams({ ...base, ...sp, budgetTokens: budget });
                const blocks = plan ? planBlocks(engine, s, plan, groups, p).blocks : engine.blocks(s, groups[0]!.candidates, p, q.question);
                const key = JSON.stringify([s, r, rp, rerank, sp, budget]);
                let a = acc.get(key);
                if (!a) {
                  const report = { ...strategyParams(s, p, engine), ...(rerank ? { rerank: true } : {}), ...(options.transform ? options.transform.params : {}) };
                  a = { row: { strategy: s, retriever: r, params: report, budgetTokens: budget, rerank }, per: [], index: acc.size };
                  acc.set(key, a);
                }
                if (scored) a.per.push(scoreQuestion(q, judged(blocks, docIds), { byDocument: docLevel, gold }));
                options.onBlocks?.(a.index, qi, blocks);
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
  return [...acc.values()].map((a) => ({ ...a.row, metrics: meanMetrics(a.per), intervals: metricIntervals(a.per), perQuestion: a.per }));
}

/** The retrieval parameters of a sweep point (the inverse of strategyParams), to replay it. */
export function pointParams(p: Pick<SweepPoint, 'strategy' | 'retriever' | 'params'>): Partial<RetrievalParams> {
  const q = p.params as { topK?: number; rrfC?: number; weights?: { bm25: number; vector: number } };
  const groups: Record<string, object> = {};
  for (const g of PARAM_GROUPS) {
    const v = g.fromReport?.(p.params);
    if (v) groups[g.key] = v;
  }
  return {
    retriever: p.retriever,
    ...(q.topK !== undefined ? { topK: q.topK } : {}),
    ...(groups as Partial<RetrievalParams>),
    ...(q.rrfC !== undefined && q.weights ? { rrf: { c: q.rrfC, weights: q.weights } } : {}),
  };
}

/** The best point per (strategy, budget) by a metric, and its margin over the baseline's best point. */
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
 * far it is above the baseline's (naive chunks') best point. Ties go to the cheaper context.
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
    const baseline = byStrategy.find((p) => p.strategy === BASELINE) ?? null;
    return { budgetTokens: budget, metric, best, baseline, margin: baseline ? best.metrics[metric] - baseline.metrics[metric] : null, byStrategy };
  });
}
