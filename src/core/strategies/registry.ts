/**
 * Every strategy, in the order columns, tables and charts show them. Adding a strategy is
 * one module in this folder and one line here; the engine, the CLI, the sweeps, the URL,
 * the columns and the evaluation lab read this list.
 */
import { adaptive } from './adaptive';
import { automerge } from './automerge';
import { automergeFill } from './automerge-fill';
import { contextual } from './contextual';
import { naive } from './naive';
import { packed } from './packed';
import { rse } from './rse';
import { semantic } from './semantic';
import { sentence } from './sentence';
import type { CommonRetrievalParams, UnitKind } from '../retrieve/param-types';
import type { AxisValue, GroupValues, ParamGroup, Strategy, StrategyParams, SweepAxis } from './types';
import { sentenceWindows } from './window';

export const STRATEGY_LIST = [naive, sentence, sentenceWindows, automerge, adaptive, rse, automergeFill, packed, semantic, contextual] as const;

type Listed = (typeof STRATEGY_LIST)[number];
export type StrategyName = Listed['name'];
export const STRATEGIES: readonly StrategyName[] = STRATEGY_LIST.map((s) => s.name);

/** The value of every strategy's parameter groups, keyed as in RetrievalParams (`window`, `merge`, …). */
export type StrategyParamValues = GroupValues<Listed['groups']>;

type Axes = Listed['axes'][number];
export type SweepAxisId = Axes['id'];
/** The values of every sweep axis, keyed by its id (`windows`, `thresholds`, …), as in SweepSpec. */
export type SweepAxisValues = { [A in Axes as A['id']]: AxisValue<A>[] };

const byName = new Map<string, Strategy>(STRATEGY_LIST.map((s) => [s.name, s]));

export function isStrategy(name: unknown): name is StrategyName {
  return typeof name === 'string' && byName.has(name);
}

/** The strategy of a name (its label, unit, parameters and block maker). */
export function strategyOf(name: StrategyName): Strategy {
  const s = byName.get(name);
  if (!s) throw new RangeError(`unknown strategy ${name}`);
  return s;
}

/**
 * What a strategy retrieves with these parameters: its unit kind, and whether by contextualised
 * text — its own say (Contextual chunks always are), else the structure's switch `contextual`.
 */
export function strategySource(name: StrategyName, p: CommonRetrievalParams & StrategyParamValues, contextual: boolean): { kind: UnitKind; contextual: boolean } {
  const s = strategyOf(name);
  return s.retrieves?.(p as StrategyParams<readonly ParamGroup[]>) ?? { kind: s.unit, contextual };
}

/** The strategy every other is measured against. */
export const BASELINE: StrategyName = STRATEGY_LIST.find((s) => 'baseline' in s && s.baseline)!.name;

/** The strategy the hybrid, reranked and query-fusion columns run, and what their titles call its blocks. */
export const COMPARISON_STRATEGY = { name: sentenceWindows.name, plural: 'windows' } as const;

/** "Naive chunks (baseline)": the label with its note, as tables title it. */
export function strategyTitle(name: StrategyName): string {
  const s = strategyOf(name);
  return s.note ? `${s.label} ${s.note}` : s.label;
}

/** "sentence windows": the label as it reads inside a sentence. */
export function strategyWords(name: StrategyName): string {
  const label = strategyOf(name).label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/** Every parameter group, each once, in the order strategies first read them. */
export const PARAM_GROUPS: readonly ParamGroup[] = unique(STRATEGY_LIST.flatMap((s): readonly ParamGroup[] => s.groups));

/** Every sweep axis, each once. */
export const SWEEP_AXES: readonly SweepAxis<SweepAxisId>[] = unique(STRATEGY_LIST.flatMap((s): readonly SweepAxis[] => s.axes)) as SweepAxis<SweepAxisId>[];
