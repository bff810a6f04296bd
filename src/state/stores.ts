/**
 * The page's state, one zustand store per concern. Stores hold data and small setters;
 * the controller (controller.ts) talks to the worker and keeps them up to date.
 */
import { create } from 'zustand';
import type { Document } from '../core/types';
import type {
  BlockView,
  ColumnResult,
  ColumnSpec,
  EvalProgressMessage,
  EvalQuestionResult,
  EvalRunResult,
  EvalSetSummary,
  FileProgress,
  ModelProgress,
  WorkerStatus,
} from '../worker/protocol';
import { defaultView, type ViewState } from './url-state';

/** The corpus as the worker reports it, plus per-file progress of the current drop. */
interface CorpusState {
  status: WorkerStatus | null;
  files: Record<string, FileProgress>;
  /** Messages about files that could not be added (kept until dismissed). */
  problems: string[];
  indexing: boolean;
  /** Files that were being indexed when the worker stopped: they can be tried again. */
  retry: File[];
  /** Files refused as too large for the tab's memory: the user may load them anyway. */
  oversized: File[];
  /** Titles of the documents being removed, until the worker has stored the corpus without them. */
  removing: string[];
}

export const useCorpus = create<CorpusState>(() => ({ status: null, files: {}, problems: [], indexing: false, retry: [], oversized: [], removing: [] }));

/** Everything that describes the view: question, retrieval and structure parameters, models. */
interface ViewStore {
  view: ViewState;
  /** Values from the URL that were clamped or ignored. */
  notices: string[];
}

export const useView = create<ViewStore>(() => ({ view: defaultView(), notices: [] }));

interface ResultsState {
  columns: ColumnResult[];
  searching: boolean;
  /** The columns in sight hold the new answer, the others still the last one (searches.ts): it comes in two messages. */
  partial: boolean;
  error: string | null;
  ms: number | null;
  /** The block opened in the document view, with the column it came from. */
  selected: { block: BlockView; column: ColumnSpec } | null;
  document: Document | null;
}

export const useResults = create<ResultsState>(() => ({ columns: [], searching: false, partial: false, error: null, ms: null, selected: null, document: null }));

interface ModelsState {
  progress: Partial<Record<'embedder' | 'reranker', ModelProgress & { files: Record<string, { loaded: number; total: number }> }>>;
}

export const useModels = create<ModelsState>(() => ({ progress: {} }));

/** The evaluation lab: the imported set, the last run, progress, the drill-down. */
interface EvalState {
  set: EvalSetSummary | null;
  importError: string | null;
  running: boolean;
  progress: EvalProgressMessage | null;
  result: EvalRunResult | null;
  runError: string | null;
  question: EvalQuestionResult | null;
}

export const useEval = create<EvalState>(() => ({ set: null, importError: null, running: false, progress: null, result: null, runError: null, question: null }));

/** Which view the page shows: exploring one question, or measuring on a labelled set. */
export const useTab = create<{ tab: 'explore' | 'evaluate' }>(() => ({ tab: 'explore' }));

export { columnsFor } from './columns';
