/**
 * The lab protocol's corpus (joined into LabApi in protocol.ts): start-up options, files in,
 * what was added or refused, and the status the worker posts about documents, models and embedding.
 */
import type { Budget, TabMemory } from '../core/memory/load-estimate';
import type { StructureParams, UnitKind } from '../core/retrieve/params';
import type { DocumentContext, LanguageInfo } from '../core/types';
import type { MapProgressMessage } from './map-protocol';
import type { ModelStatus } from './model-protocol';

export type IndexBackend = 'auto' | 'flat' | 'voy' | 'ann';

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
  /** How its language was decided (detected: how sure; or the user's choice); absent when the file or dataset gave it. */
  languageInfo?: LanguageInfo;
  /** Units of this document embedded so far (sentences, leaves, chunks), for its progress bar. */
  embedded: { done: number; total: number };
}

export interface EmbeddingStatus {
  coverage: Record<UnitKind, { done: number; total: number }>;
  running: boolean;
  /** The user paused embedding: BM25 and the vectors made so far are used. */
  paused: boolean;
  /** The unit kind being embedded now, and seconds left at the current rate. */
  unit?: UnitKind;
  etaS?: number;
  /** Units embedded per second in this pass. */
  perSecond?: number;
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
  /** `lost`: the titles of documents left out of the last read of storage, their stored text unreadable. */
  persistence: { on: boolean; reason?: string; restored?: { vectors: number; semanticDocs: number; toEmbed: number; toCut: number }; lost?: string[] };
  restored: boolean;
  /** The file name of a bundle whose import was still being stored when the page closed: nothing of it was kept. */
  unfinishedImport?: string;
  indexBackend: IndexBackend;
  /** The corpus map's background UMAP job, while it runs (and its last outcome). */
  map?: MapProgressMessage;
  /** Situating contexts (lab-contexts.ts): a version that changes with them and their vectors, and how many per unit kind. */
  contexts?: { version: number; written: Partial<Record<string, number>>; problem?: string };
  /**
   * Several tabs: whether this one owns the lab (writes and embeds), and how many times it has
   * read what the owner stored since (the page reads the question set again when it moves).
   */
  lab?: { owner: boolean; followed: number };
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
  /** False: another tab owns the lab, and this one only shows what that one stores (until `own`). Absent: this tab owns it. */
  owner?: boolean;
  /**
   * Fault injection for the robustness tests (the page's URL hash #faults): a file whose
   * name contains "__crash__" makes the worker throw while indexing it; removing a document
   * whose file name contains "__slow__" waits 10 s before it is stored.
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

/** Why a file was not added: a loader's own sentence (core/documents), or a failure it did not expect. */
export type FileProblem = { code: 'rejected'; message: string } | { code: 'unreadable'; detail: string } | { code: 'too-large'; refusal: LoadRefusal };

export interface AddResult {
  added: DocSummary[];
  errors: { file: string; problem: FileProblem }[];
  duplicates: string[];
  cancelled: boolean;
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
