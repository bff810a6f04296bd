/**
 * Connects the stores to the worker: start-up (restore, URL, models), indexing with
 * progress and cancel, searches on every parameter change, the document view.
 */
import type { RetrievalParams, StructureParams } from '../core/retrieve/params';
import type { DocumentContext } from '../core/types';
import { LOAD_REFUSED, type BlockView, type ColumnId, type ColumnResult, type ColumnSpec, type IndexBackend, type ModelChoice, type ModelProgress, type WorkerStatus } from '../worker/protocol';
import { RpcError } from '../rpc/wire';
import { isolationStatus } from '../browser/isolation';
import { keepUnchanged } from './doc-identity';
import { sizeProblem } from '../core/documents/load';
import { fusionVariants, useGeneration } from './generation';
import { useBundle } from './bundle-store';
import { bundleImportText, columnNoticeText, errorText, fileProblemText, fusionStateText } from './messages';
import { chosenColumns } from './columns';
import { columnDependencies } from './column-refresh';
import { labRequests } from './lab-requests';
import { perFrame } from './frame-coalesce';
import { doneRemoving, markRemoving, withoutRemoving } from './pending-removals';
import { tabMemory } from './tab-memory';
import { useCorpus, useEval, useModels, useResults, useView } from './stores';
import { decodeView, encodeView, normaliseColumns, shownColumnIds, type ViewState } from './url-state';
import { CRASHED, WorkerClient, type Pending } from './worker-client';

let client: WorkerClient | null = null;
let indexing: Pending<unknown> | null = null;
/** The bundle import under way (cancellable until its corpus is in place). */
let bundleImport: Pending<unknown> | null = null;
let searchSeq = 0;
/** What the shown columns depended on at the last status (column-refresh.ts). */
let lastDependencies = '';
let researchTimer: ReturnType<typeof setTimeout> | null = null;
let saveTimer: ReturnType<typeof setTimeout> | null = null;

function worker(): WorkerClient {
  if (!client) throw new Error('the lab has not started');
  return client;
}

/** Starts the worker, restores the saved corpus and parameters, applies the URL, loads models. */
export async function startLab(options: { fresh?: boolean } = {}): Promise<void> {
  // #faults turns on fault injection for the robustness tests, for the first worker only.
  const { status, params } = await connect(options.fresh, location.hash === '#faults');
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
  client = new WorkerClient();
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
    const dependencies = columnDependencies(status, chosenColumns(view.retrieval.retriever, view.columns));
    if (dependencies !== lastDependencies) {
      lastDependencies = dependencies;
      scheduleResearch(1000);
    }
  });
  const result = await client.request('init', { options: WorkerClient.initOptions(isolationStatus().threads, fresh, faults, tabMemory()) }).promise;
  useCorpus.setState({ status: result.status });
  return result;
}

let batch: File[] = [];

async function recover(message: string): Promise<void> {
  const { files } = useCorpus.getState();
  const failed = batch.filter((f) => files[f.name]?.stage !== 'done' && files[f.name]?.stage !== 'failed' && files[f.name]?.stage !== 'duplicate');
  useCorpus.setState((s) => ({
    indexing: false,
    retry: failed,
    problems: [...s.problems, `${message}. It was restarted; the documents indexed before are kept.${failed.length ? ` Not indexed: ${failed.map((f) => f.name).join(', ')}.` : ''}`],
    files: Object.fromEntries(Object.entries(s.files).filter(([, p]) => p.stage === 'done' || p.stage === 'failed' || p.stage === 'duplicate')),
  }));
  await connect();
  void loadModels(useView.getState().view);
}

/** Tries the files of an interrupted drop again. */
export function retryFailed(): void {
  const files = useCorpus.getState().retry;
  useCorpus.setState({ retry: [] });
  void addFiles(files);
}

async function loadModels(view: ViewState): Promise<void> {
  if (view.indexBackend !== 'auto') await worker().request('setIndexBackend', { backend: view.indexBackend }).promise;
  await Promise.all([loadModel('embedder', view.embedder), loadModel('reranker', view.reranker)]);
  void search();
}

async function loadModel(role: 'embedder' | 'reranker', choice: ModelChoice | null): Promise<void> {
  useModels.setState((s) => ({ progress: { ...s.progress, [role]: undefined } }));
  const onProgress = (p: ModelProgress) => {
    useModels.setState((s) => {
      const prev = s.progress[role]?.files ?? {};
      const files = p.file && p.total ? { ...prev, [p.file]: { loaded: p.loaded ?? 0, total: p.total } } : prev;
      return { progress: { ...s.progress, [role]: { ...p, files } } };
    });
  };
  await worker().request(role === 'embedder' ? 'loadEmbedder' : 'loadReranker', { choice }, { onProgress }).promise;
}

