/**
 * The lab's own choices (run settings, question filter and page), kept in a small store so
 * they survive switching tabs (the lab unmounts while the explore view is shown).
 */
import { create } from 'zustand';
import type { MetricName } from '../../core/eval/sweep';
import { RETRIEVERS, type RetrieverName } from '../../core/retrieve/retrievers';
import { STRATEGIES, SWEEP_AXES, type StrategyName, type SweepAxisId } from '../../core/strategies/registry';
import type { QueryTransform } from '../../core/transform/rewrites';
import type { QuestionSubset } from '../../worker/question-protocol';

/** What the run settings hold; each strategy sweep axis (`windows`, `thresholds`, …) is a check box. */
export type EvalSettings = {
  strategies: StrategyName[];
  retrievers: RetrieverName[];
  budgetsText: string;
  rrfGrid: boolean;
  headers: boolean;
  /** Late chunking off and on: plain, then late-chunked vectors (where the model can make them). */
  late: boolean;
  /** Contextual retrieval off and on (the contexts written so far). */
  contextual: boolean;
  rerank: boolean;
  /** Keep every point's context for an answer run (judge by what the generator answers). */
  answers: boolean;
  /** Query transformations measured beside the question as asked (rewrites written by the Generator panel's generator). */
  transforms: QueryTransform[];
  metric: MetricName;
  filter: string;
  page: number;
  /** Which questions a run measures: the imported set, or the corpus's question set (auto: the imported set when there is one). */
  questionsFrom: 'auto' | 'imported' | 'set';
  /** Of the question set: all, marked or generated questions. */
  subset: QuestionSubset;
} & Record<SweepAxisId, boolean>;

export const DEFAULT_EVAL_SETTINGS: EvalSettings = {
  strategies: [...STRATEGIES],
  retrievers: [...RETRIEVERS],
  budgetsText: '256, 512',
  ...(Object.fromEntries(SWEEP_AXES.map((a) => [a.id, true])) as Record<SweepAxisId, boolean>),
  rrfGrid: false,
  headers: false,
  late: false,
  contextual: false,
  rerank: false,
  answers: false,
  transforms: [],
  metric: 'answerInContext',
  filter: '',
  page: 0,
  questionsFrom: 'auto',
  subset: 'all',
};

export const useEvalSettings = create<EvalSettings>(() => ({ ...DEFAULT_EVAL_SETTINGS }));

/** Adds or removes one item of a list setting, keeping the list's order stable. */
export function toggle<T>(list: readonly T[], item: T, on: boolean): T[] {
  return on ? (list.includes(item) ? [...list] : [...list, item]) : list.filter((x) => x !== item);
}
