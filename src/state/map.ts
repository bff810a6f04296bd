/**
 * The corpus map's store and actions: asks the worker for projections (PCA at once, UMAP
 * in the background with progress in the status), the query's place, and hover details;
 * highlights come straight from the results store, so a slider move updates them live.
 */
import { create } from 'zustand';
import type { BlockView, ColumnId, ColumnResult, ColumnSpec, MapPointInfo, MapProgressMessage, ProjectionData, ProjectionMethod } from '../worker/protocol';
import { labWorker, openBlock } from './controller';
import { errorText, mapUnavailableText, queryPlacementText } from './messages';
import { useCorpus, useResults, useView } from './stores';

export type ColourBy = 'document' | 'section' | 'language';

interface MapState {
  /** The map tab is shown (beside the explore/evaluate tabs of useTab). */
  shown: boolean;
  method: ProjectionMethod;
  colourBy: ColourBy;
  pca: ProjectionData | null;
  umap: ProjectionData | null;
  /** Why there is no map (no model, vectors missing), in words. */
  unavailable: string | null;
  umapState: 'idle' | 'running' | 'ready' | 'unavailable';
  umapReason: string | null;
  progress: MapProgressMessage | null;
  /** The query's place on the shown projection. */
  query: { key: string; method: ProjectionMethod; text: string; xy: [number, number]; how: string } | null;
  /** Columns switched off in the legend. */
  hidden: Partial<Record<ColumnId, boolean>>;
  hover: { index: number; info: MapPointInfo | null } | null;
  loading: boolean;
  error: string | null;
}

export const useMap = create<MapState>(() => ({
  shown: false,
  method: 'pca',
  colourBy: 'document',
  pca: null,
  umap: null,
  unavailable: null,
  umapState: 'idle',
  umapReason: null,
  progress: null,
  query: null,
  hidden: {},
  hover: null,
  loading: false,
  error: null,
}));

/** The projection shown now (UMAP once ready when chosen, else PCA). */
export function shownProjection(s: Pick<MapState, 'method' | 'pca' | 'umap'>): ProjectionData | null {
  return s.method === 'umap' && s.umap ? s.umap : s.pca;
}

/** Per column: the sentences its blocks hand over and its hit sentences (global indices). */
export interface Highlight {
  column: ColumnSpec;
  sentences: number[];
  hits: number[];
}

export function highlightsOf(columns: ColumnResult[]): Highlight[] {
  return columns
    .filter((c) => c.result.blocks.length > 0)
    .map((c) => {
      const sentences = new Set<number>();
      const hits = new Set<number>();
      for (const b of c.result.blocks) {
        for (let i = b.sentences.start; i < b.sentences.end; i++) sentences.add(i);
        for (const h of b.hits) hits.add(h);
      }
      return { column: c.column, sentences: [...sentences].sort((a, b) => a - b), hits: [...hits].sort((a, b) => a - b) };
    });
}

let started = false;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let querySeq = 0;
let hoverSeq = 0;
let lastCorpusSig = '';

function corpusSignature(): string {
  const s = useCorpus.getState().status;
  if (!s) return '';
  const sentences = s.docs.reduce((a, d) => a + d.sentences, 0);
  return JSON.stringify([s.docs.map((d) => d.id), sentences, s.embedder.state, s.embedder.model, s.embedding.coverage.sentence, s.structure]);
}

function ensureSubscriptions(): void {
  if (started) return;
  started = true;
  useCorpus.subscribe((state) => {
    const status = state.status;
    const p = status?.map ?? null;
    const m = useMap.getState();
    if (p && p.method === 'umap' && JSON.stringify(p) !== JSON.stringify(m.progress)) {
      useMap.setState({ progress: p });
      if (p.phase === 'done' && m.umapState === 'running') void requestUmap();
      if (p.phase === 'failed') useMap.setState({ umapState: 'unavailable', umapReason: mapUnavailableText({ code: 'umap-failed', message: p.message ?? 'unknown error' }) });
    }
    const sig = corpusSignature();
    if (sig !== lastCorpusSig) {
      lastCorpusSig = sig;
      scheduleRefresh(600);
    }
  });
  useView.subscribe((s, prev) => {
    if (s.view.query !== prev.view.query) scheduleQuery();
  });
}

function scheduleRefresh(ms: number): void {
  if (!useMap.getState().shown) return;
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshMap();
  }, ms);
}

let queryTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleQuery(): void {
  if (!useMap.getState().shown) return;
  if (queryTimer) clearTimeout(queryTimer);
  queryTimer = setTimeout(() => {
    queryTimer = null;
    void placeQuery();
  }, 300);
}

/** Shows or hides the map tab; showing it (re)computes what is missing. */
export function showMap(shown: boolean): void {
  ensureSubscriptions();
  useMap.setState({ shown });
  if (shown) void refreshMap();
}

