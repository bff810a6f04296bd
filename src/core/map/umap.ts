/**
 * UMAP (umap-js) as the refined view of the corpus map, run in slices so the worker can
 * post progress and stop when the corpus changes: `init()` builds the neighbour graph
 * (one synchronous call, the slow part on big sets), `step(epochs)` runs some epochs,
 * `placeRest(count)` puts the sentences left out of a subsampled fit where their nearest
 * fitted neighbours are. Seeded with mulberry32: the same vectors give the same map.
 */
import { UMAP } from 'umap-js';
import { mulberry32 } from '../util/random';
import { evenSample } from './pca';
import { nearestRows, rowDot, weightedPosition } from './place';

export interface UmapMapOptions {
  seed?: number;
  /** Fit on at most this many evenly spaced sentences (the rest are placed by neighbours). */
  maxFit?: number;
  nNeighbors?: number;
  minDist?: number;
  /** Epochs (default: umap-js's choice by size, 200–500). */
  nEpochs?: number;
  /** Neighbours used to place a sentence left out of the fit, and the query. */
  placeK?: number;
}

export const UMAP_DEFAULT_MAX_FIT = 10_000;
/** Fewer sentences than this: no UMAP (PCA only). */
export const UMAP_MIN_POINTS = 5;

export class UmapMap {
  /** Row ids the layout was fitted on (all rows unless subsampled). */
  readonly fitIds: Int32Array;
  readonly subsampled: boolean;
  readonly placeK: number;
  private readonly umap: UMAP;
  private readonly fitRows: number[][];
  private totalEpochs = 0;
  private epoch = 0;
  /** Non-fit rows placed so far (index into restIds). */
  private placed = 0;
  private readonly restIds: Int32Array;
  private xy: Float32Array | null = null;

  constructor(
    private readonly data: Float32Array,
    readonly n: number,
    readonly dim: number,
    options: UmapMapOptions = {},
  ) {
    if (n < UMAP_MIN_POINTS) throw new Error(`UMAP needs at least ${UMAP_MIN_POINTS} sentences`);
    this.fitIds = evenSample(n, options.maxFit ?? UMAP_DEFAULT_MAX_FIT);
    this.subsampled = this.fitIds.length < n;
    const inFit = new Uint8Array(n);
    for (const i of this.fitIds) inFit[i] = 1;
    const rest: number[] = [];
    for (let i = 0; i < n; i++) if (!inFit[i]) rest.push(i);
    this.restIds = Int32Array.from(rest);
    this.placeK = options.placeK ?? 10;
    this.fitRows = Array.from(this.fitIds, (i) => Array.from(data.subarray(i * dim, (i + 1) * dim)));
    const m = this.fitIds.length;
    this.umap = new UMAP({
      random: mulberry32(options.seed ?? 42),
      nNeighbors: Math.max(2, Math.min(options.nNeighbors ?? 15, m - 1)),
      minDist: options.minDist ?? 0.1,
      ...(options.nEpochs ? { nEpochs: options.nEpochs } : {}),
    });
  }

  /** Builds the neighbour graph and the initial layout; returns the number of epochs. */
  init(): number {
    this.totalEpochs = this.umap.initializeFit(this.fitRows);
    return this.totalEpochs;
  }

  get epochs(): { done: number; total: number } {
    return { done: this.epoch, total: this.totalEpochs };
  }

  get rest(): { done: number; total: number } {
    return { done: this.placed, total: this.restIds.length };
  }

  /** Runs up to `count` epochs; true once all have run. */
  step(count: number): boolean {
    for (let i = 0; i < count && this.epoch < this.totalEpochs; i++) this.epoch = this.umap.step();
    return this.epoch >= this.totalEpochs;
  }

  /** Positions of the fitted rows now (the rest at the origin until placed). */
  private layout(): Float32Array {
    if (!this.xy) this.xy = new Float32Array(2 * this.n);
    const emb = this.umap.getEmbedding();
    for (let f = 0; f < this.fitIds.length; f++) {
      const i = this.fitIds[f]!;
      this.xy[2 * i] = emb[f]![0]!;
      this.xy[2 * i + 1] = emb[f]![1]!;
    }
    return this.xy;
  }

