/**
 * One search request: every column's strategy and retriever over the same engine, each
 * block with its view; the query-transformation column retrieves as the LLM's rewrite says.
 */
import type { RetrievalEngine } from '../core/engine';
import { retrievalParams, type RetrievalParams } from '../core/retrieve/params';
import { searchWithPlan, transformPlan } from '../core/transform/retrieval';
import { blockView } from './block-view';
import type { ColumnId, ColumnResult, ColumnSpec, LabApi, SearchFirst, SearchRequest, SearchRewrite } from './protocol';
import type { SentAnswers } from './sent-answers';

/**
 * `sendFirst`: the columns the request names `first` (those the page shows now), searched before
 * the others and handed over at once; the result then holds only the others. A request whose
 * `first` names every column or none is answered in one piece.
 * `sent`: the answers last sent; a column that answers exactly as the one the page holds
 * (`req.held`) is named in `same` instead of being sent again.
 */
export async function searchColumns(engine: RetrievalEngine, req: SearchRequest, sendFirst?: (first: SearchFirst) => void, sent?: SentAnswers): Promise<LabApi['search']['result']> {
  const t0 = performance.now();
  // The page's parameters are checked and clamped here too: the worker trusts no message.
  const base = retrievalParams(req.params);
  const one = async (column: ColumnSpec): Promise<ColumnResult> => {
    const p = { ...base, retriever: column.retriever, rerank: { ...base.rerank, enabled: column.rerank } };
    if (column.fusion) return transformColumn(engine, column, req.query, req.rewrite, p);
    const [r] = await engine.search(req.query, [column.strategy], p);
    return { column, result: { ...r!, blocks: r!.blocks.map((b) => blockView(engine, b, req.query)) } };
  };
  const part = async (specs: ColumnSpec[]): Promise<SearchFirst> => {
    const columns: ColumnResult[] = [];
    const same: ColumnId[] = [];
    for (const c of specs) {
      const fresh = await one(c);
      const stood = sent ? sent.stand(fresh, req.held?.[c.id]) : { same: false as const, sent: fresh };
      if (stood.same) same.push(c.id);
      else columns.push(stood.sent);
    }
    return same.length ? { columns, same } : { columns };
  };
  const named = new Set(req.first ?? []);
  const first = req.columns.filter((c) => named.has(c.id));
  const rest = first.length && first.length < req.columns.length && sendFirst ? req.columns.filter((c) => !named.has(c.id)) : req.columns;
  if (rest !== req.columns) sendFirst!(await part(first));
  return { ...(await part(rest)), ms: performance.now() - t0 };
}

/**
 * The query-transformation column: the question retrieved as the page's rewrite says —
 * multi-query and HyDE fused by RRF, sub-questions each by their tool and interleaved, the router's
 * one tool (transform/retrieval.ts). Without a rewrite the column says what it needs instead of
 * silently repeating the plain column.
 */
async function transformColumn(engine: RetrievalEngine, column: ColumnSpec, query: string, rewrite: SearchRewrite | undefined, p: RetrievalParams): Promise<ColumnResult> {
  if (!rewrite || rewrite.transform === 'none') {
    return {
      column,
      result: { strategy: column.strategy, retriever: column.retriever, blocks: [], totalTokens: 0, candidates: 0, notes: [], notices: [{ code: 'fusion-needs-generator' }] },
    };
  }
  const plan = transformPlan(query, rewrite.rewrite, column.retriever, rewrite.tools);
  const [r] = await searchWithPlan(engine, plan, [column.strategy], p, engine.structure.contextual);
  const repeats = rewrite.rewrite.kind === 'multiquery' && plan.queries.length < 2;
  return {
    column,
    result: {
      strategy: r!.strategy,
      retriever: r!.retriever,
      totalTokens: r!.totalTokens,
      candidates: r!.candidates,
      notes: r!.notes,
      ...(repeats ? { notices: [{ code: 'fusion-repeats-question' as const }] } : {}),
      queries: plan.queries,
      rule: plan.rule,
      // Coherence is measured against the question, not a rewrite.
      blocks: r!.blocks.map((b, i) => ({ ...blockView(engine, b, query), foundBy: r!.foundBy[i]! })),
    },
  };
}
