/** The lab protocol's bundles (joined into LabApi in protocol.ts): export to a .zip, import from one. */
import type { ExportTransform } from '../core/export/transform-code';
import type { RetrievalParams, RetrieverName, StrategyName, UnitKind } from '../core/retrieve/params';
import type { WorkerStatus } from './corpus-protocol';

/**
 * A bundle that cannot be imported or verified (another model, a truncated or corrupt zip or
 * file, an unknown format version, a missing column…): the core's one sentence, as data.
 */
export const BUNDLE_REFUSED = 'bundle-refused';
export interface BundleRefusal {
  message: string;
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
  /** The Generator panel's query transformation, recorded with framework code (it runs before retrieval). */
  queryTransform?: ExportTransform;
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
