/**
 * The typed message protocol between the page and the indexing/search worker. Every
 * request carries an id; the worker answers with progress messages, then exactly one
 * result or error for that id. Unsolicited `status` messages describe the corpus.
 */
import type { StrategyResult } from '../core/engine';
import type { RetrievalParams, RetrieverName, StrategyName, StructureParams, UnitKind } from '../core/retrieve/params';
import type { ContextBlock, Document, DocumentContext } from '../core/types';
import type { MetricName, Recommendation, SweepPoint } from '../core/eval/sweep';

export type Dtype = 'fp32' | 'fp16' | 'q8' | 'q4';
export type IndexBackend = 'flat' | 'voy';
export type Device = 'wasm' | 'webgpu';

export interface ModelChoice {
  model: string;
  dtype: Dtype;
  device: Device;
  /** 'local': the self-hosted /models/ folder; 'hub': the Hugging Face hub (browser cache). */
  source: 'local' | 'hub';
}

export interface DocSummary {
  id: string;
  title: string;
  fileName: string;
  language: string;
  format: string;
  size: number;
  pages: number;
  sections: number;
  sentences: number;
  warnings: string[];
  /** The title and summary used in its contextual headers, when set. */
  context?: DocumentContext;
  /** Units of this document embedded so far (sentences, leaves, chunks), for its progress bar. */
  embedded: { done: number; total: number };
}

export type ColumnId = 'sentence' | 'window' | 'automerge' | 'adaptive' | 'rse' | 'fusion' | 'hybrid' | 'reranked' | 'naive';

export interface ColumnSpec {
  id: ColumnId;
  label: string;
  strategy: StrategyName;
  retriever: RetrieverName;
  rerank: boolean;
  /** Query fusion: retrieve for the question and the search request's variants, fuse by RRF. */
  fusion?: boolean;
}

/** A block with what the page needs to show it without asking again. */
export interface BlockView extends ContextBlock {
  docId: string;
  docTitle: string;
  sectionPath: string[];
  pageStart?: number;
  pageEnd?: number;
  /** Character spans of the retrieved sentences, relative to block.text. */
  hitSpans: [number, number][];
  /** Mean similarity of the block's sentences to the query and to each other (needs sentence vectors). */
  coherence?: { toQuery: number; internal: number | null };
  /** The chunk-tree node around the block (character span in the document), when there is one. */
  parent?: { start: number; end: number; level: number; tokens: number };
  /** Query fusion: indices into the column's `variants` (0 = the question) whose retrieval found this block. */
  foundBy?: number[];
}

export interface ColumnResult {
  column: ColumnSpec;
  /** `variants`: a query-fusion column's queries, the question first. */
  result: Omit<StrategyResult, 'blocks'> & { blocks: BlockView[]; variants?: string[] };
}

export interface ModelStatus {
  state: 'none' | 'loading' | 'ready' | 'failed';
  model?: string;
  dim?: number;
  isTestModel?: boolean;
  /** Why it failed, in words a user can act on. */
  error?: string;
}

export interface EmbeddingStatus {
  coverage: Record<UnitKind, { done: number; total: number }>;
  running: boolean;
  /** The user paused embedding: BM25 and the vectors made so far are used. */
  paused: boolean;
  /** The unit kind being embedded now, and seconds left at the current rate. */
  unit?: UnitKind;
  etaS?: number;
  /** Units of `unit` embedded so far in this pass (finer than coverage, which grows by slices). */
  progress?: { done: number; total: number };
  /** Texts cut at the model's limit so far (only their beginning is embedded). */
  truncated: number;
  error?: string;
}

export interface WorkerStatus {
  docs: DocSummary[];
  embedder: ModelStatus;
  reranker: ModelStatus;
  embedding: EmbeddingStatus;
  structure: StructureParams;
  persistence: { on: boolean; reason?: string };
  restored: boolean;
  indexBackend: IndexBackend;
  /** The corpus map's background UMAP job, while it runs (and its last outcome). */
  map?: MapProgressMessage;
}

export interface InitOptions {
  /** Absolute URL of the self-hosted models folder (ending in /). */
  modelsUrl: string;
  /** Self-hosted ONNX Runtime files, so nothing is fetched from a CDN. */
  ortWasm: { mjs: string; wasm: string };
  /** ONNX Runtime threads (2+ needs cross-origin isolation). */
  threads: number;
  /** pdf.js's worker script URL (pdf.js runs its own worker from ours). */
  pdfWorkerUrl: string;
  /** voy-search's wasm, for the optional k-d tree index. */
  voyWasm: string;
  /** Skip restoring the persisted corpus (tests, "clear"). */
  fresh?: boolean;
  /**
   * Fault injection for the robustness tests (the page's URL hash #faults): a file whose
   * name contains "__crash__" makes the worker throw while indexing it.
   */
  faults?: boolean;
}