// ---- view changes ---------------------------------------------------------------

function writeUrl(view: ViewState): void {
  const q = encodeView(view);
  history.replaceState(null, '', `${location.pathname}${q ? `?${q}` : ''}${location.hash}`);
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => void worker().request('saveParams', { params: q }).promise.catch(() => undefined), 400);
}

function update(change: (v: ViewState) => void): ViewState {
  const view = structuredClone(useView.getState().view);
  change(view);
  useView.setState({ view });
  writeUrl(view);
  return view;
}

/** One search per animation frame, however many slider events came in it (the last values win). */
const searchThisFrame = perFrame(() => void search());

/** Retrieval-only parameters: new columns at the next frame, nothing re-embedded. */
export function setRetrieval(change: (r: RetrievalParams) => void): void {
  update((v) => change(v.retrieval));
  searchThisFrame();
}

export function setQuery(query: string): void {
  update((v) => (v.query = query));
}

/** Parameters that change embedded text: the worker rebuilds and re-embeds (variants are cached). */
export async function setStructure(change: (s: StructureParams) => void): Promise<void> {
  const view = update((v) => change(v.structure));
  try {
    await worker().request('setStructure', { structure: view.structure }).promise;
  } catch (e) {
    useResults.setState({ error: errorText(e) });
  }
  void search();
}

/** Switches the vector index; vectors move over, nothing is re-embedded. */
export async function setIndexBackend(backend: IndexBackend): Promise<void> {
  update((v) => (v.indexBackend = backend));
  await worker().request('setIndexBackend', { backend }).promise;
  void search();
}

export function setModel(role: 'embedder' | 'reranker', choice: ModelChoice | null): void {
  const view = update((v) => (v[role] = choice));
  void loadModel(role, view[role]).then(() => search());
}

// ---- corpus -----------------------------------------------------------------------

/** A .zip is a bundle to import (the worker checks for its manifest.json); loaders read no zip. */
const isBundle = (f: File) => /\.zip$/i.test(f.name) || f.type === 'application/zip' || f.type === 'application/x-zip-compressed';

/**
 * Adds files; each reports parse → split, then embedding shows per document. Bundles (.zip) are imported.
 * `force`: the user chose "Load anyway" for files the memory estimate refused.
 */
export async function addFiles(files: File[], options: { force?: boolean; language?: string } = {}): Promise<void> {
  const force = options.force === true;
  const bundles = files.filter(isBundle);
  files = files.filter((f) => !isBundle(f));
  if (bundles.length) await importBundles(bundles, force);
  if (!files.length) return;
  // Too-large files are refused here, before they are read into memory.
  const tooLarge = files.map((f) => sizeProblem(f.name, f.size)).filter((p): p is string => p !== null);
  files = files.filter((f) => sizeProblem(f.name, f.size) === null);
  if (tooLarge.length) useCorpus.setState((s) => ({ problems: [...s.problems, ...tooLarge] }));
  if (!files.length) return;
  batch = files;
  const payload = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: await f.arrayBuffer(), lastModified: f.lastModified, ...(options.language ? { language: options.language } : {}) })));
  useCorpus.setState({ indexing: true, files: Object.fromEntries(files.map((f, i) => [f.name, { kind: 'file', file: f.name, stage: 'parse', index: i, total: files.length }])) });
  const pending = worker().request(
    'addFiles',
    { files: payload, ...(force ? { force } : {}) },
    {
      onProgress: (p) => useCorpus.setState((s) => ({ files: { ...s.files, [p.file]: p } })),
      transfer: payload.map((p) => p.bytes),
    },
  );
  indexing = pending;
  try {
    const r = await pending.promise;
    const problems = [...r.errors.map((e) => fileProblemText(e.file, e.problem)), ...r.duplicates.map((d) => `${d}: the same content is already in the corpus`)];
    // Files refused as too large for the tab can be loaded anyway, on purpose.
    const refused = new Set(r.errors.filter((e) => e.problem.code === 'too-large').map((e) => e.file));
    if (refused.size) offerAnyway(files.filter((f) => refused.has(f.name)));
    if (r.cancelled) {
      // Files the worker never reached leave the list: they are not in the corpus.
      const reached = useCorpus.getState().files;
      const skipped = files.filter((f) => !['done', 'failed', 'duplicate'].includes(reached[f.name]?.stage ?? ''));
      useCorpus.setState((s) => ({ files: Object.fromEntries(Object.entries(s.files).filter(([name]) => !skipped.some((f) => f.name === name))) }));
      problems.push(`Indexing was cancelled; the documents added so far are kept.${skipped.length ? ` Not added: ${skipped.length} file${skipped.length === 1 ? '' : 's'}.` : ''}`);
    }
    useCorpus.setState((s) => ({ problems: [...s.problems, ...problems] }));
  } catch (e) {
    // A crash is reported once, by recover(), with what was kept and what can be retried.
    if (!(client?.crashed || (e instanceof RpcError && e.code === CRASHED))) {
      useCorpus.setState((s) => ({ problems: [...s.problems, errorText(e)] }));
    }
  } finally {
    indexing = null;
    useCorpus.setState({ indexing: false });
  }
  void search();
}

