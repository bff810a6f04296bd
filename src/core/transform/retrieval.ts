/**
 * Retrieving with a transformed query: the queries a rewrite gives (transformPlan), their
 * candidates per unit kind (planCandidates), and a strategy's blocks from them (planBlocks):
 *   none, router   one query — the question — with the column's retriever, or the routed tool's
 *                  (its retriever, limited to its document if it has one)
 *   multiquery     the question and the variants, each retrieved, fused by RRF (query-fusion.ts)
 *   hyde           the question and the hypothetical passage (embedded, and its words searched by
 *                  BM25), fused by RRF: LlamaIndex's HyDE keeps the original query beside it
 *   subquestions   each sub-question retrieved by its tool with the column's strategy, the blocks
 *                  shared out by interleaving (interleaveBlocks)
 * Every block says which queries found it.
 */
import type { RetrievalEngine, StrategyResult } from '../engine';
import type { Candidate } from '../retrieve/candidates';
import type { RetrievalParams, UnitKind } from '../retrieve/params';
import type { FusedCandidate } from '../retrieve/query-fusion';
import { uniqueQueries } from '../retrieve/query-fusion';
import type { RetrieverName } from '../retrieve/retrievers';
import { strategySource, type StrategyName } from '../strategies/registry';
import type { ContextBlock } from '../types';
import { TRANSFORM_WORDS, type QueryTransform, type Rewrite } from './rewrites';
import type { QueryTool } from './tools';

export interface TransformedQuery {
  text: string;
  role: 'question' | 'variant' | 'sub' | 'hyde';
  retriever: RetrieverName;
  /** The tool it was sent to (sub-questions, router). */
  tool?: string;
  /** The document the tool is limited to. */
  document?: string;
}

export interface TransformPlan {
  transform: QueryTransform;
  queries: TransformedQuery[];
  combine: 'single' | 'fuse' | 'interleave';
  /** Why the plain question is used (a fallback), or what the router said. */
  notes: string[];
  /** The rule the column states. */
  rule: string;
}

/** The rule each combination follows, as a column says it. */
export const COMBINE_RULES: Record<TransformPlan['combine'], string> = {
  single: 'one query',
  fuse: 'each query retrieved, the rankings fused by reciprocal rank fusion (k 60)',
  interleave: "each sub-question retrieved by its tool with this strategy; the budget is shared by interleaving: every sub-question's best block before any second-best, overlapping blocks once",
};

/** The queries a rewrite retrieves with. `retriever`: the column's. */
export function transformPlan(question: string, rewrite: Rewrite, retriever: RetrieverName, tools: readonly QueryTool[]): TransformPlan {
  const q: TransformedQuery = { text: question, role: 'question', retriever };
  const plan = (transform: QueryTransform, queries: TransformedQuery[], combine: TransformPlan['combine'], notes: string[] = []): TransformPlan => ({ transform, queries, combine, notes, rule: `${TRANSFORM_WORDS[transform]}: ${COMBINE_RULES[combine]}` });
  const toolOf = (name: string) => tools.find((t) => t.name === name)!;
  switch (rewrite.kind) {
    case 'none':
      return plan('none', [q], 'single');
    case 'fallback':
      return plan(rewrite.transform, [q], 'single', [`${rewrite.note}: the question is retrieved as asked`]);
    case 'multiquery':
      return plan('multiquery', uniqueQueries([question, ...rewrite.variants]).map((text, i) => ({ text, role: i === 0 ? 'question' : 'variant', retriever })), 'fuse');
    case 'hyde':
      return plan('hyde', [q, { text: rewrite.passage, role: 'hyde', retriever }], 'fuse');
    case 'router': {
      const t = toolOf(rewrite.tool);
      return plan('router', [{ ...q, retriever: t.retriever, tool: t.name, ...(t.document ? { document: t.document } : {}) }], 'single', [`routed to ${t.name}${rewrite.reason ? `: ${rewrite.reason}` : ''}`]);
    }
    case 'subquestions':
      return plan(
        'subquestions',
        rewrite.subquestions.map((s) => {
          const t = toolOf(s.tool);
          return { text: s.question, role: 'sub', retriever: t.retriever, tool: t.name, ...(t.document ? { document: t.document } : {}) };
        }),
        'interleave',
      );
  }
}

/** A query transformation as an evaluation runs it: each question's plan, and what its points report. */
export interface SweepTransform {
  plan(q: { id: string; question: string }, retriever: RetrieverName): TransformPlan;
  /** Added to every point's params: { queryTransform, tools? }. */
  params: Record<string, unknown>;
}

/** What retrieval with a plan needs of the engine. */
export type TransformEngine = Pick<RetrievalEngine, 'candidates' | 'fusedCandidates' | 'blocks' | 'foundBy' | 'embedQueries'>;

