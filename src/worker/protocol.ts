/**
 * What the page and the indexing/search worker say to each other: `LabApi`, one entry per
 * method (parameters, result, progress), carried by the RPC of src/rpc; `status` events
 * describe the corpus. The worker answers with codes and data; the page words them
 * (src/state/messages.ts). The messages' types live by method group in *-protocol.ts and are
 * re-exported here, so callers import them from one place.
 */
import type { EmbeddingSendPlan } from '../core/embed/endpoint-choice';
import type { StructureParams } from '../core/retrieve/params';
import type { Document, DocumentContext } from '../core/types';
import { RpcError, type RpcMethod } from '../rpc/wire';
import type { ExportProgress, ExportRequest, ExportSummary, ImportProgress, ImportSummary } from './bundle-protocol';
import type { AddResult, FileProgress, IndexBackend, InitOptions, InputFileMessage, WorkerStatus } from './corpus-protocol';
import type { EvalPointQuery, EvalProgressMessage, EvalQuestionResult, EvalRunResult, EvalRunSpec, EvalSetSummary } from './eval-protocol';
import type { MapPointInfo, MapProgressMessage, MapQueryResult, ProjectionMethod, ProjectionResult } from './map-protocol';
import type { ModelChoice, ModelProgress, ModelStatus } from './model-protocol';
import type { QuestionGenerationApi } from './question-generation-protocol';
import type { QuestionApi, QuestionEvalChoice } from './question-protocol';
import type { ContextApi } from './context-protocol';
import type { SearchFirst, SearchRequest } from './search-protocol';

export * from './bundle-protocol';
export * from './context-protocol';
export * from './corpus-protocol';
export * from './eval-protocol';
export * from './map-protocol';
export * from './model-protocol';
export * from './search-protocol';

/** The tag on every message of the lab's protocol. */
export const LAB_TAG = 'rag-lab';

/** Codes of the lab's own errors (RpcError.code); the page words them. Errors of the core arrive as 'failed' with their message. */
export type LabErrorCode = 'document-gone' | 'sentence-gone' | 'no-eval-set' | 'export-empty' | 'bad-language' | 'read-only';

export function labError(code: LabErrorCode): RpcError<LabErrorCode> {
  return new RpcError(code);
}

/**
 * Every method of the lab worker. Which of them run concurrently is declared beside their
 * handlers (src/worker/worker.ts).
 */
export type LabApi = QuestionApi & QuestionGenerationApi & ContextApi & {
  init: RpcMethod<{ options: InitOptions }, { status: WorkerStatus; params: unknown }>;
  /** `force`: load files the memory estimate would refuse (the user chose "Load anyway"). */
  addFiles: RpcMethod<{ files: InputFileMessage[]; force?: boolean }, AddResult, FileProgress>;
  addText: RpcMethod<{ name: string; text: string }, AddResult>;
  loadEmbedder: RpcMethod<{ choice: ModelChoice | null }, ModelStatus, ModelProgress>;
  loadReranker: RpcMethod<{ choice: ModelChoice | null }, ModelStatus, ModelProgress>;
  setStructure: RpcMethod<{ structure: StructureParams }, WorkerStatus>;
  /** With `first`: those columns come as one progress message, and the result holds the others. */
  search: RpcMethod<SearchRequest, SearchFirst & { ms: number }, SearchFirst>;
  getDocument: RpcMethod<{ docId: string }, Document>;
  removeDocument: RpcMethod<{ docId: string }, WorkerStatus>;
  /** Sets (or with null, drops) a document's title and summary for contextual headers; its units are embedded again. */
  setDocumentContext: RpcMethod<{ docId: string; context: DocumentContext | null }, WorkerStatus>;
  /** Sets a document's language (the user's choice, a BCP-47 tag): only that document is split, indexed and embedded again. */
  setDocumentLanguage: RpcMethod<{ docId: string; language: string }, WorkerStatus>;
  clear: RpcMethod<Record<string, never>, WorkerStatus>;
  /** What embedding the whole corpus with a new model would send (an endpoint's consent). */
  sendPlan: RpcMethod<Record<string, never>, EmbeddingSendPlan>;
  saveParams: RpcMethod<{ params: unknown }, null>;
  setIndexBackend: RpcMethod<{ backend: IndexBackend }, WorkerStatus>;
  setEmbedding: RpcMethod<{ running: boolean }, WorkerStatus>;
  evalImport: RpcMethod<{ files: InputFileMessage[] }, EvalSetSummary>;
  evalRun: RpcMethod<{ spec: EvalRunSpec }, EvalRunResult, EvalProgressMessage>;
  evalQuestion: RpcMethod<{ questionId: string; points: EvalPointQuery[] }, EvalQuestionResult>;
  /** The questions a run would ask (answerable, then unanswerable), for the page to write their rewrites before the run. */
  evalQuestionTexts: RpcMethod<{ questions?: QuestionEvalChoice }, string[]>;
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
  /** This tab's page now holds the lab's lock (src/state/lab-owner.ts): it reads what is stored, then writes and embeds. */
  own: RpcMethod<Record<string, never>, WorkerStatus>;
  /** Another tab takes the lab: what this one made is stored, then it writes nothing more (answered before the page lets the lock go). */
  yieldLab: RpcMethod<Record<string, never>, WorkerStatus>;
};

export type LabEvents = { status: WorkerStatus };
