/**
 * What the engine's pieces share: result shapes, options, progress, and the variant key of a
 * vector set. Below the pieces (vector variants, lexical indexes, candidate retrieval) and the
 * facade (engine.ts), so none of them imports another back.
 */
import type { ContextStore } from '../context/context-store';
import type { Embedder } from '../embed/embedder';
import type { Reranker } from '../embed/reranker';
import type { VectorIndex } from '../index/vector-index';
import type { UnitKind, StructureParams } from '../retrieve/params';
import type { VectorVariant } from '../retrieve/param-types';
import type { RetrieverName } from '../retrieve/retrievers';
import type { TokenCounter } from '../segment/tokens';
import type { StrategyName } from '../strategies/registry';
import { headerKey, type HeaderParams } from '../structure/headers';
import type { CorpusUnits } from '../structure/units';
import type { ContextBlock } from '../types';

/** Units embedded per slice: progress and search coverage advance slice by slice. */
export const EMBED_SLICE = 256;

/** What the semantic column says when no embedding model is loaded (it has no blocks then). */
export const SEMANTIC_NEEDS_MODEL = 'semantic chunking needs an embedding model';

/** A unit kind in a note: "sentences", "leafs", "semantic chunks". */
export const unitsWord = (kind: UnitKind): string => (kind === 'packed' || kind === 'semantic' ? `${kind} chunks` : `${kind}s`);

/** One strategy's answer to a query: the blocks handed over, best first. */
export interface StrategyResult {
  strategy: StrategyName;
  retriever: RetrieverName;
  blocks: ContextBlock[];
  /** Context tokens of all blocks, headers included. */
  totalTokens: number;
  /** Units retrieved before expansion/merging/budget. */
  candidates: number;
  /** Why the result is what it is ("vector search unavailable: BM25 only", …). */
  notes: string[];
  /**
   * The retriever that really ranked the candidates: 'bm25' for a vector or hybrid column
   * while no vectors exist, null when nothing was retrieved. Absent in results saved before it.
   */
  used?: RetrieverName | null;
}

/** A strategy run on query fusion: the queries used (question first) and who found each block. */
export interface FusedStrategyResult extends StrategyResult {
  queries: string[];
  /** Per block, the indices into `queries` whose retrieval found a unit inside it. */
  foundBy: number[][];
}

export interface EngineOptions {
  embedder?: Embedder | null;
  /** Counts tokens when no embedder is loaded (BM25-only). Default: the embedder's, else approx. */
  counter?: TokenCounter;
  structure?: Partial<StructureParams>;
  /** Builds the vector index for a unit kind; default exact FlatIndex. */
  vectorIndex?: (dim: number) => VectorIndex | Promise<VectorIndex>;
  reranker?: Reranker | null;
  /** Longest sentence atom in tokens; default the smallest chunk level. */
  maxSentenceTokens?: number;
  /** Situating contexts kept with the corpus (an engine without some documents shares its predecessor's). */
  contexts?: ContextStore;
  /** Vectors of contextualised units, shared the same way (see engine/contextual.ts). */
  contextVectors?: Map<string, Float32Array>;
}

export interface EmbedProgress {
  kind: UnitKind;
  done: number;
  total: number;
}

/**
 * The vector set key of a unit kind for a header variant and model: "sentence|<headers>|<model>",
 * then "|ctx" for contextual units and "|late" for late-chunked vectors (absent for the plain
 * variant, so keys saved before these variants existed still match). The engine's vector sets
 * never carry "|ctx" (contextual vectors are an overlay beside the plain set, engine/contextual.ts);
 * the contextual BM25 index's key does.
 */
export function variantKey(kind: UnitKind, headers: HeaderParams, model: string | undefined, variant: { contextual?: boolean; vectors?: VectorVariant } = {}): string {
  return `${kind}|${headerKey(headers)}|${model ?? 'none'}${variant.contextual ? '|ctx' : ''}${variant.vectors === 'late' ? '|late' : ''}`;
}

/** The unit kind a vector set key belongs to. */
export function kindOfKey(key: string): UnitKind {
  return key.split('|')[0] as UnitKind;
}

/**
 * What every piece reads from the engine it belongs to: the units, the model, the structure as
 * it is now (headers and the lexical choice change over the engine's life), the text a unit is
 * embedded and indexed as, and its vector set key. The facade builds it once and hands it down.
 */
export interface EngineCore {
  readonly units: CorpusUnits;
  readonly embedder: Embedder | null;
  structure(): Readonly<StructureParams>;
  /** With `contextual` (default: the structure's switch), the unit's context comes before its text where it has one. */
  unitText(kind: UnitKind, id: number, contextual?: boolean): string;
  variantKey(kind: UnitKind): string;
}

/** What changed, so the candidate retrieval drops exactly the caches that depend on it. */
export type EngineChange = 'units' | 'vectors' | 'semantic' | 'lexical';
