/**
 * The corpus map: every sentence vector in 2-D. PCA is computed on request (and cached per
 * corpus state); UMAP runs in its own worker (umap-worker.ts), so its long synchronous
 * neighbour graph never holds up a search; its progress goes out with the lab's status.
 * Answers are codes and data: the page words them.
 */
import { fitPca, projectPca, projectPcaPoint, type PcaModel } from '../core/map/pca';
import { placeByNeighbours, rowDot } from '../core/map/place';
import { UMAP_MIN_POINTS } from '../core/map/umap';
import { sectionPath } from '../core/structure/corpus';
import { RpcClient } from '../rpc/client';
import { RpcError, type RpcPort } from '../rpc/wire';
import type { CorpusSession } from './corpus-session';
import { labError, type MapPointInfo, type MapProgressMessage, type MapQueryResult, type MapUnavailable, type ProjectionAbout, type ProjectionData, type ProjectionMethod, type ProjectionResult } from './protocol';
import { UMAP_TAG, type UmapApi } from './umap-protocol';

type Matrix = { dim: number; count: number; data: Float32Array };

export interface CorpusMapEvents {
  /** UMAP progress moved (throttle what it does). */
  progress(): void;
  /** The UMAP job ended. */
  finished(): void;
}

/** Nearest sentences the query is placed among on a UMAP view. */
const QUERY_NEIGHBOURS = 10;

export class CorpusMap {
  /** The sentence matrix and projections of one corpus state (see key()). */
  private state: { key: string; matrix: Matrix; pca?: { model: PcaModel; data: ProjectionData }; umap?: ProjectionData; umapFit?: Int32Array } | null = null;
  private job: { key: string; cancelled: boolean; worker: Worker } | null = null;
  /** The background UMAP job's progress (and its last outcome), for the status. */
  progress: MapProgressMessage | null = null;
  /** Sentences whose vector was not finite (drawn from a zero vector). */
  private nonFinite = 0;

  constructor(
    private readonly session: CorpusSession,
    private readonly paused: () => boolean,
    private readonly events: CorpusMapEvents,
  ) {}

  /** The corpus state a map belongs to: sentence count, embedder, structure, documents. */
  private key(): string {
    const { engine, docs, embedder, structure } = this.session;
    const ids = docs.map((d) => d.id).join(',');
    let h = 0;
    for (let i = 0; i < ids.length; i++) h = (Math.imul(h, 31) + ids.charCodeAt(i)) | 0;
    return `${engine.unitCount('sentence')}|${embedder?.model ?? 'none'}|${JSON.stringify(structure)}|${docs.length}:${(h >>> 0).toString(36)}`;
  }

  /** The sentence vectors of the current state (copied once per state), or why there are none. */
  private matrix(): { key: string; matrix: Matrix } | MapUnavailable {
    const key = this.key();
    if (this.state?.key === key) return this.state;
    const { engine, embedder } = this.session;
    if (!embedder) return { code: 'no-embedder' };
    if (engine.unitCount('sentence') === 0) return { code: 'no-documents' };
    const cov = engine.vectorCoverage('sentence');
    const matrix = engine.sentenceMatrix();
    if (!matrix) return { code: 'vectors-missing', done: cov.done, total: cov.total, paused: this.paused() };
    // A vector with NaN or infinity (a model fault) would poison every position: it becomes zeros, and is counted.
    let bad = 0;
    for (let i = 0; i < matrix.count; i++) {
      const row = matrix.data.subarray(i * matrix.dim, (i + 1) * matrix.dim);
      if (!row.every(Number.isFinite)) {
        row.fill(0);
        bad++;
      }
    }
    this.nonFinite = bad;
    if (this.job) {
      this.job.cancelled = true;
      this.job.worker.terminate();
    }
    this.job = null;
    this.progress = null;
    this.state = { key, matrix };
    return this.state;
  }

  private projectionData(method: ProjectionMethod, key: string, xy: Float32Array, fitted: number, about: ProjectionAbout, ms: number): ProjectionData {
    const c = this.session.engine.corpus;
    const n = c.sentences.length;
    const doc = new Int32Array(n);
    const section = new Int32Array(n);
    const language = new Int32Array(n);
    const sections: string[] = [];
    const sectionIds = new Map<string, number>();
    const languages: string[] = [];
    for (let i = 0; i < n; i++) {
      const s = c.sentences[i]!;
      const d = c.docs[s.doc]!;
      doc[i] = s.doc;
      const sk = `${s.doc}:${s.section}`;
      let si = sectionIds.get(sk);
      if (si === undefined) {
        si = sections.length;
        sectionIds.set(sk, si);
        sections.push([d.title, ...sectionPath(d, s.section)].join(' › '));
      }
      section[i] = si;
      let li = languages.indexOf(d.language);
      if (li < 0) li = languages.push(d.language) - 1;
      language[i] = li;
    }
    return { method, key, n, xy, doc, section, sections, language, languages, docTitles: c.docs.map((d) => d.title), fitted, about, ms };
  }

