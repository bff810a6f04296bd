/**
 * What a strategy is: one module that says which unit it retrieves, which retrieval
 * parameters it reads (defaults, valid ranges, labels, URL keys, sliders, CLI options),
 * which of them an evaluation sweeps, how its points are put into words, and how it turns
 * retrieved candidates into context blocks. The engine hands it a StrategyContext; the
 * registry lists every strategy, and everything else (CLI, sweeps, URL, columns, the eval
 * lab) reads the registry.
 */
import type { BlockCost, Candidate } from '../retrieve/candidates';
import type { CommonRetrievalParams, StructureParams, UnitKind } from '../retrieve/param-types';
import type { Corpus } from '../structure/corpus';
import type { ChunkHierarchy, ChunkNode, ContextBlock, NaiveChunk, Provenance } from '../types';

/** A slider for a numeric parameter in the parameters panel. */
export interface Slider {
  min: number;
  max: number;
  step?: number;
  /** How the value is shown next to the slider. */
  format?: (n: number) => string;
}

interface FieldBase<V> {
  key: keyof V & string;
  /** Shown next to its control. */
  label: string;
  hint?: string;
  /** Short URL query key; absent: not in shared links. */
  url?: string;
}

/** One parameter of a group: a whole number, a real number, a flag or a choice, with its valid range. */
export type ParamField<V = any> = FieldBase<V> &
  (
    | { kind: 'int'; min: number; /** URL values are clamped to [min, urlMax]. */ urlMax?: number; slider?: Slider }
    | { kind: 'real'; min: number; max: number; slider?: Slider }
    | { kind: 'flag'; /** Shown as a check box. */ check?: boolean }
    | { kind: 'choice'; values: readonly string[] }
  );

/** Option values as node's parseArgs returns them. */
export type CliValues = Record<string, string | string[] | boolean | undefined>;

/** Command-line options for a group: declared for parseArgs, documented in --help, read into the group's value. */
export interface CliParams<V> {
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** Lines of the --help text. */
  help: string[];
  /** Throws a RangeError with the message the user sees. */
  read(values: CliValues, defaults: V): V;
}

/**
 * Retrieval parameters one or more strategies read, kept under `key` in RetrievalParams
 * (`p.window`, `p.merge`, …). Changing them re-runs blocks on cached candidates.
 */
export interface ParamGroup<K extends string = string, V extends object = any> {
  key: K;
  defaults: V;
  fields: readonly ParamField<V>[];
  cli?: CliParams<V>;
  /** Back from a sweep point's reported parameters (see Strategy.report) to this group's value, to replay the point. */
  fromReport?(reported: Record<string, unknown>): Partial<V> | null;
}

/** A dimension an evaluation sweeps: its default grid, the value it takes when not swept, and what each value sets. */
export interface SweepAxis<Id extends string = string, T = any, V extends object = any> {
  /** The SweepSpec field holding its values, and the run setting that turns it on. */
  id: Id;
  /** The run settings' check box: "Window sizes 0–5 × 0–5". */
  label: string;
  group: ParamGroup<string, V>;
  grid(): T[];
  current(value: V): T;
  apply(value: T): Partial<V>;
}

/** The value of each group, keyed as in RetrievalParams. */
export type GroupValues<G extends readonly ParamGroup[]> = { [X in G[number] as X['key']]: X['defaults'] };

/** The values a sweep axis takes. */
export type AxisValue<A> = A extends SweepAxis<string, infer T> ? T : never;

/** What a block is made of, for StrategyContext.block. */
export interface BlockSpec {
  /** The strategy's name: block ids are "<name>:<doc>:<start>-<end>". */
  strategy: string;
  unit: Provenance['unit'];
  start: number;
  end: number;
  /** The retrieved candidates inside; the best gives the block its ranks. May be empty (a unit that was not retrieved). */
  hits: Candidate[];
  score: number;
  extra?: Partial<Provenance>;
  /** Retrieved sentences to highlight; default the hits' ids (sentence units). */
  hitSentences?: number[];
}

/**
 * What the engine lends a strategy for one query: the corpus and its units, token costs
 * (headers included), bounds, the sentence vectors, and the one way to make a block.
 */
