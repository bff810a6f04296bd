/**
 * The page's words for what the workers answer as codes and data: column notices, why a
 * model or the map is unavailable, how the map was made, errors of the lab's own. The
 * workers never word anything for the page; everything a user reads from them is here.
 */
import { RpcError } from '../rpc/wire';
import type { QueryTransform } from '../core/transform/rewrites';
import type { TransformedQuery } from '../core/transform/retrieval';
import type { UnitKind } from '../core/retrieve/params';
import { BUNDLE_REFUSED, LOAD_REFUSED, type BundleRefusal, type LoadRefusal, type ColumnNotice, type ExportProgress, type FileProblem, type ImportProgress, type LabErrorCode, type MapUnavailable, type ModelFailure, type ProjectionData, type QueryPlacement } from '../worker/protocol';
import type { VerifyProgress } from '../worker/postgres-protocol';

const en = (n: number) => n.toLocaleString('en');

export function columnNoticeText(n: ColumnNotice): string {
  switch (n.code) {
    case 'fusion-needs-generator':
      return 'A query transformation needs an LLM to rewrite the question: choose a generator and a query transformation in the Generator panel, then press Ask.';
    case 'fusion-repeats-question':
      return 'the variants only repeat the question: this is the question searched alone';
  }
}

/** What the query-transformation column says while its rewrite is written, or when writing it failed. */
export function rewriteStateText(f: { state: 'writing' | 'failed'; transform: QueryTransform; generator: string; error?: string }): string {
  return f.state === 'writing' ? `Writing ${REWRITE_WORDS[f.transform]} with ${f.generator}…` : `The query transformation failed: ${f.error ?? 'no reply'}; this column stays empty.`;
}

const REWRITE_WORDS: Record<QueryTransform, string> = { none: 'nothing', multiquery: 'variants of the question', subquestions: 'sub-questions', hyde: 'a hypothetical answer', router: 'the route' };

/** How a query-transformation column names one of its queries: "question", "variant 2", "sub-question 1 → keyword_search", "hypothetical answer". */
export function queryLabel(q: Pick<TransformedQuery, 'role' | 'tool'>, i: number, queries: readonly Pick<TransformedQuery, 'role'>[] = []): string {
  const n = queries.slice(0, i + 1).filter((x) => x.role === q.role).length || 1;
  const name = q.role === 'question' ? 'question' : q.role === 'variant' ? `variant ${n}` : q.role === 'sub' ? `sub-question ${n}` : 'hypothetical answer';
  return q.tool ? `${name} → ${q.tool}` : name;
}

export function modelFailureText(f: ModelFailure): string {
  switch (f.code) {
    case 'not-found':
      return `model files not found at ${f.folder} (download them with npm run models:download, or choose the Hugging Face hub)`;
    case 'offline':
      return `could not download ${f.model} (offline, or the hub is blocked)`;
    case 'not-model-files':
      return `the server did not return model files for ${f.model}`;
    case 'load-failed':
      return `could not load ${f.model}: ${f.detail}`;
  }
}

export function fileProblemText(file: string, p: FileProblem): string {
  if (p.code === 'too-large') return loadRefusalText(p.refusal);
  return p.code === 'rejected' ? p.message : `${file}: could not be read (${p.detail})`;
}

