/**
 * Changes to the view (the URL's state): retrieval parameters search again at the next frame;
 * structure, index and models go to the worker first; columns shown and compared.
 */
import type { EmbeddingSendPlan } from '../core/embed/endpoint-choice';
import type { RetrievalParams, StructureParams } from '../core/retrieve/params';
import type { ColumnId, IndexBackend, ModelChoice, ModelProgress } from '../worker/protocol';
import { askConsent, hasConsent, withEndpointKey } from './embedding-endpoint';
import { perFrame } from './frame-coalesce';
import { worker } from './lab-client';
import { errorText } from './messages';
import { search } from './searches';
import { useModels, useResults, useView } from './stores';
import { encodeView, normaliseColumns, shownColumnIds, type ViewState } from './url-state';

let saveTimer: ReturnType<typeof setTimeout> | null = null;

export async function loadModels(view: ViewState): Promise<void> {
  if (view.indexBackend !== 'auto') await worker().request('setIndexBackend', { backend: view.indexBackend }).promise;
  await Promise.all([loadModel('embedder', view.embedder), loadModel('reranker', view.reranker)]);
  void search();
}

async function loadModel(role: 'embedder' | 'reranker', choice: ModelChoice | null): Promise<void> {
  // An endpoint this browser never agreed to (a shared link) waits for the user's confirm; the key goes only to its own URL.
  if (choice?.endpoint && !hasConsent(choice.endpoint)) {
    askConsent(choice);
    choice = null;
  }
  choice = withEndpointKey(choice);
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

/**
 * The URL follows the view at most every URL_EVERY_MS (the first change at once, the last one
 * always): a slider drag changes the view every frame, and each history.replaceState with its
 * encoding cost the frame several ms. Written at once when the page is hidden or closed.
 */
export const URL_EVERY_MS = 250;
let urlView: ViewState | null = null;
let urlTimer: ReturnType<typeof setTimeout> | null = null;
let urlWritten = -Infinity;

export function writeUrl(view: ViewState): void {
  urlView = view;
  if (urlTimer) return;
  const wait = urlWritten + URL_EVERY_MS - performance.now();
  if (wait <= 0) flushUrl();
  else urlTimer = setTimeout(flushUrl, wait);
}

function flushUrl(): void {
  if (urlTimer) clearTimeout(urlTimer);
  urlTimer = null;
  const view = urlView;
  if (!view) return;
  urlView = null;
  urlWritten = performance.now();
  const q = encodeView(view);
  history.replaceState(null, '', `${location.pathname}${q ? `?${q}` : ''}${location.hash}`);
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => void worker().request('saveParams', { params: q }).promise.catch(() => undefined), 400);
}

if (typeof addEventListener === 'function') addEventListener('pagehide', flushUrl);

export function update(change: (v: ViewState) => void): ViewState {
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

/** What embedding the whole corpus through an endpoint would send, for its consent. */
export function endpointSendPlan(): Promise<EmbeddingSendPlan> {
  return worker().request('sendPlan', {}).promise;
}

export function setModel(role: 'embedder' | 'reranker', choice: ModelChoice | null): void {
  const view = update((v) => (v[role] = choice));
  void loadModel(role, view[role]).then(() => search());
}

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