export interface StrategyContext {
  readonly query: string;
  readonly corpus: Corpus;
  readonly hierarchy: ChunkHierarchy;
  readonly chunks: readonly NaiveChunk[];
  readonly structure: Readonly<StructureParams>;
  /** Tokens a block over sentences [start, end) costs, header included. */
  blockCost: BlockCost;
  /** The contextual header of sentences [start, end) ('' when headers are off) and its token cost. */
  header(start: number, end: number): string;
  headerCost(header: string): number;
  /** [lo, hi) a window around sentence i may span: its document, or its section. */
  bound(i: number, bySection: boolean): [number, number];
  /** The chunk-tree node of a leaf id. */
  leaf(id: number): ChunkNode;
  /** The sentences of chunk-tree nodes, in order. */
  sentencesOf(nodeIds: Iterable<number>): number[];
  /** Unit id ranges of each document (shared between calls: do not modify). */
  unitRangesByDoc(kind: UnitKind): [number, number][];
  /** A unit's document and sentence range [start, end). */
  unitSpan(kind: UnitKind, id: number): { doc: number; start: number; end: number };
  /** Cosine of sentence i with the query, and of two sentences; null where a vector is missing. */
  similarity: { toQuery(i: number): number | null; between(i: number, j: number): number | null } | null;
  /** A unit's situating context, if one was written (contextual retrieval). */
  unitContext(kind: UnitKind, id: number): { text: string; source: string; cut?: boolean; window?: boolean } | undefined;
  /** Where a block's score came from: the best hit's ranks and scores, and what the strategy adds. */
  provenance(unit: Provenance['unit'], hits: readonly Candidate[], extra: Partial<Provenance>): Provenance;
  /** A block over sentences [start, end): its text, header, tokens, highlighted hits and provenance. */
  block(spec: BlockSpec): ContextBlock;
}

/** The parameters a strategy's functions receive: the common ones and its groups'. */
export type StrategyParams<G extends readonly ParamGroup[]> = CommonRetrievalParams & GroupValues<G>;

/** Words a strategy's point parameters are put in: 'long' in sentences and tables, 'short' in titles. */
export type WordStyle = 'long' | 'short';

/** One strategy, as the registry lists it. */
export interface Strategy<N extends string = string, G extends readonly ParamGroup[] = readonly ParamGroup[], A extends readonly SweepAxis[] = readonly SweepAxis[]> {
  name: N;
  /** Column and table title: "Sentence windows". */
  label: string;
  /** Said after the label where it matters: "(baseline)". */
  note?: string;
  /** What it retrieves before expanding or merging. */
  unit: UnitKind;
  /**
   * Where its parameters say otherwise: the unit kind it retrieves, and that it retrieves by
   * contextualised text whatever the structure's switch says (Contextual chunks).
   */
  retrieves?(p: StrategyParams<G>): { kind: UnitKind; contextual: true };
  /** What one of its blocks is, as the document view says it: "the sentence window". */
  blockWords: string;
  /** The strategy every other is compared with. */
  baseline?: boolean;
  /** Its colour on a light background (Paul Tol's muted, colour-blind safe): the page's palette (src/ui/palette.ts) takes it from here. */
  colour: string;
  /** The parameter groups it reads. */
  groups: G;
  /** What an evaluation sweeps for it. */
  axes: A;
  /** The parameters that matter for a measured point (reported with it, and read back to replay it). */
  report?(p: StrategyParams<G>, structure?: Readonly<StructureParams>): Record<string, unknown>;
  /** Its reported parameters in words: "window ±2 sentences". */
  words?(reported: Record<string, unknown>, style: WordStyle): string[];
  /** Candidates → blocks: pure and synchronous (sliders call it on cached candidates). */
  blocks(ctx: StrategyContext, candidates: Candidate[], p: StrategyParams<G>): ContextBlock[];
}

/** Declares a strategy, keeping its name, groups and axes as literal types for the registry. */
export function defineStrategy<const N extends string, const G extends readonly ParamGroup[], const A extends readonly SweepAxis[]>(s: Strategy<N, G, A>): Strategy<N, G, A> {
  return s;
}

export function defineGroup<const K extends string, V extends object>(g: ParamGroup<K, V>): ParamGroup<K, V> {
  return g;
}

export function defineAxis<const Id extends string, T, V extends object>(a: SweepAxis<Id, T, V>): SweepAxis<Id, T, V> {
  return a;
}

/** "0.5", "0.333": at most three decimals, no trailing zeros. */
export const short = (x: number): string => String(Number(x.toFixed(3)));

/** A command-line value as a whole number ≥ 0 (RangeError with the option's name otherwise). */
export function cliWhole(v: string, name: string): number {
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isFinite(n) || n < 0 || !Number.isInteger(n)) throw new RangeError(`--${name} must be a whole number ≥ 0, got "${v}"`);
  return n;
}

/** A command-line value as a number ≥ 0. */
export function cliNumber(v: string, name: string): number {
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`--${name} must be a number ≥ 0, got "${v}"`);
  return n;
}
