import type { RetrievalEngine } from '../engine';
import { retrievalParams, type RetrievalParams, type UnitKind } from '../retrieve/params';
import type { RetrieverName } from '../retrieve/retrievers';
import { strategyOf, strategySource, type StrategyName } from '../strategies/registry';
import { DEFAULT_LEXICAL } from '../index/lexical-index';
import type { ContextBlock } from '../types';
import type { EvalQuestion, EvalSet } from './dataset';
import { planBlocks, planCandidates, type CandidateGroup, type SweepTransform } from '../transform/retrieval';
import { goldRegions, judged, meanMetrics, metricIntervals, scoreQuestion, type MetricIntervals, type Metrics } from './metrics';

export interface EvalRow {
  strategy: StrategyName;
  retriever: RetrieverName;
  params: Record<string, unknown>;
  budgetTokens: number | null;
  metrics: Metrics;
  /** 95 % bootstrap interval of each metric's mean (seeded); absent in runs saved before intervals. */
  intervals?: MetricIntervals;
  /** Every question's metrics, in the set's question order (for paired differences). */
  perQuestion?: Metrics[];
}

export interface EvalProgress {
  done: number;
  total: number;
}

/** The parameters that matter for a strategy, for reporting: the retrieval's, the strategy's own (its report), headers. */
export function strategyParams(s: StrategyName, p: RetrievalParams, engine: RetrievalEngine): Record<string, unknown> {
  const base: Record<string, unknown> = { retriever: p.retriever, topK: p.topK };
  if (p.retriever === 'hybrid') Object.assign(base, { rrfC: p.rrf.c, weights: p.rrf.weights });
  Object.assign(base, strategyOf(s).report?.(p, engine.structure));
  if (engine.structure.headers.enabled) base.headers = true;
  if (engine.structure.vectors === 'late') base.late = true;
  if (engine.structure.contextual) base.contextual = true;
  // Which analyzer and BM25 variant produced the BM25 list (structure, but it changes the scores).
  if (p.retriever !== 'vector') base.lexical = { ...(engine.structure.lexical ?? DEFAULT_LEXICAL) };
  return base;
}

/**
 * Runs every question through the strategies with one retriever and budget and returns
 * the mean metrics per strategy. The engine must already hold the set's documents (and
 * vectors, for vector and hybrid retrieval). Document-level sets (no answer spans) are
 * judged on documents, deduplicated in block order.
 */
export async function evaluate(
  engine: RetrievalEngine,
  set: EvalSet,
  strategies: readonly StrategyName[],
  params: Partial<RetrievalParams>,
  onProgress?: (p: EvalProgress) => void,
  /** What each strategy (its index in `strategies`) handed over for each question (set.questions, then set.unanswerable, which are then retrieved too): an answer run's contexts. */
  onBlocks?: (row: number, question: number, blocks: ContextBlock[]) => void,
  /** A query transformation (transform/): each question retrieved as its plan says; rows report it in params. */
  transform?: SweepTransform,
): Promise<EvalRow[]> {
  const p = retrievalParams(params);
  const docIds = engine.corpus.docs.map((d) => d.id);
  const docLevel = set.questions.every((q) => q.targets.every((t) => !t.spans));
  const asked = onBlocks ? [...set.questions, ...(set.unanswerable ?? [])] : set.questions;
  if (p.retriever !== 'bm25') await engine.embedQueries(asked.map((q) => q.question));
  const per = new Map<StrategyName, Metrics[]>(strategies.map((s) => [s, []]));
  let done = 0;
  for (const [qi, q] of asked.entries()) {
    const results = transform ? await searchTransformed(engine, q, strategies, p, transform) : await engine.search(q.question, strategies, p);
    const scored = qi < set.questions.length;
    const gold = scored ? goldRegions(q, engine.corpus) : [];
    for (const r of results) {
      if (scored) per.get(r.strategy)!.push(scoreQuestion(q, judged(r.blocks, docIds), { byDocument: docLevel, gold }));
      onBlocks?.(strategies.indexOf(r.strategy), qi, r.blocks);
    }
    onProgress?.({ done: ++done, total: asked.length });
  }
  return strategies.map((s) => ({
    strategy: s,
    retriever: p.retriever,
    params: { ...strategyParams(s, p, engine), ...(transform?.params ?? {}) },
    budgetTokens: p.budgetTokens,
    metrics: meanMetrics(per.get(s)!),
    intervals: metricIntervals(per.get(s)!),
    perQuestion: per.get(s)!,
  }));
}

/** Each strategy's blocks for a question retrieved as the transformation plans it (candidates once per unit kind). */
async function searchTransformed(engine: RetrievalEngine, q: EvalQuestion, strategies: readonly StrategyName[], p: RetrievalParams, transform: SweepTransform): Promise<{ strategy: StrategyName; blocks: ContextBlock[] }[]> {
  const plan = transform.plan(q, p.retriever);
  const byKind = new Map<string, CandidateGroup[]>();
  const out: { strategy: StrategyName; blocks: ContextBlock[] }[] = [];
  for (const s of strategies) {
    const src = strategySource(s, p, engine.structure.contextual);
    const key = `${src.kind}|${src.contextual}`;
    let groups = byKind.get(key);
    if (!groups) byKind.set(key, (groups = await planCandidates(engine, plan, src.kind, p, src.contextual)));
    out.push({ strategy: s, blocks: planBlocks(engine, s, plan, groups, p).blocks });
  }
  return out;
}

/** Unit kinds the strategies need vectors for (with `params`, the kind Contextual chunks are set to). */
export function unitKinds(strategies: readonly StrategyName[], params: Partial<RetrievalParams> = {}): UnitKind[] {
  const p = retrievalParams(params);
  return [...new Set(strategies.map((s) => strategySource(s, p, false).kind))];
}
