/**
 * The corpus from the page: files and bundles added (with progress, cancel and "Load anyway"),
 * pasted text, the sample corpus, removal, contextual-header text, clearing.
 */
import { sizeProblem } from '../core/documents/size-check';
import type { DocumentContext } from '../core/types';
import { RpcError } from '../rpc/wire';
import { LOAD_REFUSED } from '../worker/protocol';
import { useBundle } from './bundle-store';
import { labWorker, worker } from './lab-client';
import { bundleImportText, errorText, fileProblemText } from './messages';
import { doneRemoving, forgetRemovals, markRemoving, removingTitles, withoutRemoving } from './pending-removals';
import { search } from './searches';
import { useCorpus, useResults } from './stores';
import { update } from './view-actions';
import { CRASHED, type Pending } from './worker-client';

let indexing: Pending<unknown> | null = null;
/** The bundle import under way (cancellable until its corpus is in place). */
let bundleImport: Pending<unknown> | null = null;
/** The files of the last drop (a crash offers those not indexed for a retry). */
let batch: File[] = [];

export function lastBatch(): File[] {
  return batch;
}

/** Tries the files of an interrupted drop again. */
export function retryFailed(): void {
  const files = useCorpus.getState().retry;
  useCorpus.setState({ retry: [] });
  void addFiles(files);
}

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
    if (!(labWorker()?.crashed || (e instanceof RpcError && e.code === CRASHED))) {
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
      if (!(labWorker()?.crashed || (e instanceof RpcError && e.code === CRASHED))) {
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
  const shown = useCorpus.getState().status;
  markRemoving(docId, shown?.docs.find((d) => d.id === docId)?.title);
  useCorpus.setState({ removing: removingTitles(), ...(shown ? { status: withoutRemoving(shown) } : {}) });
  try {
    const status = await worker().request('removeDocument', { docId }).promise;
    doneRemoving(docId);
    useCorpus.setState({ status: withoutRemoving(status), removing: removingTitles() });
  } catch (e) {
    // Not removed: it comes back with the next status, and the page says why.
    doneRemoving(docId);
    useCorpus.setState((s) => ({ removing: removingTitles(), problems: [...s.problems, errorText(e)] }));
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
  try {
    await worker().request('clear', {}).promise;
  } catch (e) {
    // Refused (another tab owns the lab) or failed: nothing was cleared, and the page says why.
    useCorpus.setState((s) => ({ problems: [...s.problems, errorText(e)] }));
    return;
  }
  forgetRemovals();
  useResults.setState({ columns: [], selected: null, document: null });
  useCorpus.setState({ files: {}, problems: [], oversized: [], removing: [] });
  useBundle.setState({ imported: null });
}

export function dismissProblems(): void {
  useCorpus.setState({ problems: [], oversized: [] });
}
