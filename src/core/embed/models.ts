/** What the app and CLI know about the models they offer. */
export interface EmbeddingModelInfo {
  id: string;
  label: string;
  dim: number;
  /** Default dtype: q8 → onnx/model_quantized.onnx, fp32 → onnx/model.onnx. */
  dtype: 'fp32' | 'fp16' | 'q8' | 'q4';
  queryPrefix?: string;
  passagePrefix?: string;
  languages: string;
  testModel?: boolean;
}

export const EMBEDDING_MODELS: EmbeddingModelInfo[] = [
  { id: 'Xenova/all-MiniLM-L6-v2', label: 'all-MiniLM-L6-v2 (English)', dim: 384, dtype: 'q8', languages: 'English' },
  {
    id: 'Xenova/multilingual-e5-small',
    label: 'multilingual-e5-small (100 languages)',
    dim: 384,
    dtype: 'q8',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    languages: 'multilingual',
  },
  { id: 'rag-lab/test-embedder', label: 'TEST MODEL (random bag of word pieces)', dim: 128, dtype: 'fp32', languages: 'English word pieces', testModel: true },
];

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

export const TEST_EMBEDDER_ID = 'rag-lab/test-embedder';

export function modelInfo(id: string): EmbeddingModelInfo | undefined {
  return EMBEDDING_MODELS.find((m) => m.id === id);
}
