/** The lab protocol's search (joined into LabApi in protocol.ts): the columns asked for and the blocks they hand over. */
import type { StrategyResult } from '../core/engine';
import type { RetrievalParams, RetrieverName, StrategyName } from '../core/retrieve/params';
import type { ContextBlock } from '../core/types';
import type { TransformedQuery } from '../core/transform/retrieval';
import type { QueryTransform, Rewrite } from '../core/transform/rewrites';
import type { QueryTool } from '../core/transform/tools';

/** A column: one per strategy (its name), and the hybrid, reranked and query-transformation ('fusion') comparisons. */
export type ColumnId = StrategyName | 'fusion' | 'hybrid' | 'reranked';

export interface ColumnSpec {
  id: ColumnId;
  label: string;
  strategy: StrategyName;
  retriever: RetrieverName;
  rerank: boolean;
  /** The query-transformation column: retrieve as the search request's rewrite says (multi-query, sub-questions, HyDE, router). */
  fusion?: boolean;
}

/** A block with what the page needs to show it without asking again. */
export interface BlockView extends ContextBlock {
  docId: string;
  docTitle: string;
  sectionPath: string[];
  pageStart?: number;
  pageEnd?: number;
  /** Pages are slides (.pptx, .odp): the block cites "slide 7". */
  pageUnit?: 'slide';
  /** The block's text was read by OCR: the lowest confidence (0–100) of its OCR'd paragraphs. */
  ocrConfidence?: number;
  /** Character spans of the retrieved sentences, relative to block.text. */
  hitSpans: [number, number][];
  /** Mean similarity of the block's sentences to the query and to each other (needs sentence vectors). */
  coherence?: { toQuery: number; internal: number | null };
  /** The chunk-tree node around the block (character span in the document), when there is one. */
  parent?: { start: number; end: number; level: number; tokens: number };
  /** A query-transformation column: indices into the column's `queries` whose retrieval found this block. */
  foundBy?: number[];
}

/** What the lab says about a column besides the engine's notes; the page words it. */
export type ColumnNotice =
  /** A query-transformation column without a rewrite: it needs a generator to write one. */
  | { code: 'fusion-needs-generator' }
  /** The variants only repeated the question: the question was searched alone. */
  | { code: 'fusion-repeats-question' };

/** What the page's generator wrote for the question, for the query-transformation column. */
export interface SearchRewrite {
  transform: QueryTransform;
  rewrite: Rewrite;
  /** The tools sub-questions and the router chose from. */
  tools: QueryTool[];
}

export interface ColumnResult {
  column: ColumnSpec;
  /**
   * `queries`: a query-transformation column's queries (the question, variants, sub-questions with
   * their tools, the hypothetical passage), `rule` how they were combined. `notices`: see
   * ColumnNotice (worded into `notes` by the page).
   */
  result: Omit<StrategyResult, 'blocks'> & { blocks: BlockView[]; queries?: TransformedQuery[]; rule?: string; notices?: ColumnNotice[] };
  /** The worker's number for this answer: the page names it in a later request's `held` (sent-answers.ts). */
  answer?: number;
}

export interface SearchRequest {
  query: string;
  params: RetrievalParams;
  columns: ColumnSpec[];
  /** What the LLM wrote for the question, for the query-transformation column. */
  rewrite?: SearchRewrite;
  /**
   * Columns the page shows now (in sight in its strip): searched first and sent at once as a
   * progress message, so they are painted while the others are searched. The result then holds
   * only the others.
   */
  first?: ColumnId[];
  /**
   * The answer (its `answer` number) the page shows in each column: a column that answers exactly
   * the same again is named in `same` and not sent (a slider step changes only some columns).
   */
  held?: Partial<Record<ColumnId, number>>;
}

/**
 * The columns a search request named `first`, answered before the others; `same`: those among
 * them whose answer is the one the page holds (`held`), not sent again.
 */
export interface SearchFirst {
  columns: ColumnResult[];
  same?: ColumnId[];
}
