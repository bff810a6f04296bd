/**
 * The lab worker's side of bundles: export the engine's corpus and one column as a .zip,
 * and read a dropped .zip into a new engine (the session then adopts it). Failures the user
 * can act on travel as BUNDLE_REFUSED with the core's one sentence.
 */
import { version as labVersion } from '../../package.json';
import type { Embedder } from '../core/embed/embedder';
import type { RetrievalEngine } from '../core/engine';
import type { EvalSet } from '../core/eval/dataset';
import { exportBundle } from '../core/export/bundle';
import { labelledGoldenInputs, type QuestionInput } from '../core/export/golden';
import { MANIFEST } from '../core/export/format';
import { importBundle, type BundleReads, type ImportOptions, type ImportResult } from '../core/export/import';
import { parseManifest, type Manifest } from '../core/export/manifest';
import { retrievalParams } from '../core/retrieve/params';
import { asRefusal } from './bundle-refusal';
import { openBundleBlob, unzipBundle, zipBundle } from './bundle-zip';
import { labError, type ExportProgress, type ExportRequest, type ExportSummary } from './protocol';

/**
 * The golden run's questions: the labelled set's (with answers and targets in this corpus), the
 * corpus's question set (answerable questions with their gold spans), or typed ones.
 */
export function goldenQuestions(req: ExportRequest, engine: RetrievalEngine, evalSet: EvalSet | null): QuestionInput[] {
  if (req.questions.source === 'question-set') {
    const { inputs } = labelledGoldenInputs(req.questions.questions, engine.corpus.docs.map((d) => d.id));
    // Arrives as 'failed' with this sentence (no lab error code fits: the set exists but has nothing to find).
    if (!inputs.length) throw new Error('the question set has no answerable question in these documents (unanswerable ones, and those whose documents were removed, have nothing to find)');
    return inputs;
  }
  if (req.questions.source === 'typed') {
    const typed = req.questions.questions.map((q) => q.trim()).filter(Boolean);
    return [...new Set(typed)].map((question, i) => ({ id: `typed-${i + 1}`, question }));
  }
  if (!evalSet) throw labError('no-eval-set');
  const ids = new Set(engine.corpus.docs.map((d) => d.id));
  const limit = Math.max(1, Math.floor(req.questions.limit));
  return evalSet.questions
    .filter((q) => q.targets.some((t) => ids.has(t.doc)))
    .slice(0, limit)
    .map((q) => ({ id: q.id, question: q.question, answers: q.answers, targets: q.targets.filter((t) => ids.has(t.doc)) }));
}

/** Exports the engine's corpus and the chosen column as a zipped bundle. */
export async function exportZip(engine: RetrievalEngine, req: ExportRequest, evalSet: EvalSet | null, progress: (p: ExportProgress) => void): Promise<ExportSummary> {
  if (!engine.corpus.docs.length) throw labError('export-empty');
  const questions = goldenQuestions(req, engine, evalSet);
  // The page's parameters are checked and clamped here too: the worker trusts no message.
  const params = retrievalParams(req.params);
  progress({ phase: 'export', done: 0, total: 1 });
  const t0 = performance.now();
  const result = await exportBundle(engine, { strategy: req.strategy, params, questions, labVersion, ...(req.queryTransform ? { queryTransform: req.queryTransform } : {}) });
  const exportMs = performance.now() - t0;
  const fileBytes = result.files.reduce((n, f) => n + f.bytes.length, 0);
  const t1 = performance.now();
  const zip = await zipBundle(result.files, (done, total) => progress({ phase: 'zip', done, total }));
  const m = result.manifest;
  return {
    zip,
    files: result.files.length,
    fileBytes,
    rawBytes: result.rawBytes,
    strategy: m.strategy,
    retriever: m.retriever,
    documents: m.corpus.documents,
    sentences: m.corpus.sentences,
    vectorKinds: [...m.vectors.kinds],
    model: m.embedding?.model ?? null,
    questions: questions.length,
    runs: countRuns(result.files),
    targets: m.targets.map((t) => ({ name: t.name, files: [...t.files], status: t.status })),
    exportMs,
    zipMs: performance.now() - t1,
  };
}

/** Golden runs in the bundle (retriever × strategy), read back from golden.json. */
function countRuns(files: { name: string; bytes: Uint8Array }[]): number {
  const golden = files.find((f) => f.name === 'golden.json');
  if (!golden) return 0;
  try {
    return (JSON.parse(new TextDecoder().decode(golden.bytes)) as { runs?: unknown[] }).runs?.length ?? 0;
  } catch {
    return 0;
  }
}

/** What an import leaves in the zip: JSONL and SQL carry the same data for other tools. */
const IMPORT_SKIPS = ['jsonl/', 'postgres/', 'frameworks/'];

/** How a bundle's import may be stopped before it reads its tables, or on the way. */
export interface ReadControl {
  /**
   * Called with the manifest before any table is read (from a dropped File, before they are
   * even read from it): throws to refuse the bundle (a corpus too large for the tab).
   */
  admit?: (manifest: Manifest) => void;
  /** Cancels the import between its steps; nothing is changed. */
  signal?: AbortSignal;
  /** Fault injection (#faults): every table read waits until the import is cancelled (at most a minute), as from a very slow disk. */
  slowReads?: boolean;
}

/**
 * Reads a dropped bundle zip into a new engine holding the open corpus plus the bundle's
 * documents and vectors. Only the manifest and the Parquet tables are unzipped; given the
 * dropped File itself (a Blob), only they are read from it, and the manifest first, alone:
 * `control.admit` sees it before any table is read. `into` is never changed. `engine`: the
 * vector index and reranker the new engine is built with (the session's, so it is adopted as it is).
 */
export async function readBundleZip(zip: Uint8Array | Blob, embedder: Embedder | null, into: RetrievalEngine, progress: (phase: 'unzip' | 'read') => void, engine: Pick<ImportOptions, 'vectorIndex' | 'reranker'> = {}, control: ReadControl = {}): Promise<ImportResult> {
  const { signal } = control;
  try {
    progress('unzip');
    let files: BundleReads;
    if (zip instanceof Uint8Array) {
      const all = unzipBundle(zip, { skip: IMPORT_SKIPS });
      control.admit?.(parseManifest(all.find((f) => f.name === MANIFEST)?.bytes));
      files = new Map(all.map((f) => [f.name, Promise.resolve(f.bytes)]));
    } else {
      // The manifest (and the few small files beside it) first: a refusal reads no table.
      const head = await openBundleBlob(zip, { skip: [...IMPORT_SKIPS, 'parquet/'] });
      control.admit?.(parseManifest(await head.get(MANIFEST)));
      signal?.throwIfAborted();
      // A dropped File: its entries are read while the import decodes those already there.
      files = await openBundleBlob(zip, { skip: IMPORT_SKIPS });
    }
    if (control.slowReads) files = slowed(files, signal);
    signal?.throwIfAborted();
    progress('read');
    return await importBundle(files, { embedder, into, ...engine, ...(signal ? { signal } : {}) });
  } catch (e) {
    throw asRefusal(e);
  }
}

/** Every table read held back until `signal` aborts (or a minute passes): a slow import, deterministically (fault injection). */
function slowed(files: BundleReads, signal: AbortSignal | undefined): BundleReads {
  const released = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 60_000);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  return new Map([...files].map(([name, bytes]) => [name, name === MANIFEST ? bytes : released.then(() => bytes)]));
}
