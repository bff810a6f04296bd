/**
 * What the page and the indexing/search worker say to each other: `LabApi`, one entry per
 * method (parameters, result, progress), carried by the RPC of src/rpc; `status` events
 * describe the corpus. The worker answers with codes and data; the page words them
 * (src/state/messages.ts).
 */
import type { StrategyResult } from '../core/engine';
import type { RetrievalParams, RetrieverName, StrategyName, StructureParams, UnitKind } from '../core/retrieve/params';
import type { ContextBlock, Document, DocumentContext } from '../core/types';
import type { Budget, TabMemory } from '../core/memory/load-estimate';
import type { MetricName, Recommendation, SweepPoint } from '../core/eval/sweep';
import { RpcError, type RpcMethod } from '../rpc/wire';
import type { QuestionGenerationApi } from './question-generation-protocol';
import type { QuestionApi, QuestionEvalChoice, QuestionRunInfo, QuestionSourceOf } from './question-protocol';

/** The tag on every message of the lab's protocol. */
export const LAB_TAG = 'rag-lab';

export type Dtype = 'fp32' | 'fp16' | 'q8' | 'q4';
export type IndexBackend = 'auto' | 'flat' | 'voy' | 'ann';
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

/** A column: one per strategy (its name), and the hybrid, reranked and query-fusion comparisons. */
export type ColumnId = StrategyName | 'fusion' | 'hybrid' | 'reranked';

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
  /** Pages are slides (.pptx, .odp): the block cites "slide 7". */
  pageUnit?: 'slide';
  /** The block's text was read by OCR: the lowest confidence (0–100) of its OCR'd paragraphs. */
  ocrConfidence?: number;
  /** Character spans of the retrieved sentences, relative to block.text. */
  hitSpans: [number, number][];
  /** Mean similarity of the block's sentences to the query and to each other (needs sentence vectors). */
  coherence?: { toQuery: number; internal: number | null };
  /** The chunk-tree node around the block (character span in the document), when there is one. */
  parent?: { start: number; end: number; level: number; tokens: number };
  /** Query fusion: indices into the column's `variants` (0 = the question) whose retrieval found this block. */
  foundBy?: number[];
}

/** What the lab says about a column besides the engine's notes; the page words it. */
export type ColumnNotice =
  /** A query-fusion column without variants: it needs a generator to write them. */
  | { code: 'fusion-needs-generator' }
  /** The variants only repeated the question: the question was searched alone. */
  | { code: 'fusion-repeats-question' };

export interface ColumnResult {
  column: ColumnSpec;
  /** `variants`: a query-fusion column's queries, the question first. `notices`: see ColumnNotice (worded into `notes` by the page). */
  result: Omit<StrategyResult, 'blocks'> & { blocks: BlockView[]; variants?: string[]; notices?: ColumnNotice[] };
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
  /** Why it failed. */
  failure?: ModelFailure;
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
  /** Units embedded by this worker since it started (semantic chunks apart, as in DocSummary.embedded; restored vectors not counted) and documents whose semantic chunks it cut. */
  made: { units: number; semanticDocs: number };
  error?: string;
}

export interface WorkerStatus {
  docs: DocSummary[];
  embedder: ModelStatus;
  reranker: ModelStatus;
  embedding: EmbeddingStatus;
  structure: StructureParams;
  /** `restored`: what the last model load took from storage (vectors, documents' semantic chunks). */
  persistence: { on: boolean; reason?: string; restored?: { vectors: number; semanticDocs: number; toEmbed: number; toCut: number } };
  restored: boolean;
  /** The file name of a bundle whose import was still being stored when the page closed: nothing of it was kept. */
  unfinishedImport?: string;
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
  /**
   * What the browser says about its memory (read by the page: performance.memory is not
   * exposed in workers), from which the worker's load budget is set (core/memory/load-estimate.ts).
   */
  memory?: TabMemory;
}

export interface InputFileMessage {
  name: string;
  bytes: ArrayBuffer;
  lastModified?: number;
  /** The language the user chose for the file (OCR reads in it; detection is skipped). */
  language?: string;
}

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
  /** How it was made (the page words it beside the map). */
  about: ProjectionAbout;
  ms: number;
}

export type ProjectionAbout =
  /** `variance`: share of variance along x and y; `nonFinite`: sentences whose vector had NaN or infinity (drawn from zeros). */
  | { method: 'pca'; variance: [number, number]; nonFinite: number }
  /** umap-js's epochs; `subsampled`: fitted on `fitted` of `n` sentences, the rest placed at the mean of their `placeK` nearest fitted ones. */
  | { method: 'umap'; epochs: number; subsampled: boolean; placeK: number };

/** Why there is no map (or no UMAP view); the page words it. */
export type MapUnavailable =
  | { code: 'no-embedder' }
  | { code: 'no-documents' }
  | { code: 'vectors-missing'; done: number; total: number; paused: boolean }
  | { code: 'umap-too-few'; min: number }
  | { code: 'umap-failed'; message: string };