/**
 * Imports bundles one after another: documents, units and vectors join the corpus without
 * re-embedding. A refused bundle is one message naming its file; the corpus stays as it was.
 */
async function importBundles(files: File[], force = false): Promise<void> {
  for (const f of files) {
    useBundle.setState({ importing: { file: f.name, progress: { phase: 'unzip' } } });
    try {
      // The File itself: the worker reads only the entries an import needs out of it.
      const zip: Blob = f;
      const pending = worker().request(
        'importBundle',
        { name: f.name, zip, ...(force ? { force } : {}) },
        {
          onProgress: (progress) => {
            useBundle.setState({ importing: { file: f.name, progress } });
            // The corpus is in place; storing it in the browser goes on meanwhile.
            if (progress.phase === 'store') void search();
          },
        },
      );
      bundleImport = pending;
      const { status, ...summary } = await pending.promise;
      useCorpus.setState({ status });
      // An empty corpus takes the bundle's chunking: the view (and the URL) say so.
      update((v) => (v.structure = status.structure));
      useBundle.setState({ imported: { file: f.name, summary } });
    } catch (e) {
      // A crash is reported once, by recover().
      if (!(client?.crashed || (e instanceof RpcError && e.code === CRASHED))) {
        useCorpus.setState((s) => ({ problems: [...s.problems, bundleImportText(f.name, e)] }));
        if (e instanceof RpcError && e.code === LOAD_REFUSED && !e.cancelled) offerAnyway([f]);
      }
    } finally {
      bundleImport = null;
      useBundle.setState({ importing: null });
    }
  }
  void search();
}

export async function addText(text: string): Promise<void> {
  const n = (useCorpus.getState().status?.docs.length ?? 0) + 1;
  const r = await worker().request('addText', { name: `Pasted text ${n}`, text }).promise;
  const problems = [...r.errors.map((e) => fileProblemText(e.file, e.problem)), ...r.duplicates.map(() => 'This text is already in the corpus.')];
  if (problems.length) useCorpus.setState((s) => ({ problems: [...s.problems, ...problems] }));
  void search();
}

/** Fetches the shipped sample documents (same origin) and adds them like dropped files. */
export async function loadSampleCorpus(): Promise<void> {
  const base = new URL('./samples/', document.baseURI);
  const manifest = (await (await fetch(new URL('manifest.json', base))).json()) as { documents: { file: string }[] };
  const files = await Promise.all(
    manifest.documents.map(async (d) => new File([await (await fetch(new URL(d.file, base))).arrayBuffer()], d.file.split('/').pop()!)),
  );
  await addFiles(files);
}

/** Files refused as too large for the tab, offered for "Load anyway" (until loaded, dismissed or cleared). */
function offerAnyway(files: File[]): void {
  useCorpus.setState((s) => ({ oversized: [...s.oversized.filter((o) => !files.some((f) => f.name === o.name)), ...files] }));
}

/** Loads the refused files anyway: the estimate may be wrong, and a big machine may hold them. */
export function loadAnyway(): void {
  const files = useCorpus.getState().oversized;
  useCorpus.setState({ oversized: [] });
  void addFiles(files, { force: true });
}

/** Stops a bundle's import: nothing of it is added, and the corpus stays as it was. */
export function cancelLoading(): void {
  void bundleImport?.cancel();
}

/** Stops adding files (those done are kept) and pauses embedding (BM25 keeps working). */
export function cancelIndexing(): void {
  void indexing?.cancel();
  void setEmbedding(false);
}

/** Pauses or resumes the background embedding; what is embedded stays searchable. */
export async function setEmbedding(running: boolean): Promise<void> {
  await worker().request('setEmbedding', { running }).promise;
}

/** The document leaves the list at once; the worker's engine without it follows (pending-removals.ts). */
export async function removeDocument(docId: string): Promise<void> {
  markRemoving(docId);
  const shown = useCorpus.getState().status;
  if (shown) useCorpus.setState({ status: withoutRemoving(shown) });
  try {
    const status = await worker().request('removeDocument', { docId }).promise;
    doneRemoving(docId);
    useCorpus.setState({ status });
  } catch (e) {
    // Not removed: it comes back with the next status, and the page says why.
    doneRemoving(docId);
    useCorpus.setState((s) => ({ problems: [...s.problems, errorText(e)] }));
  }
  if (useResults.getState().selected?.block.docId === docId) useResults.setState({ selected: null, document: null });
  void search();
}