/** Memory as people read it: GB from what would read 1000.0 MB, MB from what would read 1000.0 kB, else kB; one decimal. */
export function memorySize(bytes: number): string {
  if (bytes >= 999.95e6) return `${(bytes / 1e9).toFixed(1)} GB`;
  return bytes >= 999.95e3 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

/** Unit kinds in words, as the import's note names them. */
export const KIND_NAMES: Record<UnitKind, string> = { sentence: 'sentences', leaf: 'leaves', chunk: 'naive chunks', packed: 'sentence-packed chunks', semantic: 'semantic chunks' };

/** "a, b and c" */
function listed(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Where the tab's budget comes from, after "this tab can hold about X". */
function budgetBasis(b: LoadRefusal['budget']): string {
  switch (b.basis) {
    case 'device-memory':
      return ` (3/4 of the ${b.deviceMemoryGiB} GB of memory this device reports)`;
    case 'default':
      return ' (assumed: this browser does not say how much memory the device has)';
    case 'override':
      return ' (the budget set by #budget= in the address)';
  }
}

/**
 * A load refused before anything was read: what it needs, what the tab can hold and holds,
 * and that nothing was lost. Estimates, said as such.
 */
export function loadRefusalText(r: LoadRefusal): string {
  const kept = 'Nothing was loaded; what is indexed stays.';
  const about = r.source === 'bundle' ? `${en(r.sentences)} sentences` : `about ${en(r.sentences)} sentences`;
  const vectors = r.vectorKinds.length ? (r.source === 'bundle' ? ` with vectors of ${listed(r.vectorKinds.map((k) => KIND_NAMES[k]))}` : ' and their vectors') : '';
  const basis = r.source === 'document' ? `, estimated from its ${memorySize(r.fileBytes)} file` : '';
  if (r.limit === 'heap') {
    return `'${r.file}' needs about ${memorySize(r.heapNeedBytes)} of JavaScript heap for its text and sentences beside what is indexed (${about}${basis}); this tab's heap is capped at ${memorySize(r.budget.heapBytes ?? 0)}. ${kept}`;
  }
  return `'${r.file}' needs about ${memorySize(r.needBytes)} in this tab while it loads (${memorySize(r.loadedBytes)} once loaded: ${about}${vectors}${basis}); this tab can hold about ${memorySize(r.budget.bytes)}${budgetBasis(r.budget)} and ${r.heldBytes > 0 ? `already holds ${memorySize(r.heldBytes)}` : 'holds nothing yet'}. ${kept}`;
}

/** A load the user cancelled: nothing of it is in the corpus. */
export function loadCancelledText(file: string): string {
  return `Loading '${file}' cancelled; nothing was added.`;
}

export function mapUnavailableText(r: MapUnavailable): string {
  switch (r.code) {
    case 'no-embedder':
      return 'The map needs sentence vectors: choose an embedding model in the Models panel (BM25 alone has no vectors to place).';
    case 'no-documents':
      return 'The map needs documents: add some (or press Load sample corpus), and wait for their sentences to be embedded.';
    case 'vectors-missing':
      return `The map needs every sentence's vector: ${r.done} of ${r.total} sentences are embedded so far${r.paused ? ' (embedding is paused: resume it)' : ''}. It appears when they are done.`;
    case 'umap-too-few':
      return `UMAP needs at least ${r.min} sentences; the PCA view shows them.`;
    case 'umap-failed':
      return `UMAP failed: ${r.message}`;
  }
}

/** How a projection was made, in sentences beside the map. */
export function projectionNotes(d: ProjectionData): string[] {
  const a = d.about;
  if (a.method === 'pca') {
    return [
      `PCA: the two directions of largest variance${d.fitted < d.n ? `, fitted on ${en(d.fitted)} evenly spaced sentences` : ''}; every sentence and the query are projected exactly.`,
      `Variance along x ${a.variance[0].toPrecision(3)}, y ${a.variance[1].toPrecision(3)}.`,
      ...(a.nonFinite ? [`${a.nonFinite} sentence vector${a.nonFinite === 1 ? ' was not finite (NaN) and is' : 's were not finite (NaN) and are'} drawn as zero vectors.`] : []),
    ];
  }
  return [
    `UMAP (umap-js, 15 neighbours, min. distance 0.1, seeded): ${a.epochs} epochs${a.subsampled ? `, fitted on ${en(d.fitted)} evenly spaced sentences of ${en(d.n)} (a subsample, for speed); the others are placed at the weighted mean of their ${a.placeK} nearest fitted sentences` : ''}.`,
    `The query is placed at the similarity-weighted mean of its ${a.placeK} nearest ${a.subsampled ? 'fitted ' : ''}sentences' positions (not umap-js transform).`,
  ];
}

export function queryPlacementText(how: QueryPlacement): string {
  return how.method === 'pca' ? 'exact PCA projection of the query vector' : `weighted mean of the positions of its ${how.k} nearest sentences (by cosine)`;
}

const LAB_ERRORS: Record<LabErrorCode, string> = {
  'document-gone': 'that document is no longer in the corpus',
  'sentence-gone': 'that sentence is no longer in the corpus',
  'no-eval-set': 'import a labelled set first',
  'export-empty': 'there is nothing to export: add documents first',
  'bad-language': 'that is not a language tag (BCP 47, like "ro", "pt-BR" or "zh-Hant")',
  'read-only': 'the lab is open in another tab, and only that tab changes it: choose “Use it here” to work in this one',
};

/** Any failure in words: the lab's and the generation worker's codes worded here, anything else by its own message. */
export function errorText(e: unknown): string {
  if (e instanceof RpcError) {
    if (Object.hasOwn(LAB_ERRORS, e.code)) return LAB_ERRORS[e.code as LabErrorCode];
    if (e.code === 'model-unavailable' && e.data) return modelFailureText(e.data as ModelFailure);
    if (e.code === 'no-model') return 'no in-browser model is loaded';
    if (e.code === BUNDLE_REFUSED && e.data) return (e.data as BundleRefusal).message;
    if (e.code === LOAD_REFUSED && e.data) return loadRefusalText(e.data as LoadRefusal);
  }
  return e instanceof Error ? e.message : String(e);
}

/** A refused, cancelled or failed bundle import, named by its file. */
export function bundleImportText(file: string, e: unknown): string {
  if (e instanceof RpcError && e.cancelled) return loadCancelledText(file);
  if (e instanceof RpcError && e.code === LOAD_REFUSED && e.data) return loadRefusalText(e.data as LoadRefusal);
  return `${file}: ${errorText(e)}; the corpus is unchanged.`;
}

export function importProgressText(file: string, p: ImportProgress): string {
  const what = { unzip: 'reading the zip', read: 'checking tables and taking the vectors', store: 'keeping it in this browser' }[p.phase];
  return `Importing ${file}: ${what}…`;
}

export function exportProgressText(p: ExportProgress): string {
  return p.phase === 'export' ? 'Writing tables, SQL and the golden run…' : `Zipping: ${mb(p.done)} of ${mb(p.total)}`;
}

export function verifyProgressText(p: VerifyProgress): string {
  switch (p.phase) {
    case 'unzip':
      return 'Reading the bundle…';
    case 'start':
      return 'Starting PostgreSQL (PGlite) with pgvector…';
    case 'load':
      return "Loading the bundle's schema, data and functions…";
    case 'query':
      return `Running the golden questions: ${p.done} of ${p.total}`;
  }
}

/** Megabytes with one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
