/**
 * Connects the stores to the worker: start-up (restore, URL, models) and a crashed worker's
 * replacement. What the page asks of the lab lives by concern — corpus-actions.ts (files,
 * bundles, documents), view-actions.ts (parameters, models, columns), searches.ts (search,
 * the document view), lab-requests.ts (compare mode, evaluation) — and is re-exported here,
 * the components' one entry point.
 */
import { isolationStatus } from '../browser/isolation';
import type { WorkerStatus } from '../worker/protocol';
import { chosenColumns } from './columns';
import { columnDependencies } from './column-refresh';
import { lastBatch, removeDocument } from './corpus-actions';
import { keepUnchanged } from './doc-identity';
import { labWorker, setLabClient, worker } from './lab-client';
import { claimLab, followOwner, ownsLab } from './lab-owner';
import { labRequests } from './lab-requests';
import { pendingAtStart, withoutRemoving } from './pending-removals';
import { scheduleResearch, search } from './searches';
import { useCorpus, useView } from './stores';
import { tabMemory } from './tab-memory';
import { decodeView } from './url-state';
import { loadModels, writeUrl } from './view-actions';
import { WorkerClient } from './worker-client';

export { addFiles, addText, cancelIndexing, cancelLoading, clearCorpus, dismissProblems, loadAnyway, removeDocument, retryFailed, setDocumentContext, setEmbedding } from './corpus-actions';
export { closeDocument, getDocumentText, openBlock, search } from './searches';
export { endpointSendPlan, setColumns, setCompare, setIndexBackend, setModel, setQuery, setRetrieval, setStructure } from './view-actions';
/** The worker client, for the corpus map's store; null before the lab has started. */
export { labWorker } from './lab-client';

/** What the shown columns depended on at the last status (column-refresh.ts), and how often the worker had read another tab's changes. */
let lastDependencies = '';
let lastFollowed = 0;

/**
 * Several tabs (lab-owner.ts): this tab got the lab (the owner's tab closed, or *Use it here*):
 * its worker reads what is stored and takes over, then removals an earlier page asked for are done.
 */
async function gainedLab(): Promise<void> {
  const client = labWorker();
  // Not started yet: the worker starts as the owner (connect reads ownsLab()).
  if (!client) return;
  const status = await client.request('own', {}).promise;
  useCorpus.setState({ status: withoutRemoving(status) });
  for (const id of pendingAtStart(status.docs)) void removeDocument(id);
  void search();
}

/** This tab hands the lab over: its worker stores what it made, then writes nothing more. */
async function yieldedLab(): Promise<void> {
  const status = await labWorker()?.request('yieldLab', {}).promise.catch(() => null);
  if (status) useCorpus.setState({ status: withoutRemoving(status) });
}

/** Starts the worker, restores the saved corpus and parameters, applies the URL, loads models. */
export async function startLab(options: { fresh?: boolean } = {}): Promise<void> {
  await claimLab({ gained: gainedLab, yielded: yieldedLab });
  // #faults turns on fault injection for the robustness tests, for the first worker only.
  const { status, params } = await connect(options.fresh, location.hash === '#faults');
  followOwner();
  // The URL wins over what was saved: a shared link shows what its sender saw.
  const saved = params && typeof params === 'string' ? params : '';
  const fromUrl = location.search.length > 1 ? location.search : saved;
  const { view, notices } = decodeView(fromUrl);
  if (status.restored) view.structure = status.structure;
  useView.setState({ view, notices });
  writeUrl(view);
  void loadModels(view);
  if (view.query) void search();
}

/**
 * A new worker, initialised from what is persisted. When a worker crashes it is replaced
 * the same way: the documents indexed so far come back from storage, models are loaded
 * again, and the files of the interrupted drop are offered for a retry.
 */
async function connect(fresh = false, faults = false): Promise<{ status: WorkerStatus; params: unknown }> {
  const client = new WorkerClient();
  setLabClient(client);
  client.onCrash((message) => void recover(message));
  client.onStatus((next) => {
    // While the model embeds, statuses differ only in progress: the document list keeps its
    // array (and each document its object), so components that read only documents can skip
    // re-rendering hundreds of them every second after a big import.
    const prev = useCorpus.getState().status;
    const shown = withoutRemoving(next);
    const status = prev ? { ...shown, docs: keepUnchanged(prev.docs, shown.docs) } : shown;
    useCorpus.setState({ status });
    // Anything a shown column depends on arrived (any kind's vectors, semantic chunks, an
    // imported set): its search runs again, at most once a second, so its notes are current.
    const view = useView.getState().view;
    const dependencies = columnDependencies(status, chosenColumns(view.retrieval.retriever, view.columns), view.retrieval);
    // Another tab's change read (documents, vectors, questions or contexts): the columns search again.
    const followed = status.lab?.followed ?? 0;
    if (dependencies !== lastDependencies || followed !== lastFollowed) {
      lastDependencies = dependencies;
      scheduleResearch(followed !== lastFollowed ? 0 : 1000);
      lastFollowed = followed;
    }
  });
  const owner = ownsLab();
  const result = await client.request('init', { options: WorkerClient.initOptions(isolationStatus().threads, fresh, faults, tabMemory(), owner) }).promise;
  useCorpus.setState({ status: withoutRemoving(result.status) });
  // Removals the last page asked for but did not see stored (it was reloaded or closed first): the tab that owns the lab does them.
  if (owner) for (const id of pendingAtStart(result.status.docs)) void removeDocument(id);
  return result;
}

async function recover(message: string): Promise<void> {
  const { files } = useCorpus.getState();
  const failed = lastBatch().filter((f) => files[f.name]?.stage !== 'done' && files[f.name]?.stage !== 'failed' && files[f.name]?.stage !== 'duplicate');
  useCorpus.setState((s) => ({
    indexing: false,
    retry: failed,
    problems: [...s.problems, `${message}. It was restarted; the documents indexed before are kept.${failed.length ? ` Not indexed: ${failed.map((f) => f.name).join(', ')}.` : ''}`],
    files: Object.fromEntries(Object.entries(s.files).filter(([, p]) => p.stage === 'done' || p.stage === 'failed' || p.stage === 'duplicate')),
  }));
  await connect();
  void loadModels(useView.getState().view);
}

// Sentence spans for compare mode and the evaluation lab's requests (lab-requests.ts).
export type { SentenceSpan } from './lab-requests';
export const { sentenceSpans, importEvalSet, runEvaluation, cancelEvaluation, openEvalQuestion, closeEvalQuestion } = labRequests(worker);