/** Sets a document's title and summary for contextual headers (null: back to its own title); its units are embedded again. */
export async function setDocumentContext(docId: string, context: DocumentContext | null): Promise<void> {
  await worker().request('setDocumentContext', { docId, context }).promise;
  void search();
}

export async function clearCorpus(): Promise<void> {
  await worker().request('clear', {}).promise;
  useResults.setState({ columns: [], selected: null, document: null });
  useCorpus.setState({ files: {}, problems: [], oversized: [] });
  useBundle.setState({ imported: null });
}


export function dismissProblems(): void {
  useCorpus.setState({ problems: [], oversized: [] });
}

// ---- search -----------------------------------------------------------------------

function scheduleResearch(ms: number): void {
  if (researchTimer || !useView.getState().view.query.trim()) return;
  researchTimer = setTimeout(() => {
    researchTimer = null;
    void search();
  }, ms);
}

/** Runs every column for the current question; an older answer never overwrites a newer one. */
export async function search(): Promise<void> {
  const { view } = useView.getState();
  if (!client || !view.query.trim()) return;
  const seq = ++searchSeq;
  useResults.setState({ searching: true });
  try {
    // Only the columns the user chose are searched: fewer columns answer sooner.
    const columns: ColumnSpec[] = chosenColumns(view.retrieval.retriever, view.columns);
    // Query fusion: the generator's variants of this question, once written (then search again).
    const asked = view.query.trim();
    const variants = fusionVariants(asked, () => {
      if (useView.getState().view.query.trim() === asked) void search();
    });
    const r = await worker().request('search', { query: view.query, params: view.retrieval, columns, ...(variants ? { variants } : {}) }).promise;
    if (seq !== searchSeq) return;
    useResults.setState({ columns: worded(r.columns, asked), ms: r.ms, error: null, searching: false });
  } catch (e) {
    if (seq !== searchSeq) return;
    useResults.setState({ error: errorText(e), searching: false });
  }
}

/**
 * The worker's notices become notes, first; the fusion column says what the generator is
 * doing with the question, in place of the worker's generic notice.
 */
function worded(columns: ColumnResult[], asked: string): ColumnResult[] {
  const f = useGeneration.getState().fusion;
  const fusionNote = f && f.query === asked && f.state !== 'ready' ? fusionStateText({ ...f, state: f.state }) : null;
  return columns.map(({ column, result: { notices, ...result } }) => ({
    column,
    result: { ...result, notes: column.fusion && fusionNote ? [fusionNote] : [...(notices ?? []).map(columnNoticeText), ...result.notes] },
  }));
}

/** Opens a block in the document view (the document's text comes from the worker once). */
export async function openBlock(block: BlockView, column: ColumnSpec): Promise<void> {
  useResults.setState({ selected: { block, column } });
  const current = useResults.getState().document;
  if (current?.id === block.docId) return;
  const doc = await worker().request('getDocument', { docId: block.docId }).promise;
  if (useResults.getState().selected?.block.docId === doc.id) useResults.setState({ document: doc });
}

export function closeDocument(): void {
  useResults.setState({ selected: null });
}

// ---- choosing and comparing columns ---------------------------------------------------

/** Shows these columns in this order (null: all); a compared pair that is no longer shown ends compare mode. */
export function setColumns(ids: ColumnId[] | null): void {
  update((v) => {
    v.columns = normaliseColumns(ids);
    const shown = shownColumnIds(v);
    if (v.compare && !v.compare.every((id) => shown.includes(id))) v.compare = null;
  });
  void search();
}

/** Compare two: these two shown columns side by side (null: back to all columns). */
export function setCompare(pair: [ColumnId, ColumnId] | null): void {
  update((v) => (v.compare = pair && pair[0] !== pair[1] && pair.every((id) => shownColumnIds(v).includes(id)) ? pair : null));
}

// Sentence spans for compare mode and the evaluation lab's requests (lab-requests.ts).
export type { SentenceSpan } from './lab-requests';
export const { sentenceSpans, importEvalSet, runEvaluation, cancelEvaluation, openEvalQuestion, closeEvalQuestion } = labRequests(worker);

/** A document's whole text, from the worker (for writing its header title and summary). */
export async function getDocumentText(docId: string): Promise<string> {
  const doc = useResults.getState().document;
  if (doc?.id === docId) return doc.text;
  return (await worker().request('getDocument', { docId }).promise).text;
}

// ---- corpus map (src/state/map.ts) ------------------------------------------------------

/** The worker client, for the corpus map's store; null before the lab has started. */
export function labWorker(): WorkerClient | null {
  return client;
}