/** PCA (and UMAP when chosen) for the corpus as it is now. */
export async function refreshMap(): Promise<void> {
  const w = labWorker();
  if (!w) return;
  useMap.setState({ loading: true });
  try {
    const r = await w.request('projection', { method: 'pca' }).promise;
    if (r.state === 'unavailable') {
      useMap.setState({ pca: null, umap: null, unavailable: mapUnavailableText(r.reason), query: null, umapState: 'idle', loading: false, error: null });
      return;
    }
    if (r.state !== 'ready') return;
    const m = useMap.getState();
    const stale = m.umap && m.umap.key !== r.data.key;
    useMap.setState({
      pca: r.data,
      unavailable: null,
      loading: false,
      error: null,
      ...(stale ? { umap: null, umapState: 'idle' as const } : {}),
    });
    if (useMap.getState().method === 'umap') await requestUmap();
    await placeQuery();
  } catch (e) {
    useMap.setState({ loading: false, error: errorText(e) });
  }
}

async function requestUmap(): Promise<void> {
  const w = labWorker();
  if (!w) return;
  const r = await w.request('projection', { method: 'umap' }).promise;
  if (r.state === 'ready') {
    useMap.setState({ umap: r.data, umapState: 'ready', umapReason: null });
    await placeQuery();
  } else if (r.state === 'running') useMap.setState({ umapState: 'running', progress: r.progress });
  else useMap.setState({ umapState: 'unavailable', umapReason: mapUnavailableText(r.reason) });
}

export function setMethod(method: ProjectionMethod): void {
  useMap.setState({ method, query: null });
  if (method === 'umap' && useMap.getState().umapState !== 'ready') void requestUmap();
  void placeQuery();
}

export function setColourBy(colourBy: ColourBy): void {
  useMap.setState({ colourBy });
}

export function toggleColumn(id: ColumnId): void {
  useMap.setState((s) => ({ hidden: { ...s.hidden, [id]: !s.hidden[id] } }));
}

/** Places the current question on the shown projection. */
export async function placeQuery(): Promise<void> {
  const w = labWorker();
  const s = useMap.getState();
  const data = shownProjection(s);
  const text = useView.getState().view.query.trim();
  const seq = ++querySeq;
  if (!w || !data || !text) {
    useMap.setState({ query: null });
    return;
  }
  const r = await w.request('mapQuery', { method: data.method, query: text }).promise;
  if (seq !== querySeq) return;
  useMap.setState({ query: r.xy && r.how && r.key === data.key ? { key: r.key, method: data.method, text, xy: r.xy, how: queryPlacementText(r.how) } : null });
}

/** Hover: the sentence's text, document, section and true cosine, asked by index. */
export async function hoverPoint(index: number | null): Promise<void> {
  const seq = ++hoverSeq;
  if (index === null) {
    useMap.setState({ hover: null });
    return;
  }
  if (useMap.getState().hover?.index === index) return;
  useMap.setState({ hover: { index, info: null } });
  const w = labWorker();
  if (!w) return;
  try {
    const info = await w.request('mapPoint', { index, query: useView.getState().view.query }).promise;
    if (seq === hoverSeq) useMap.setState({ hover: { index, info } });
  } catch {
    /* the corpus changed under the pointer */
  }
}

const MAP_COLUMN: ColumnSpec = { id: 'sentence', label: 'the corpus map (the sentence clicked)', strategy: 'sentence', retriever: 'vector', rerank: false };

/** Opens a sentence in the document view, as a one-sentence block. */
export async function openPoint(index: number): Promise<void> {
  const w = labWorker();
  if (!w) return;
  const h = useMap.getState().hover;
  const info = h?.index === index && h.info ? h.info : await w.request('mapPoint', { index, query: useView.getState().view.query }).promise;
  const block: BlockView = {
    id: `map:${info.doc}:${index}`,
    doc: info.doc,
    sentences: { start: index, end: index + 1 },
    start: info.start,
    end: info.end,
    text: info.text,
    hits: [index],
    score: info.cosine ?? 0,
    tokens: info.tokens,
    provenance: { unit: 'sentence', ranks: {}, scores: info.cosine !== null ? { cosine: info.cosine } : {} },
    docId: info.docId,
    docTitle: info.docTitle,
    sectionPath: info.sectionPath,
    ...(info.page !== undefined ? { pageStart: info.page, pageEnd: info.page } : {}),
    hitSpans: [[0, info.end - info.start]],
  };
  await openBlock(block, MAP_COLUMN);
}

/** For the results store's consumers: the current highlights (re-exported for the view). */
export function currentHighlights(): Highlight[] {
  return highlightsOf(useResults.getState().columns);
}
