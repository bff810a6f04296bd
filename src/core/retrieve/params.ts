import { PARAM_GROUPS, STRATEGY_LIST, strategyTitle, type StrategyName, type StrategyParamValues } from '../strategies/registry';
import type { ParamField, ParamGroup } from '../strategies/types';
import { DEFAULT_HEADERS, type HeaderParams } from '../structure/headers';
import { DEFAULT_CHUNK_LEVELS } from '../structure/hierarchy';
import { DEFAULT_NAIVE, type NaiveChunkParams } from '../structure/naive-chunks';
import { DEFAULT_PACKED, validatePacked, type PackedChunkParams } from '../structure/packed-chunks';
import { DEFAULT_SEMANTIC, validateSemantic, type SemanticChunkParams } from '../structure/semantic-chunks';
import { DEFAULT_LEXICAL, isAnalyzer, isBm25Variant, type LexicalParams } from '../index/lexical-params';
import type { MetadataFilter } from './filters';
import { isRetriever, type RetrieverName } from './retrievers';

export { RETRIEVERS, RETRIEVER_NAMES, type RetrieverName } from './retrievers';
export { STRATEGIES, type StrategyName } from '../strategies/registry';
export { UNIT_KINDS, type CommonRetrievalParams, type StructureParams, type UnitKind } from './param-types';
import type { CommonRetrievalParams, StructureParams, UnitKind } from './param-types';

/** Each strategy's title (kept for callers that index by name; the registry is the source). */
export const STRATEGY_LABELS = Object.fromEntries(STRATEGY_LIST.map((s) => [s.name, strategyTitle(s.name)])) as Record<StrategyName, string>;
export const STRATEGY_UNIT = Object.fromEntries(STRATEGY_LIST.map((s) => [s.name, s.unit])) as Record<StrategyName, UnitKind>;

/**
 * Retrieval-only parameters: changing them re-runs retrieval in milliseconds, never
 * re-embeds. Besides the common ones, each strategy's parameter groups (`window`,
 * `merge`, …) as the strategies declare them.
 */
export type RetrievalParams = CommonRetrievalParams & StrategyParamValues;

export const DEFAULT_STRUCTURE: StructureParams = {
  chunkLevels: [...DEFAULT_CHUNK_LEVELS],
  sectionLevel: 3,
  naive: { ...DEFAULT_NAIVE },
  packed: { ...DEFAULT_PACKED },
  semantic: { ...DEFAULT_SEMANTIC },
  headers: { ...DEFAULT_HEADERS, fields: [] },
  lexical: { ...DEFAULT_LEXICAL },
  vectors: 'plain',
  contextual: false,
};

const groupDefaults = () => Object.fromEntries(PARAM_GROUPS.map((g) => [g.key, structuredClone(g.defaults)])) as StrategyParamValues;

export const DEFAULT_RETRIEVAL: RetrievalParams = {
  retriever: 'hybrid',
  topK: 10,
  budgetTokens: null,
  ...groupDefaults(),
  rrf: { c: 60, weights: { bm25: 0.5, vector: 0.5 } },
  rerank: { enabled: false, topN: 20 },
  filters: {},
};

function wholeNumber(name: string, v: number, min = 0): void {
  if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be a whole number ≥ ${min}, got ${v}`);
}

function finite(name: string, v: number, min = 0, max = Infinity): void {
  if (!Number.isFinite(v) || v < min || v > max) throw new RangeError(`${name} must be a number in [${min}, ${max === Infinity ? '∞' : max}], got ${v}`);
}

/** Checks one field of a strategy's parameter group against its declared range. */
export function validateField(name: string, f: ParamField, v: unknown): void {
  if (f.kind === 'int') wholeNumber(name, v as number, f.min);
  else if (f.kind === 'real') finite(name, v as number, f.min, f.max);
  else if (f.kind === 'choice' && !f.values.includes(v as string)) throw new RangeError(`${name} must be ${f.values.join(' or ')}`);
}

/**
 * A strategy parameter group's value inside retrieval parameters, as a plain record to read
 * or set field by field; parameters saved before the group existed get its defaults.
 */
export function groupValue(p: RetrievalParams, g: ParamGroup): Record<string, unknown> {
  const record = p as unknown as Record<string, Record<string, unknown>>;
  return (record[g.key] ??= structuredClone(g.defaults));
}

/** Throws a RangeError naming the first invalid field (callers clamp user input before). */
export function validateRetrieval(p: RetrievalParams): void {
  if (!isRetriever(p.retriever)) throw new RangeError(`unknown retriever ${p.retriever}`);
  wholeNumber('topK', p.topK);
  if (p.budgetTokens !== null) finite('budgetTokens', p.budgetTokens);
  for (const g of PARAM_GROUPS) {
    const value = (p as unknown as Record<string, Record<string, unknown> | undefined>)[g.key] ?? {};
    for (const f of g.fields) validateField(`${g.key}.${f.key}`, f, value[f.key]);
  }
  finite('rrf.c', p.rrf.c);
  finite('rrf.weights.bm25', p.rrf.weights.bm25);
  finite('rrf.weights.vector', p.rrf.weights.vector);
  wholeNumber('rerank.topN', p.rerank.topN, 1);
}

/** Fills defaults (each group field by field) and validates. */
export function retrievalParams(p: Partial<RetrievalParams> = {}): RetrievalParams {
  const given = p as Record<string, unknown>;
  const groups = Object.fromEntries(PARAM_GROUPS.map((g) => [g.key, { ...g.defaults, ...(given[g.key] as object | undefined) }])) as StrategyParamValues;
  const out: RetrievalParams = {
    ...DEFAULT_RETRIEVAL,
    ...p,
    ...groups,
    rrf: { ...DEFAULT_RETRIEVAL.rrf, ...p.rrf, weights: { ...DEFAULT_RETRIEVAL.rrf.weights, ...p.rrf?.weights } },
    rerank: { ...DEFAULT_RETRIEVAL.rerank, ...p.rerank },
    filters: { ...p.filters },
  };
  validateRetrieval(out);
  return out;
}

export function structureParams(p: Partial<StructureParams> = {}): StructureParams {
  return {
    ...DEFAULT_STRUCTURE,
    ...p,
    chunkLevels: [...(p.chunkLevels ?? DEFAULT_STRUCTURE.chunkLevels)],
    naive: { ...DEFAULT_STRUCTURE.naive, ...p.naive },
    packed: validPacked({ ...DEFAULT_STRUCTURE.packed, ...p.packed }),
    semantic: validSemantic({ ...DEFAULT_STRUCTURE.semantic, ...p.semantic }),
    headers: { ...DEFAULT_STRUCTURE.headers, ...p.headers, fields: [...(p.headers?.fields ?? [])] },
    lexical: validLexical({ ...DEFAULT_STRUCTURE.lexical, ...p.lexical }),
  };
}

/** Throws a RangeError for an unknown analyzer or BM25 variant. */
export function validLexical(l: LexicalParams): LexicalParams {
  if (!isAnalyzer(l.analyzer)) throw new RangeError(`unknown analyzer ${l.analyzer}`);
  if (!isBm25Variant(l.bm25)) throw new RangeError(`unknown BM25 variant ${l.bm25}`);
  return l;
}

/** Throws a RangeError naming the invalid field (packed.size, packed.overlap). */
export function validPacked(p: PackedChunkParams): PackedChunkParams {
  validatePacked(p);
  return p;
}

/** Throws a RangeError naming the invalid field (semantic.buffer, semantic.percentile). */
export function validSemantic(p: SemanticChunkParams): SemanticChunkParams {
  validateSemantic(p);
  return p;
}
