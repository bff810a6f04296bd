import type { RetrievalEngine } from '../engine';
import { STRATEGY_UNIT, retrievalParams, type RetrievalParams, type RetrieverName, type StrategyName } from '../retrieve/params';
import type { EvalSet } from './dataset';
import { judged, meanMetrics, scoreQuestion, type Metrics } from './metrics';

export interface EvalRow {
  strategy: StrategyName;
  retriever: RetrieverName;
  params: Record<string, unknown>;
  budgetTokens: number | null;
  metrics: Metrics;
}

export interface EvalProgress {
  done: number;
  total: number;
}

/** The parameters that matter for a strategy, for reporting. */
export function strategyParams(s: StrategyName, p: RetrievalParams, engine: RetrievalEngine): Record<string, unknown> {
  const base: Record<string, unknown> = { retriever: p.retriever, topK: p.topK };
  if (p.retriever === 'hybrid') Object.assign(base, { rrfC: p.rrf.c, weights: p.rrf.weights });
  if (s === 'window') Object.assign(base, { before: p.window.before, after: p.window.after, bySection: p.window.bySection });
  if (s === 'automerge') Object.assign(base, { threshold: p.merge.threshold, levels: engine.structure.chunkLevels });
  if (s === 'naive') Object.assign(base, { chunkTokens: engine.structure.naive.size, overlap: engine.structure.naive.overlap });
  if (engine.structure.headers.enabled) base.headers = true;
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
): Promise<EvalRow[]> {
  const p = retrievalParams(params);
  const docIds = engine.corpus.docs.map((d) => d.id);
  const docLevel = set.questions.every((q) => q.targets.every((t) => !t.spans));
  if (p.retriever !== 'bm25') await engine.embedQueries(set.questions.map((q) => q.question));
  const per = new Map<StrategyName, Metrics[]>(strategies.map((s) => [s, []]));
  let done = 0;
  for (const q of set.questions) {
    const results = await engine.search(q.question, strategies, p);
    for (const r of results) {
      const blocks = judged(r.blocks, docIds);
      per.get(r.strategy)!.push(scoreQuestion(q, blocks, { byDocument: docLevel }));
    }
    onProgress?.({ done: ++done, total: set.questions.length });
  }
  return strategies.map((s) => ({
    strategy: s,
    retriever: p.retriever,
    params: strategyParams(s, p, engine),
    budgetTokens: p.budgetTokens,
    metrics: meanMetrics(per.get(s)!),
  }));
}

/** Unit kinds the strategies need vectors for. */
export function unitKinds(strategies: readonly StrategyName[]) {
  return [...new Set(strategies.map((s) => STRATEGY_UNIT[s]))];
}
