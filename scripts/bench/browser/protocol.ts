import type { RpcMethod } from '../../../src/rpc/wire';

export const BENCH_TAG = 'rag-lab-bench';

export interface IndexingRequest {
  mode: 'app' | 'bare';
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
  mode: 'app' | 'bare';
  threads: number;
  crossOriginIsolated: boolean;
  ortNumThreads: number | null;
  sentences: number;
  totalMs: number;
  /** app: parse (loadDocument), split (addDocuments), embed (embedUnits('sentence')). */
  stages: Record<string, number>;
  modelLoadMs: number;
  texts?: string[];
}

/** The harness worker's one method: an indexing run. */
export type BenchApi = {
  index: RpcMethod<IndexingRequest, IndexingResult>;
};
