import { DEFAULT_HEADERS, type HeaderParams } from '../structure/headers';
import { DEFAULT_CHUNK_LEVELS } from '../structure/hierarchy';
import { DEFAULT_NAIVE, type NaiveChunkParams } from '../structure/naive-chunks';
import { DEFAULT_MERGE, type MergeParams } from './automerge';
import type { MetadataFilter } from './filters';
import { DEFAULT_WINDOW, type WindowParams } from './window';
import { DEFAULT_ADAPTIVE, type AdaptiveParams } from './adaptive';
import { RSE_PRESETS, type RseParams } from './rse';

/** The strategies, each a column in the app and a row in an evaluation. */
export const STRATEGIES = ['naive', 'sentence', 'window', 'automerge', 'adaptive', 'rse'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export const STRATEGY_LABELS: Record<StrategyName, string> = {
  naive: 'Naive chunks (baseline)',
  sentence: 'Sentence hits',
  window: 'Sentence windows',
  automerge: 'Auto-merged parents',
  adaptive: 'Adaptive windows',
  rse: 'Relevant segments (RSE)',
};

/** What each strategy retrieves before expanding or merging. */
export type UnitKind = 'sentence' | 'leaf' | 'chunk';
export const STRATEGY_UNIT: Record<StrategyName, UnitKind> = { naive: 'chunk', sentence: 'sentence', window: 'sentence', automerge: 'leaf', adaptive: 'sentence', rse: 'leaf' };

export type RetrieverName = 'bm25' | 'vector' | 'hybrid';

/**
 * Parameters that change what is embedded or indexed: changing them means new vectors
 * (cached per variant), so the app says so and re-embeds.
 */
export interface StructureParams {
  /** Hierarchy levels in tokens, largest first. Leaves are embedded. */
  chunkLevels: number[];
  /** Chunks and section-bounded windows stay inside sections of this level or above (0 = documents only). */
  sectionLevel: number;
  naive: NaiveChunkParams;
  headers: HeaderParams;
}

/** Retrieval-only parameters: changing them re-runs retrieval in milliseconds, never re-embeds. */
export interface RetrievalParams {
  retriever: RetrieverName;
  /** Units retrieved before expansion; also the number of blocks shown without a budget. */
  topK: number;
  /** Context budget in tokens (headers included), or null for no budget. */
  budgetTokens: number | null;
  window: WindowParams & { bySection: boolean };
  merge: MergeParams;
  adaptive: AdaptiveParams;
  rse: RseParams;
  rrf: { c: number; weights: { bm25: number; vector: number } };
  rerank: { enabled: boolean; topN: number };
  filters: MetadataFilter;
}

export const DEFAULT_STRUCTURE: StructureParams = {
  chunkLevels: [...DEFAULT_CHUNK_LEVELS],
  sectionLevel: 3,
  naive: { ...DEFAULT_NAIVE },
  headers: { ...DEFAULT_HEADERS, fields: [] },
};

export const DEFAULT_RETRIEVAL: RetrievalParams = {
  retriever: 'hybrid',
  topK: 10,
  budgetTokens: null,
  window: { ...DEFAULT_WINDOW, bySection: false },
  merge: { ...DEFAULT_MERGE },
  adaptive: { ...DEFAULT_ADAPTIVE },
  rse: { ...RSE_PRESETS.balanced },
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

/** Throws a RangeError naming the first invalid field (callers clamp user input before). */
export function validateRetrieval(p: RetrievalParams): void {
  if (!['bm25', 'vector', 'hybrid'].includes(p.retriever)) throw new RangeError(`unknown retriever ${p.retriever}`);
  wholeNumber('topK', p.topK);
  if (p.budgetTokens !== null) finite('budgetTokens', p.budgetTokens);
  wholeNumber('window.before', p.window.before);
  wholeNumber('window.after', p.window.after);
  finite('merge.threshold', p.merge.threshold, 0, 1);
  finite('adaptive.threshold', p.adaptive.threshold, -1, 1);
  wholeNumber('adaptive.maxBefore', p.adaptive.maxBefore);
  wholeNumber('adaptive.maxAfter', p.adaptive.maxAfter);
  if (p.adaptive.policy !== 'query' && p.adaptive.policy !== 'query+hit') throw new RangeError(`adaptive.policy must be query or query+hit`);
  wholeNumber('rse.maxLength', p.rse.maxLength, 1);
  wholeNumber('rse.overallMaxLength', p.rse.overallMaxLength, 1);
  finite('rse.minimumValue', p.rse.minimumValue, -1e6);
  finite('rse.irrelevantChunkPenalty', p.rse.irrelevantChunkPenalty);
  finite('rse.decayRate', p.rse.decayRate, 1e-9);
  wholeNumber('rse.topKForDocumentSelection', p.rse.topKForDocumentSelection, 1);
  finite('rrf.c', p.rrf.c);
  finite('rrf.weights.bm25', p.rrf.weights.bm25);
  finite('rrf.weights.vector', p.rrf.weights.vector);
  wholeNumber('rerank.topN', p.rerank.topN, 1);
}

/** Fills defaults and validates. */
export function retrievalParams(p: Partial<RetrievalParams> = {}): RetrievalParams {
  const out: RetrievalParams = {
    ...DEFAULT_RETRIEVAL,
    ...p,
    window: { ...DEFAULT_RETRIEVAL.window, ...p.window },
    merge: { ...DEFAULT_RETRIEVAL.merge, ...p.merge },
    adaptive: { ...DEFAULT_RETRIEVAL.adaptive, ...p.adaptive },
    rse: { ...DEFAULT_RETRIEVAL.rse, ...p.rse },
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
    headers: { ...DEFAULT_STRUCTURE.headers, ...p.headers, fields: [...(p.headers?.fields ?? [])] },
  };
}
