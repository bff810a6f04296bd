import { EMBEDDING_PRESETS, findPreset, TEST_PRESETS, type EmbeddingPreset } from './presets';

export { TEST_EMBEDDER_ID, TEST_STATIC_EMBEDDER_ID } from './presets';

/** What the app and CLI know about the models they offer: the presets (see presets.ts). */
export type EmbeddingModelInfo = EmbeddingPreset;

export const EMBEDDING_MODELS: EmbeddingModelInfo[] = [...EMBEDDING_PRESETS, ...TEST_PRESETS];

export interface RerankerModelInfo {
  id: string;
  label: string;
  dtype: 'fp32' | 'q8';
  testModel?: boolean;
}

export const RERANKER_MODELS: RerankerModelInfo[] = [
  { id: 'Xenova/ms-marco-MiniLM-L-6-v2', label: 'ms-marco-MiniLM-L-6-v2 cross-encoder (English)', dtype: 'q8' },
  { id: 'rag-lab/test-reranker', label: 'TEST MODEL (cosine of word-piece bags)', dtype: 'fp32', testModel: true },
];

export const TEST_RERANKER_ID = 'rag-lab/test-reranker';

/** A preset by hub id or short name. */
export function modelInfo(id: string): EmbeddingModelInfo | undefined {
  return findPreset(id);
}
