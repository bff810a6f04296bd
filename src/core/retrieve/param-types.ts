/**
 * The parameter types below the strategies: unit kinds, structure and the retrieval
 * parameters every strategy shares. The strategies' types import these; params.ts (which
 * reads the registry for each strategy's own groups) imports the strategies — one direction,
 * no circle.
 */
import type { HeaderParams } from '../structure/headers';
import type { NaiveChunkParams } from '../structure/naive-chunks';
import type { PackedChunkParams } from '../structure/packed-chunks';
import type { SemanticChunkParams } from '../structure/semantic-chunks';
import type { LexicalParams } from '../index/lexical-index';
import type { MetadataFilter } from './filters';
import type { RetrieverName } from './retrievers';

/** What each strategy retrieves before expanding or merging. */
export type UnitKind = 'sentence' | 'leaf' | 'chunk' | 'packed' | 'semantic';

/** Every unit kind, in the order they are embedded. */
export const UNIT_KINDS: readonly UnitKind[] = ['sentence', 'leaf', 'chunk', 'packed', 'semantic'];

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
  /** Sentence-packed chunks (LlamaIndex SentenceSplitter): size and overlap in tokens of whole sentences. */
  packed: PackedChunkParams;
  /** Semantic chunks (LlamaIndex SemanticSplitterNodeParser): buffer sentences and breakpoint percentile. */
  semantic: SemanticChunkParams;
  headers: HeaderParams;
  /** How BM25 analyses and scores (changing it rebuilds only the lexical indexes). */
  lexical: LexicalParams;
  /**
   * How unit vectors are made: 'plain' embeds each unit on its own; 'late' pools each unit's
   * vector from token vectors of a long span of its document (late chunking). Kept per variant.
   */
  vectors: VectorVariant;
  /** Contextual retrieval: units are embedded and indexed with their situating context first (where one was written). */
  contextual: boolean;
}

/** How unit vectors are made (see StructureParams.vectors). */
export type VectorVariant = 'plain' | 'late';

/** Retrieval parameters every strategy shares: how candidates are found, and the budget. */
export interface CommonRetrievalParams {
  retriever: RetrieverName;
  /** Units retrieved before expansion; also the number of blocks shown without a budget. */
  topK: number;
  /** Context budget in tokens (headers included), or null for no budget. */
  budgetTokens: number | null;
  rrf: { c: number; weights: { bm25: number; vector: number } };
  rerank: { enabled: boolean; topN: number };
  filters: MetadataFilter;
}