  /**
   * Places up to `count` more non-fitted rows (after the last epoch); true when all are
   * placed. Each goes to the weighted mean of its nearest fitted rows, found by a greedy
   * search over UMAP's own neighbour graph (approximate, like umap-js's transform) started
   * from the fitted rows beside it in corpus order; an exact scan when the graph is missing.
   */
  placeRest(count: number): boolean {
    const xy = this.placed === 0 || !this.xy ? this.layout() : this.xy;
    const end = Math.min(this.restIds.length, this.placed + count);
    const knn = (this.umap as unknown as { knnIndices?: number[][] }).knnIndices;
    for (; this.placed < end; this.placed++) {
      const i = this.restIds[this.placed]!;
      const { ids, sims } = knn ? this.graphNearest(i, knn) : nearestRows(this.data, this.dim, this.data, this.placeK, this.fitIds, i * this.dim);
      const [x, y] = weightedPosition(xy, ids, sims);
      xy[2 * i] = x;
      xy[2 * i + 1] = y;
    }
    return this.placed >= this.restIds.length;
  }

  private stamp: Uint32Array | null = null;
  private stampValue = 0;

  /** Beam search (width 32) over the fitted kNN graph for row i's nearest fitted rows (row ids). */
  private graphNearest(i: number, knn: number[][]): { ids: number[]; sims: number[] } {
    const m = this.fitIds.length;
    if (!this.stamp) this.stamp = new Uint32Array(m);
    const stamp = this.stamp;
    const mark = ++this.stampValue;
    const ef = 32;
    const poolF: number[] = [];
    const poolS: number[] = [];
    const expanded: boolean[] = [];
    const qo = i * this.dim;
    const visit = (f: number) => {
      if (f < 0 || f >= m || stamp[f] === mark) return;
      stamp[f] = mark;
      const s = rowDot(this.data, this.fitIds[f]!, this.dim, this.data, qo);
      if (poolF.length === ef && s <= poolS[ef - 1]!) return;
      let p = poolF.length;
      if (p === ef) {
        poolF.pop();
        poolS.pop();
        expanded.pop();
        p--;
      }
      while (p > 0 && poolS[p - 1]! < s) p--;
      poolF.splice(p, 0, f);
      poolS.splice(p, 0, s);
      expanded.splice(p, 0, false);
    };
    // Seeds: the fitted rows just before and after i in corpus order, and a few spread evenly.
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.fitIds[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    for (let f = lo - 2; f <= lo + 1; f++) visit(f);
    for (let t = 0; t < 8; t++) visit(Math.floor(((t + 0.5) * m) / 8));
    for (;;) {
      const p = expanded.indexOf(false);
      if (p < 0) break;
      expanded[p] = true;
      for (const f of knn[poolF[p]!] ?? []) visit(f);
    }
    const k = Math.min(this.placeK, poolF.length);
    return { ids: poolF.slice(0, k).map((f) => this.fitIds[f]!), sims: poolS.slice(0, k) };
  }

  /** The map: 2 values per sentence (call after the epochs and placeRest are done). */
  positions(): Float32Array {
    const xy = this.layout();
    return xy.slice();
  }
}

/** Runs a whole UMAP at once (tests, the bench); `onEpoch` sees each slice's progress. */
export function runUmap(data: Float32Array, n: number, dim: number, options: UmapMapOptions & { slice?: number; onProgress?: (phase: 'epochs' | 'place', done: number, total: number) => void } = {}): { xy: Float32Array; map: UmapMap } {
  const map = new UmapMap(data, n, dim, options);
  const total = map.init();
  const slice = options.slice ?? 10;
  while (!map.step(slice)) options.onProgress?.('epochs', map.epochs.done, total);
  options.onProgress?.('epochs', total, total);
  map.positions();
  while (!map.placeRest(1000)) options.onProgress?.('place', map.rest.done, map.rest.total);
  return { xy: map.positions(), map };
}
