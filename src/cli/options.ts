/**
 * The command line's options: the parseArgs table (the strategies', question-set and embedder
 * options join it), and the readers that turn option values into validated parameters before
 * any file is read or embedded. A wrong value is a UsageError naming the option.
 */
import { parseArgs } from 'node:util';
import { ANALYZERS, BM25_VARIANTS, DEFAULT_LEXICAL, type LexicalParams } from '../core/index/lexical-params';
import { retrievalParams, type RetrievalParams, type StructureParams } from '../core/retrieve/params';
import { RETRIEVERS, type RetrieverName } from '../core/retrieve/retrievers';
import { PARAM_GROUPS } from '../core/strategies/registry';
import type { CliValues } from '../core/strategies/types';
import { validateLevels } from '../core/structure/hierarchy';
import { validateNaive } from '../core/structure/naive-chunks';
import { DEFAULT_PACKED, validatePacked, type PackedChunkParams } from '../core/structure/packed-chunks';
import { DEFAULT_SEMANTIC, validateSemantic, type SemanticChunkParams } from '../core/structure/semantic-chunks';
import { ANSWER_OPTIONS, CONTEXTUAL_OPTIONS, EMBEDDER_OPTIONS, LATE_OPTIONS, QUESTION_OPTIONS, TRANSFORM_OPTIONS, type AnswerValues, type ContextualValues, type EmbedderValues, type LateValues, type QuestionValues, type TransformValues } from './option-tables';
import { UsageError } from './usage';

export const OPTIONS = {
  data: { type: 'string' },
  'limit-docs': { type: 'string' },
  'limit-questions': { type: 'string' },
  strategies: { type: 'string' },
  budget: { type: 'string' },
  retriever: { type: 'string' },
  embedder: { type: 'string' },
  'models-dir': { type: 'string' },
  remote: { type: 'boolean' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  corpus: { type: 'string' },
  'top-k': { type: 'string' },
  'rrf-c': { type: 'string' },
  weights: { type: 'string' },
  levels: { type: 'string' },
  'chunk-size': { type: 'string' },
  'packed-size': { type: 'string' },
  'packed-overlap': { type: 'string' },
  'semantic-buffer': { type: 'string' },
  'semantic-percentile': { type: 'string' },
  headers: { type: 'boolean' },
  split: { type: 'string' },
  language: { type: 'string' },
  sweep: { type: 'boolean' },
  'sweep-headers': { type: 'boolean' },
  analyzer: { type: 'string' },
  bm25: { type: 'string' },
  reranker: { type: 'string' },
  metric: { type: 'string' },
  strategy: { type: 'string' },
  question: { type: 'string', multiple: true },
  engine: { type: 'string' },
  from: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  debug: { type: 'boolean' },
} as const;

/** The strategies' own options (--window, --threshold, …), declared by their parameter groups. */
export const GROUP_OPTIONS: Record<string, { type: 'string' | 'boolean' }> = Object.assign({}, ...PARAM_GROUPS.map((g) => g.cli?.options ?? {}));

export function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isFinite(n) || n < 0 || !Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number ≥ 0, got "${v}"`);
  return n;
}

export function num(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a number ≥ 0, got "${v}"`);
  return n;
}

export function list<T extends string>(v: string | undefined, allowed: readonly T[], name: string, fallback: readonly T[]): T[] {
  if (!v) return [...fallback];
  const items = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const i of items) if (!allowed.includes(i as T)) throw new UsageError(`--${name}: unknown "${i}" (choose from ${allowed.join(', ')})`);
  return items as T[];
}

export type OptionValue<O> = O extends { multiple: true } ? string[] : O extends { type: 'boolean' } ? boolean : string;
export type Values = { [K in keyof typeof OPTIONS]?: OptionValue<(typeof OPTIONS)[K]> } & CliValues & QuestionValues & EmbedderValues & LateValues & ContextualValues & AnswerValues & TransformValues;
export function parse(argv: string[]): { values: Values; positionals: string[] } {
  return parseArgs({ args: argv, options: { ...OPTIONS, ...GROUP_OPTIONS, ...QUESTION_OPTIONS, ...EMBEDDER_OPTIONS, ...LATE_OPTIONS, ...CONTEXTUAL_OPTIONS, ...ANSWER_OPTIONS, ...TRANSFORM_OPTIONS }, allowPositionals: true, strict: true }) as { values: Values; positionals: string[] };
}

