/** The lab protocol's evaluation (joined into LabApi in protocol.ts): an imported set, a sweep, a question replayed. */
import type { AnswerQuestion } from '../core/answers/answer-prompts';
import type { HandedContexts } from '../core/answers/contexts';
import type { QueryTransform, Rewrite } from '../core/transform/rewrites';
import type { RoutingPrecision } from '../core/transform/routing';
import type { QueryTool } from '../core/transform/tools';
import type { MetricName, Recommendation, SweepPoint } from '../core/eval/sweep';
import type { RetrievalParams, RetrieverName, StrategyName } from '../core/retrieve/params';
import type { QuestionEvalChoice, QuestionRunInfo, QuestionSourceOf } from './question-protocol';
import type { BlockView } from './search-protocol';

/** A labelled set as imported: what it holds and what was skipped (by line). */
export interface EvalSetSummary {
  name: string;
  /** 'questions': the corpus's own question set (question-set.ts), not an imported file. */
  format: 'squad' | 'beir' | 'simple' | 'questions';
  questions: number;
  /** Documents that came with the set (they replaced the corpus); 0 for question-only sets. */
  docs: number;
  skipped: string[];
}

/** What to sweep; dimensions not swept keep the view's current values. */
export interface EvalRunSpec {
  strategies: StrategyName[];
  retrievers: RetrieverName[];
  budgets: number[];
  /** Window before/after 0–5 × 0–5 instead of the current window. */
  windows: boolean;
  /** Merge thresholds 0.1–0.9 instead of the current one. */
  thresholds: boolean;
  /** RRF c × BM25 weight grid instead of the current fusion. */
  rrfGrid: boolean;
  /** Measure with contextual headers off and on (embeds the other variant). */
  headers: boolean;
  /** Measure with plain and late-chunked vectors (embeds the late ones; refused with the model's reason when it cannot). */
  late?: boolean;
  /** Measure with contextual retrieval off and on (the contexts written so far; units without one stay plain). */
  contextual?: boolean;
  /** Measure with reranking off and on (needs a reranker). */
  rerank: boolean;
  /** The view's retrieval parameters, for every dimension not swept. */
  current: RetrievalParams;
  metric: MetricName;
  /** Run on the corpus's question set (all, marked or generated questions) instead of the imported set. */
  questions?: QuestionEvalChoice;
  /** Keep what every point handed over for every question (unanswerable ones too), for an answer run. */
  answers?: boolean;
  /**
   * Query transformations measured beside the question as asked, with the rewrites the page's
   * generator wrote (keyed by rewriteKey, the tool set PAGE_TOOL_SET) and the tools they chose from.
   */
  transform?: { transforms: QueryTransform[]; tools: QueryTool[]; rewrites: Record<string, Rewrite> };
}

export interface EvalPointView extends SweepPoint {
  headers: boolean;
  /** Measured with late-chunked vectors. */
  late?: boolean;
  /** Measured with contextual retrieval on (every column by the contextualised text). */
  contextual?: boolean;
}

export interface EvalRunResult {
  set: EvalSetSummary;
  points: EvalPointView[];
  recommendations: (Recommendation & { headers?: boolean })[];
  /** `source`: where each question came from (runs on the question set). */
  questions: { id: string; question: string; answers: string[]; source?: QuestionSourceOf }[];
  ms: number;
  /** Runs on the question set: where its questions came from, and what was left out. */
  questionSet?: QuestionRunInfo;
  /**
   * With `answers`: the questions as an answer run asks them (the answerable ones in `questions`'
   * order, then the unanswerable), and what each point (its index in `points`) handed over.
   */
  answering?: { questions: AnswerQuestion[]; contexts: HandedContexts };
  /** Routing precision of the run's sub-questions and router (the Generator panel's tools). */
  routing?: (RoutingPrecision & { transform: 'subquestions' | 'router'; toolSet: string; strategy: StrategyName; budgetTokens: number | null })[];
}

/** One point, replayed for one question (the drill-down). */
export interface EvalPointQuery {
  strategy: StrategyName;
  retriever: RetrieverName;
  budgetTokens: number;
  params: Partial<RetrievalParams>;
  headers: boolean;
  /** Absent: as the engine is. */
  late?: boolean;
  contextual?: boolean;
  rerank: boolean;
}

export interface EvalQuestionResult {
  question: { id: string; question: string; answers: string[] };
  points: { point: EvalPointQuery; found: boolean; firstRank: number | null; blocks: BlockView[]; totalTokens: number }[];
}

/** Evaluation progress: embedding a header variant, or questions done in a sweep pass. */
export interface EvalProgressMessage {
  kind: 'eval';
  phase: 'embed' | 'sweep';
  done: number;
  total: number;
  /** Which pass (e.g. "headers on"), when there are several. */
  pass?: string;
}
