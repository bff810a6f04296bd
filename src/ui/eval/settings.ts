/**
 * The lab's own choices (run settings, question filter and page), kept in a small store so
 * they survive switching tabs (the lab unmounts while the explore view is shown).
 */
import { create } from 'zustand';
import type { MetricName } from '../../core/eval/sweep';
import { STRATEGIES, type RetrieverName, type StrategyName } from '../../core/retrieve/params';

export interface EvalSettings {
  strategies: StrategyName[];
  retrievers: RetrieverName[];
  budgetsText: string;
  windows: boolean;
  thresholds: boolean;
  rrfGrid: boolean;
  headers: boolean;
  rerank: boolean;
  metric: MetricName;
  filter: string;
  page: number;
}

export const DEFAULT_EVAL_SETTINGS: EvalSettings = {
  strategies: [...STRATEGIES],
  retrievers: ['bm25', 'vector', 'hybrid'],
  budgetsText: '256, 512',
  windows: true,
  thresholds: true,
  rrfGrid: false,
  headers: false,
  rerank: false,
  metric: 'answerInContext',
  filter: '',
  page: 0,
};

export const useEvalSettings = create<EvalSettings>(() => ({ ...DEFAULT_EVAL_SETTINGS }));

/** Adds or removes one item of a list setting, keeping the list's order stable. */
export function toggle<T>(list: readonly T[], item: T, on: boolean): T[] {
  return on ? (list.includes(item) ? [...list] : [...list, item]) : list.filter((x) => x !== item);
}
