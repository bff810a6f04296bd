import type { EndpointChoice } from '../core/embed/endpoint-choice';
import type { LateChunkingSupport } from '../core/embed/embedder';
import type { EditableSetting, EmbeddingSettings } from '../core/embed/presets';

/** The lab protocol's models (joined into LabApi in protocol.ts): which model to load, how it went, its progress. */

export type Dtype = 'fp32' | 'fp16' | 'q8' | 'q4';

export type Device = 'wasm' | 'webgpu';

export interface ModelChoice {
  model: string;
  dtype: Dtype;
  device: Device;
  /** 'local': the self-hosted /models/ folder; 'hub': the Hugging Face hub (browser cache). */
  source: 'local' | 'hub';
  /** An OpenAI-compatible embeddings endpoint instead of a transformers.js model (the key only in memory). */
  endpoint?: EndpointChoice;
  /** Settings changed from the preset's (or the guessed) ones: only those that differ, so a plain preset keeps its key. */
  settings?: Partial<Pick<EmbeddingSettings, EditableSetting>>;
  /** A Matryoshka output size the model was trained for; absent: its full size. */
  dimensions?: number;
}

/** Why a model could not be loaded; the page words it. */
export type ModelFailure =
  /** The self-hosted folder does not hold the model's files. */
  | { code: 'not-found'; folder: string }
  /** The download failed (offline, or the hub is blocked). */
  | { code: 'offline'; model: string }
  /** The server answered with something that is not model files (a web page). */
  | { code: 'not-model-files'; model: string }
  | { code: 'load-failed'; model: string; detail: string };

export interface ModelStatus {
  state: 'none' | 'loading' | 'ready' | 'failed';
  model?: string;
  dim?: number;
  isTestModel?: boolean;
  /** A ready embedder: whether it makes late-chunked vectors, and if not why (the structure settings show it). */
  lateChunking?: LateChunkingSupport;
  /** Why it failed. */
  failure?: ModelFailure;
}

/** Model download/load progress, in bytes where the hub says them. */
export interface ModelProgress {
  kind: 'model';
  role: 'embedder' | 'reranker';
  file?: string;
  loaded?: number;
  total?: number;
  status: string;
}