  async projection(method: ProjectionMethod, emit: (p: MapProgressMessage) => void): Promise<ProjectionResult> {
    const m = this.matrix();
    if ('code' in m) return { state: 'unavailable', reason: m };
    const { key, matrix } = m;
    if (method === 'pca') return { state: 'ready', data: this.pca(key, emit).data };
    if (this.state!.umap) return { state: 'ready', data: this.state!.umap };
    if (matrix.count < UMAP_MIN_POINTS) return { state: 'unavailable', reason: { code: 'umap-too-few', min: UMAP_MIN_POINTS } };
    if (this.progress?.phase === 'failed' && this.progress.key === key) return { state: 'unavailable', reason: { code: 'umap-failed', message: this.progress.message ?? 'unknown error' } };
    if (!this.job) this.startUmap(key);
    return { state: 'running', key, progress: this.progress };
  }

  private pca(key: string, emit?: (p: MapProgressMessage) => void): { model: PcaModel; data: ProjectionData } {
    const state = this.state!;
    if (state.pca) return state.pca;
    const { data, dim, count } = state.matrix;
    const t0 = performance.now();
    emit?.({ kind: 'map', method: 'pca', phase: 'pca', done: 0, total: count, key });
    const model = fitPca(data, count, dim);
    const xy = projectPca(model, data, count);
    const share = (v: number) => (model.variances[0] + model.variances[1] > 0 ? v : 0);
    const about: ProjectionAbout = { method: 'pca', variance: [share(model.variances[0]), share(model.variances[1])], nonFinite: this.nonFinite };
    state.pca = { model, data: this.projectionData('pca', key, xy, model.fitted, about, performance.now() - t0) };
    return state.pca;
  }

  private startUmap(key: string): void {
    const state = this.state!;
    const { data, dim, count } = state.matrix;
    const worker = new Worker(new URL('./umap-worker.ts', import.meta.url), { type: 'module', name: 'rag-lab-umap' });
    const umap = new RpcClient<UmapApi>(worker as unknown as RpcPort, UMAP_TAG);
    worker.onerror = (e) => {
      e.preventDefault();
      umap.fail(new RpcError('crashed', e.message || 'the UMAP worker stopped'));
    };
    const job = { key, cancelled: false, worker };
    this.job = job;
    const t0 = performance.now();
    const live = () => !job.cancelled && this.job === job && this.state?.key === key;
    const progress = (phase: MapProgressMessage['phase'], done: number, total: number, message?: string) => {
      this.progress = { kind: 'map', method: 'umap', phase, done, total, key, ...(message ? { message } : {}) };
      this.events.progress();
    };
    const finish = () => {
      worker.terminate();
      if (this.job === job) this.job = null;
      this.events.finished();
    };
    progress('graph', 0, 1);
    // A copy: the lab keeps its matrix for hover and the query.
    const copy = data.slice(0, count * dim);
    umap
      .request('layout', { data: copy, count, dim, seed: 42 }, { transfer: [copy.buffer], onProgress: (p) => live() && progress(p.phase, p.done, p.total) })
      .promise.then(
        (m) => {
          if (live()) {
            state.umap = this.projectionData('umap', key, m.xy, m.fitted, { method: 'umap', epochs: m.epochs, subsampled: m.subsampled, placeK: m.placeK }, performance.now() - t0);
            state.umapFit = m.fitIds;
            progress('done', 1, 1);
          }
          finish();
        },
        (e: Error) => {
          if (live()) progress('failed', 0, 1, e.message);
          finish();
        },
      );
  }

  async placeQuery(method: ProjectionMethod, query: string): Promise<MapQueryResult> {
    const m = this.matrix();
    if ('code' in m || !query.trim()) return { key: 'code' in m ? '' : m.key, xy: null, how: null };
    const q = await this.session.engine.queryEmbedding(query);
    if (!q || this.state?.key !== m.key) return { key: m.key, xy: null, how: null };
    const { data, dim } = m.matrix;
    if (method === 'pca') return { key: m.key, xy: projectPcaPoint(this.pca(m.key).model, q), how: { method: 'pca' } };
    const umap = this.state.umap;
    if (!umap) return { key: m.key, xy: null, how: null };
    const among = this.state.umapFit ?? umap.n;
    const { xy } = placeByNeighbours(data, dim, umap.xy, q, QUERY_NEIGHBOURS, among);
    return { key: m.key, xy, how: { method: 'umap', k: QUERY_NEIGHBOURS } };
  }

  async point(index: number, query: string): Promise<MapPointInfo> {
    const c = this.session.engine.corpus;
    const s = c.sentences[index];
    if (!s) throw labError('sentence-gone');
    const d = c.docs[s.doc]!;
    let cosine: number | null = null;
    const m = this.state;
    if (query.trim() && m && m.key === this.key() && index < m.matrix.count) {
      const q = await this.session.engine.queryEmbedding(query);
      if (q) cosine = rowDot(m.matrix.data, index, m.matrix.dim, q);
    }
    return {
      index,
      text: s.text,
      docTitle: d.title,
      docId: d.id,
      sectionPath: sectionPath(d, s.section),
      language: d.language,
      doc: s.doc,
      start: s.start,
      end: s.end,
      ...(s.page !== undefined ? { page: s.page } : {}),
      tokens: s.tokens,
      cosine,
    };
  }
}