export type ProjectionResult =
  | { state: 'ready'; data: ProjectionData }
  | { state: 'running'; key: string; progress: MapProgressMessage | null }
  | { state: 'unavailable'; reason: MapUnavailable };

/** How the query was placed on the map: exactly (PCA), or among its k nearest sentences (UMAP). */
export type QueryPlacement = { method: 'pca' } | { method: 'umap'; k: number };

export interface MapQueryResult {
  key: string;
  xy: [number, number] | null;
  how: QueryPlacement | null;
}

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
  /** 'questions': the corpus's own question set (question-set.ts), not an imported file. */
  format: 'squad' | 'beir' | 'simple' | 'questions';
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
  /** Run on the corpus's question set (all, marked or generated questions) instead of the imported set. */
  questions?: QuestionEvalChoice;
}

export interface EvalPointView extends SweepPoint {
  headers: boolean;
}

export interface EvalRunResult {
  set: EvalSetSummary;
  points: EvalPointView[];
  recommendations: (Recommendation & { headers?: boolean })[];
  /** `source`: where each question came from (runs on the question set). */
  questions: { id: string; question: string; answers: string[]; source?: QuestionSourceOf }[];
  ms: number;
  /** Runs on the question set: where its questions came from, and what was left out. */
  questionSet?: QuestionRunInfo;
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
  index: number;
  total: number;
  /** While scanned pages are read by OCR: pages done of those to read, and the time left. */
  ocr?: { page: number; pages: number; remainingMs: number };
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

/** Why a file was not added: a loader's own sentence (core/documents), or a failure it did not expect. */
export type FileProblem = { code: 'rejected'; message: string } | { code: 'unreadable'; detail: string } | { code: 'too-large'; refusal: LoadRefusal };

export interface AddResult {
  added: DocSummary[];
  errors: { file: string; problem: FileProblem }[];
  duplicates: string[];
  cancelled: boolean;
}

/** Codes of the lab's own errors (RpcError.code); the page words them. Errors of the core arrive as 'failed' with their message. */
export type LabErrorCode = 'document-gone' | 'sentence-gone' | 'no-eval-set' | 'export-empty';

export function labError(code: LabErrorCode): RpcError<LabErrorCode> {
  return new RpcError(code);
}

/**
 * A bundle that cannot be imported or verified (another model, a truncated or corrupt zip or
 * file, an unknown format version, a missing column…): the core's one sentence, as data.
 */
export const BUNDLE_REFUSED = 'bundle-refused';
export interface BundleRefusal {
  message: string;
}

/**
 * A load refused before anything was read into the engine: the estimate said it would not fit
 * beside what the tab holds (RpcError code LOAD_REFUSED for a bundle; FileProblem 'too-large'
 * for a dropped document). Bytes are estimates; the page words them.
 */
export const LOAD_REFUSED = 'load-refused';
export interface LoadRefusal {
  file: string;
  /** A bundle (estimated from its manifest) or a document (from its file size). */
  source: 'bundle' | 'document';
  /** The file's size (a document's estimate is made from it). */
  fileBytes: number;
  sentences: number;
  /** Unit kinds whose vectors the load brings (a bundle) or the loaded model will make (a document). */
  vectorKinds: UnitKind[];
  /** Beyond what the tab holds: at the load's peak, and once loaded. */
  needBytes: number;
  loadedBytes: number;
  heldBytes: number;
  budget: Budget;
  /** 'heap': the text and sentence objects would not fit the JavaScript heap's cap (budget.heapBytes). */
  limit: 'budget' | 'heap';
  heapNeedBytes: number;
}

/** Which questions go into an exported bundle's golden run. */
export type ExportQuestions =
  /** The first `limit` questions of the imported labelled set (with their answers and targets). */
  | { source: 'eval-set'; limit: number }
  /** Questions the user typed (no answers: the golden run has ranks and blocks, no metrics). */
  | { source: 'typed'; questions: string[] }
  /** The corpus's question set (marked, generated, imported), with its gold spans: the bundle carries metrics too. */
  | { source: 'question-set'; questions: import('../core/questions/types').LabelledQuestion[] };

export interface ExportRequest {
  /** The exported column: its strategy, and `params.retriever` its retriever. */
  strategy: StrategyName;
  params: RetrievalParams;
  questions: ExportQuestions;
}

export interface ExportProgress {
  /** 'export': tables, SQL and the golden run (no finer progress); 'zip': bytes of files zipped. */
  phase: 'export' | 'zip';
  done: number;
  total: number;
}

export interface BundleTarget {
  name: string;
  files: string[];
  status: 'verified by tests' | 'generated only';
}

export interface ExportSummary {
  /** The bundle as a .zip (made in the worker; a Blob travels without copying its bytes). */
  zip: Blob;
  files: number;
  /** The bundle's files before zipping. */
  fileBytes: number;
  /** Float32 vectors of every exported unit kind + the documents' UTF-8 text. */
  rawBytes: number;
  strategy: StrategyName;
  retriever: RetrieverName;
  documents: number;
  sentences: number;
  /** Unit kinds whose vectors are in the bundle (kinds not fully embedded are left out). */
  vectorKinds: UnitKind[];
  model: string | null;
  questions: number;
  /** Golden runs (retriever × SQL strategy). */
  runs: number;
  targets: BundleTarget[];
  exportMs: number;
  zipMs: number;
}

export interface ImportProgress {
  /** 'unzip': reading the zip; 'read': tables, checks and vectors; 'store': kept in the browser (the corpus is in place: no longer cancellable). */
  phase: 'unzip' | 'read' | 'store';
}

export interface ImportSummary {
  /** Titles of the documents added, and of those already in the corpus (not added again). */
  added: string[];
  duplicates: string[];
  sentences: number;
  vectorKinds: UnitKind[];
  model: string | null;
  /** The column and parameters the bundle was exported with. */
  strategy: StrategyName;
  retriever: RetrieverName;
  params: RetrievalParams;
  status: WorkerStatus;
  ms: number;
  /** Where the time went: reading the zip, the tables, checks and vectors, storing in IndexedDB. */
  phaseMs: { unzip: number; read: number; store: number };
}

export interface SearchRequest {
  query: string;
  params: RetrievalParams;
  columns: ColumnSpec[];
  /** The LLM's rewrites of the query (without it), for query-fusion columns. */
  variants?: string[];
}

/**
 * Every method of the lab worker. Which of them run concurrently is declared beside their
 * handlers (src/worker/worker.ts).
 */
export type LabApi = QuestionApi & QuestionGenerationApi & {
  init: RpcMethod<{ options: InitOptions }, { status: WorkerStatus; params: unknown }>;
  /** `force`: load files the memory estimate would refuse (the user chose "Load anyway"). */
  addFiles: RpcMethod<{ files: InputFileMessage[]; force?: boolean }, AddResult, FileProgress>;
  addText: RpcMethod<{ name: string; text: string }, AddResult>;
  loadEmbedder: RpcMethod<{ choice: ModelChoice | null }, ModelStatus, ModelProgress>;
  loadReranker: RpcMethod<{ choice: ModelChoice | null }, ModelStatus, ModelProgress>;
  setStructure: RpcMethod<{ structure: StructureParams }, WorkerStatus>;
  search: RpcMethod<SearchRequest, { columns: ColumnResult[]; ms: number }>;
  getDocument: RpcMethod<{ docId: string }, Document>;
  removeDocument: RpcMethod<{ docId: string }, WorkerStatus>;
  /** Sets (or with null, drops) a document's title and summary for contextual headers; its units are embedded again. */
  setDocumentContext: RpcMethod<{ docId: string; context: DocumentContext | null }, WorkerStatus>;
  clear: RpcMethod<Record<string, never>, WorkerStatus>;
  saveParams: RpcMethod<{ params: unknown }, null>;
  setIndexBackend: RpcMethod<{ backend: IndexBackend }, WorkerStatus>;
  setEmbedding: RpcMethod<{ running: boolean }, WorkerStatus>;
  evalImport: RpcMethod<{ files: InputFileMessage[] }, EvalSetSummary>;
  evalRun: RpcMethod<{ spec: EvalRunSpec }, EvalRunResult, EvalProgressMessage>;
  evalQuestion: RpcMethod<{ questionId: string; points: EvalPointQuery[] }, EvalQuestionResult>;
  /**
   * The corpus map. 'pca' is computed at once (and cached); 'umap' answers from the cache, or
   * starts (or joins) the background UMAP job and answers at once with `running` — its
   * progress arrives in `WorkerStatus.map`, then ask again. Positions come without texts.
   */
  projection: RpcMethod<{ method: ProjectionMethod }, ProjectionResult, MapProgressMessage>;
  /** The query's place on the map. */
  mapQuery: RpcMethod<{ method: ProjectionMethod; query: string }, MapQueryResult>;
  /** What hover shows for one sentence, by global index: text, document, section, true cosine to the query. */
  mapPoint: RpcMethod<{ index: number; query: string }, MapPointInfo>;
  /** The corpus and one column's configuration as a bundle (.zip), with the golden run of the chosen questions. */
  exportBundle: RpcMethod<ExportRequest, ExportSummary, ExportProgress>;
  /**
   * A bundle's .zip added to the corpus without re-embedding (its vectors are taken as they
   * are). Refused (BUNDLE_REFUSED) with the corpus unchanged when anything does not fit;
   * refused (LOAD_REFUSED) from its manifest alone, before any table is read, when it would
   * not fit the tab's memory, unless `force`. Cancellable until the 'store' phase: a cancel
   * leaves the corpus and its storage as they were.
   */
  importBundle: RpcMethod<{ name: string; zip: ArrayBuffer | Blob; force?: boolean }, ImportSummary, ImportProgress>;
};

export type LabEvents = { status: WorkerStatus };

