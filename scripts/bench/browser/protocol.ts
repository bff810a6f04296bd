import type { RpcMethod } from '../../../src/rpc/wire';

export const BENCH_TAG = 'rag-lab-bench';

export interface IndexingRequest {
  /** app: parse, split, embed; bare: ONNX Runtime alone; split: parse and split until BM25 answers (no embedding). */
  mode: 'app' | 'bare' | 'split';
  threads: number;
  ortWasm: { mjs: string; wasm: string };
  /** URL of the folder holding <model id>/ folders. */
  modelsUrl: string;
  model: string;
  dtype: 'q8' | 'fp32';
  /** The ONNX file inside the model folder (bare mode loads it directly). */
  onnxFile: string;
  /** app mode: the document to index. */
  docUrl?: string;
  docName?: string;
  /** bare mode: the texts the app embedded, in unit order. */
  texts?: string[];
  batchSize: number;
  slice: number;
}

export interface IndexingResult {
  mode: 'app' | 'bare' | 'split';
  threads: number;
  crossOriginIsolated: boolean;
  ortNumThreads: number | null;
  sentences: number;
  totalMs: number;
  /** app: parse (loadDocument), split (addDocuments), embed (embedUnits('sentence')); split: parse, split, bm25 (the first BM25 search). */
  stages: Record<string, number>;
  modelLoadMs: number;
  texts?: string[];
}

/** The harness worker's one method: an indexing run. */
export type BenchApi = {
  index: RpcMethod<IndexingRequest, IndexingResult>;
};