export interface CandidateGroup {
  /** The query the strategy's blocks are built for (the question, for fused lists). */
  query: string;
  candidates: Candidate[];
  notes: string[];
}

function withQuery(p: RetrievalParams, q: TransformedQuery): RetrievalParams {
  return { ...p, retriever: q.retriever, ...(q.document ? { filters: { ...p.filters, docs: [q.document] } } : {}) };
}

/** The plan's candidates of one unit kind: one group, or one per sub-question. */
export async function planCandidates(engine: TransformEngine, plan: TransformPlan, kind: UnitKind, p: RetrievalParams, contextual?: boolean): Promise<CandidateGroup[]> {
  const texts = plan.queries.filter((q) => q.retriever !== 'bm25').map((q) => q.text);
  if (texts.length) await engine.embedQueries(texts);
  if (plan.combine === 'fuse') {
    const r = await engine.fusedCandidates(plan.queries.map((q) => q.text), kind, p, contextual);
    return [{ query: plan.queries[0]!.text, candidates: r.candidates, notes: r.notes }];
  }
  const out: CandidateGroup[] = [];
  for (const q of plan.queries) {
    const r = await engine.candidates(q.text, kind, withQuery(p, q), contextual);
    out.push({ query: q.text, candidates: r.candidates, notes: r.notes });
  }
  return out;
}

const overlaps = (a: ContextBlock, b: ContextBlock) => a.doc === b.doc && a.start < b.end && b.start < a.end;

/**
 * Shares a budget among ranked lists, one per sub-question: round by round, each list's next
 * block (the first of every list before any second); a block overlapping one already taken is
 * not taken again (the list that reached it is said to have found it too); a block that does not
 * fit what is left of the budget is skipped, and a later, smaller one may still fit.
 */
export function interleaveBlocks(lists: readonly (readonly ContextBlock[])[], budget: number | null): { blocks: ContextBlock[]; foundBy: number[][] } {
  const blocks: ContextBlock[] = [];
  const foundBy: number[][] = [];
  let used = 0;
  const depth = Math.max(0, ...lists.map((l) => l.length));
  for (let r = 0; r < depth; r++) {
    lists.forEach((list, i) => {
      const b = list[r];
      if (!b) return;
      const taken = blocks.findIndex((x) => overlaps(x, b));
      if (taken >= 0) {
        if (!foundBy[taken]!.includes(i)) foundBy[taken]!.push(i);
        return;
      }
      if (budget !== null && used + b.tokens > budget) return;
      used += b.tokens;
      blocks.push(b);
      foundBy.push([i]);
    });
  }
  return { blocks, foundBy };
}

/** A strategy's blocks from the plan's candidates, and per block the indices of the queries that found it. */
export function planBlocks(engine: TransformEngine, strategy: StrategyName, plan: TransformPlan, groups: readonly CandidateGroup[], p: RetrievalParams): { blocks: ContextBlock[]; foundBy: number[][] } {
  if (plan.combine === 'interleave') {
    const lists = groups.map((g) => engine.blocks(strategy, g.candidates, { ...p, budgetTokens: null }, g.query));
    return interleaveBlocks(lists, p.budgetTokens);
  }
  const g = groups[0]!;
  const blocks = engine.blocks(strategy, g.candidates, p, plan.queries[0]!.text);
  if (plan.combine === 'fuse') return { blocks, foundBy: blocks.map((b) => engine.foundBy(strategy, b, g.candidates as FusedCandidate[])) };
  return { blocks, foundBy: blocks.map(() => [0]) };
}

/** A strategy's result with a transformed query: per block, the queries (indices into plan.queries) that found it. */
export interface TransformedResult extends StrategyResult {
  foundBy: number[][];
}

/** Runs strategies with a plan: candidates once per unit kind, then each strategy's blocks. */
export async function searchWithPlan(engine: TransformEngine, plan: TransformPlan, strategies: readonly StrategyName[], p: RetrievalParams, contextual: boolean): Promise<TransformedResult[]> {
  const byKind = new Map<string, CandidateGroup[]>();
  const out: TransformedResult[] = [];
  for (const s of strategies) {
    const src = strategySource(s, p, contextual);
    const key = `${src.kind}|${src.contextual}`;
    let groups = byKind.get(key);
    if (!groups) byKind.set(key, (groups = await planCandidates(engine, plan, src.kind, p, src.contextual)));
    const { blocks, foundBy } = planBlocks(engine, s, plan, groups, p);
    const notes = [...new Set([...plan.notes, ...groups.flatMap((g) => g.notes)])];
    out.push({ strategy: s, retriever: p.retriever, blocks, totalTokens: blocks.reduce((n, b) => n + b.tokens, 0), candidates: groups.reduce((n, g) => n + g.candidates.length, 0), notes, foundBy });
  }
  return out;
}