/** Retrieval options, validated before any file is read or embedded. */
export function retrieval(values: Values, defaults: { topK: number; budget: number | null }): RetrievalParams {
  const [wb, wv] = (values.weights ?? '0.5,0.5').split(',').map((x) => num(x, 'weights', 0.5));
  const topK = int(values['top-k'], 'top-k', defaults.topK);
  if (topK < 1) throw new UsageError('--top-k must be at least 1');
  const build = () => {
    // Each strategy parameter group reads its own options (--window, --threshold, …).
    const groups = Object.fromEntries(PARAM_GROUPS.filter((g) => g.cli).map((g) => [g.key, g.cli!.read(values, g.defaults)]));
    return retrievalParams({
      topK,
      budgetTokens: values.budget === 'none' ? null : values.budget !== undefined ? int(values.budget.split(',')[0], 'budget', 0) : defaults.budget,
      ...(groups as Partial<RetrievalParams>),
      rrf: { c: num(values['rrf-c'], 'rrf-c', 60), weights: { bm25: wb ?? 0.5, vector: wv ?? 0.5 } },
    });
  };
  try {
    return build();
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}

/** Structure options (they change what is embedded), validated before any work. */
export function structure(values: Values): Partial<StructureParams> {
  const levels = values.levels ? values.levels.split(',').map((x) => int(x, 'levels', 128)) : undefined;
  const naive = { size: int(values['chunk-size'], 'chunk-size', 128), overlap: 0 };
  try {
    if (levels) validateLevels(levels);
    validateNaive(naive);
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^chunk levels/, '--levels').replace(/^naive chunk size/, '--chunk-size'));
  }
  return {
    ...(levels ? { chunkLevels: levels } : {}),
    naive,
    ...chunkers(values),
    headers: { enabled: Boolean(values.headers), title: true, section: true, fields: [] },
    lexical: lexicalChoices(values)[0]!,
  };
}

/** Sentence-packed and semantic chunk options over `base` (the defaults, or a saved corpus's), validated. */
export function chunkers(values: Values, base: { packed?: PackedChunkParams; semantic?: SemanticChunkParams } = {}): { packed: PackedChunkParams; semantic: SemanticChunkParams } {
  const p = base.packed ?? DEFAULT_PACKED;
  const sm = base.semantic ?? DEFAULT_SEMANTIC;
  const packed = { size: int(values['packed-size'], 'packed-size', p.size), overlap: int(values['packed-overlap'], 'packed-overlap', p.overlap) };
  const semantic = { buffer: int(values['semantic-buffer'], 'semantic-buffer', sm.buffer), percentile: num(values['semantic-percentile'], 'semantic-percentile', sm.percentile) };
  try {
    validatePacked(packed);
    validateSemantic(semantic);
  } catch (e) {
    // "packed.overlap must …" → "--packed-overlap must …"
    throw new UsageError((e as Error).message.replace(/^(packed|semantic)\.(\w+)/, '--$1-$2').replace(/packed\.size/, '--packed-size'));
  }
  return { packed, semantic };
}

/** Every analyzer × BM25 variant asked for (--analyzer a,b --bm25 x,y), the default alone when none. */
export function lexicalChoices(values: Values): LexicalParams[] {
  const analyzers = list(values.analyzer, ANALYZERS, 'analyzer', [DEFAULT_LEXICAL.analyzer]);
  const variants = list(values.bm25, BM25_VARIANTS, 'bm25', [DEFAULT_LEXICAL.bm25]);
  return analyzers.flatMap((analyzer) => variants.map((bm25) => ({ analyzer, bm25 })));
}

/** The retrievers asked for with --retriever, or null when the option is absent. */
export function requestedRetrievers(values: Values): RetrieverName[] | null {
  return values.retriever ? list(values.retriever, RETRIEVERS, 'retriever', RETRIEVERS) : null;
}

/** True when every requested retriever is BM25: no embedding model is needed, so none is loaded. */
export function bm25Only(values: Values): boolean {
  const r = requestedRetrievers(values);
  return r !== null && r.every((x) => x === 'bm25');
}

/** One or more budgets ("256,512"); "none" means no budget. */
export function budgets(values: Values, fallback: (number | null)[]): (number | null)[] {
  if (values.budget === undefined) return fallback;
  if (values.budget === 'none') return [null];
  return values.budget.split(',').map((b) => {
    const n = int(b, 'budget', 0);
    if (n < 1) throw new UsageError('--budget must be at least 1 token');
    return n;
  });
}