export interface InputFileMessage {
  name: string;
  bytes: ArrayBuffer;
  lastModified?: number;
}

export type Request =
  | { id: number; type: 'init'; options: InitOptions }
  | { id: number; type: 'addFiles'; files: InputFileMessage[] }
  | { id: number; type: 'addText'; name: string; text: string }
  | { id: number; type: 'loadEmbedder'; choice: ModelChoice | null }
  | { id: number; type: 'loadReranker'; choice: ModelChoice | null }
  | { id: number; type: 'setStructure'; structure: StructureParams }
  /** `variants`: the LLM's rewrites of the query (without it), for query-fusion columns. */
  | { id: number; type: 'search'; query: string; params: RetrievalParams; columns: ColumnSpec[]; variants?: string[] }
  | { id: number; type: 'getDocument'; docId: string }
  | { id: number; type: 'removeDocument'; docId: string }
  /** Sets (or with null, drops) a document's title and summary for contextual headers; its units are embedded again. */
  | { id: number; type: 'setDocumentContext'; docId: string; context: DocumentContext | null }
  | { id: number; type: 'clear' }
  | { id: number; type: 'saveParams'; params: unknown }
  | { id: number; type: 'setIndexBackend'; backend: IndexBackend }
  | { id: number; type: 'setEmbedding'; running: boolean }
  | { id: number; type: 'evalImport'; files: InputFileMessage[] }
  | { id: number; type: 'evalRun'; spec: EvalRunSpec }
  | { id: number; type: 'evalQuestion'; questionId: string; points: EvalPointQuery[] }
  /**
   * The corpus map. 'pca' is computed at once (and cached); 'umap' answers from the cache, or
   * starts (or joins) the background UMAP job and answers at once with `running` — its
   * progress arrives in `WorkerStatus.map`, then ask again. Positions come without texts.
   */
  | { id: number; type: 'projection'; method: ProjectionMethod }
  /** The query's place on the map (and its true cosine to every highlighted sentence is asked by mapPoint). */
  | { id: number; type: 'mapQuery'; method: ProjectionMethod; query: string }
  /** What hover shows for one sentence, by global index: text, document, section, true cosine to the query. */
  | { id: number; type: 'mapPoint'; index: number; query: string }
  | { id: number; type: 'cancel'; target: number };

export type RequestType = Request['type'];

export type ProjectionMethod = 'pca' | 'umap';

/**
 * Positions of every sentence on the corpus map, with what colouring needs (small typed
 * arrays and short label tables; texts only on hover, by index).
 */
export interface ProjectionData {
  method: ProjectionMethod;
  /** The corpus state it was computed for (sentence count, embedder, structure, documents). */
  key: string;
  n: number;
  /** x, y per sentence (global sentence order). */
  xy: Float32Array;
  /** Document index per sentence (into docTitles). */
  doc: Int32Array;
  /** Section label index per sentence (into sections). */
  section: Int32Array;
  sections: string[];
  /** Language index per sentence (into languages). */
  language: Int32Array;
  languages: string[];
  docTitles: string[];
  /** Sentences the layout was fitted on (< n: UMAP was fitted on an evenly spaced subsample, the rest placed by neighbours). */
  fitted: number;
  /** How it was made, in words (shown on the map). */
  notes: string[];
  ms: number;
}

export type ProjectionResult =
  | { state: 'ready'; data: ProjectionData }
  | { state: 'running'; key: string; progress: MapProgressMessage | null }
  /** No map possible (no embedding model, vectors still being made, too few sentences): why, in words. */
  | { state: 'unavailable'; reason: string };

export interface MapPointInfo {
  index: number;
  text: string;
  docTitle: string;
  docId: string;
  sectionPath: string[];
  language: string;
  /** Document index, character span in the document, page, tokens: enough to open it in the document view. */
  doc: number;
  start: number;
  end: number;
  page?: number;
  tokens: number;
  /** True cosine between the sentence's vector and the query's (null without a query). */
  cosine: number | null;
}

/** A labelled set as imported: what it holds and what was skipped (by line). */
export interface EvalSetSummary {
  name: string;
  format: 'squad' | 'beir' | 'simple';
  questions: number;
  /** Documents that came with the set (they replaced the corpus); 0 for question-only sets. */
  docs: number;
  skipped: string[];
}

/** What to sweep; dimensions not swept keep the view's current values. */
export interface EvalRunSpec {
  strategies: StrategyName[];
  retrievers: RetrieverName[];
  budgets: number[];
  /** Window before/after 0–5 × 0–5 instead of the current window. */
  windows: boolean;
  /** Merge thresholds 0.1–0.9 instead of the current one. */
  thresholds: boolean;
  /** RRF c × BM25 weight grid instead of the current fusion. */
  rrfGrid: boolean;
  /** Measure with contextual headers off and on (embeds the other variant). */
  headers: boolean;
  /** Measure with reranking off and on (needs a reranker). */
  rerank: boolean;
  /** The view's retrieval parameters, for every dimension not swept. */
  current: RetrievalParams;
  metric: MetricName;
}

export interface EvalPointView extends SweepPoint {
  headers: boolean;
}

export interface EvalRunResult {
  set: EvalSetSummary;
  points: EvalPointView[];
  recommendations: (Recommendation & { headers?: boolean })[];
  questions: { id: string; question: string; answers: string[] }[];
  ms: number;
}

/** One point, replayed for one question (the drill-down). */
export interface EvalPointQuery {
  strategy: StrategyName;
  retriever: RetrieverName;
  budgetTokens: number;
  params: Partial<RetrievalParams>;
  headers: boolean;
  rerank: boolean;
}

export interface EvalQuestionResult {
  question: { id: string; question: string; answers: string[] };
  points: { point: EvalPointQuery; found: boolean; firstRank: number | null; blocks: BlockView[]; totalTokens: number }[];
}

/** Per-file indexing progress. */
export interface FileProgress {
  kind: 'file';
  file: string;
  stage: 'parse' | 'split' | 'done' | 'failed' | 'duplicate';
  message?: string;
  index: number;
  total: number;
}

/** Embedding progress over the corpus (units of one kind). */
export interface EmbedProgressMessage {
  kind: 'embed';
  unit: UnitKind;
  done: number;
  total: number;
  /** Seconds left at the current rate, once known. */
  etaS?: number;
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

/** Evaluation progress: embedding a header variant, or questions done in a sweep pass. */
export interface EvalProgressMessage {
  kind: 'eval';
  phase: 'embed' | 'sweep';
  done: number;
  total: number;
  /** Which pass (e.g. "headers on"), when there are several. */
  pass?: string;
}

/** Corpus map progress: PCA, then UMAP's neighbour graph, its epochs, and placing the sentences left out of a subsampled fit. */
export interface MapProgressMessage {
  kind: 'map';
  method: ProjectionMethod;
  phase: 'pca' | 'graph' | 'epochs' | 'place' | 'done' | 'failed';
  done: number;
  total: number;
  /** The corpus state the job is for. */
  key: string;
  message?: string;
}

export type Progress = FileProgress | EmbedProgressMessage | ModelProgress | EvalProgressMessage | MapProgressMessage;

export interface AddResult {
  added: DocSummary[];
  errors: { file: string; message: string }[];
  duplicates: string[];
  cancelled: boolean;
}

export interface Results {
  init: { status: WorkerStatus; params: unknown };
  addFiles: AddResult;
  addText: AddResult;
  loadEmbedder: ModelStatus;
  loadReranker: ModelStatus;
  setStructure: WorkerStatus;
  search: { columns: ColumnResult[]; ms: number };
  getDocument: Document;
  removeDocument: WorkerStatus;
  setDocumentContext: WorkerStatus;
  clear: WorkerStatus;
  saveParams: null;
  setIndexBackend: WorkerStatus;
  setEmbedding: WorkerStatus;
  evalImport: EvalSetSummary;
  evalRun: EvalRunResult;
  evalQuestion: EvalQuestionResult;
  projection: ProjectionResult;
  mapQuery: { key: string; xy: [number, number] | null; how: string };
  mapPoint: MapPointInfo;
  cancel: boolean;
}

export type Response =
  | { id: number; type: 'progress'; progress: Progress }
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; message: string; cancelled?: boolean }
  | { id: null; type: 'status'; status: WorkerStatus }
  /** Tagged so pdf.js's own messages inside the worker are never mistaken for ours. */
  | { id: null; type: 'ready' };

export const PROTOCOL_TAG = 'rag-lab';
