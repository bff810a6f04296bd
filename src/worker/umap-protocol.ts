/** What the lab worker and its UMAP worker (umap-worker.ts) say to each other. */
import type { RpcMethod } from '../rpc/wire';

export const UMAP_TAG = 'rag-lab-umap';

export interface UmapLayout {
  xy: Float32Array;
  fitIds: Int32Array;
  epochs: number;
  subsampled: boolean;
  fitted: number;
  placeK: number;
}

export type UmapApi = {
  /** Lays out `count` rows of `dim` (a copy the worker keeps) with a seeded UMAP. */
  layout: RpcMethod<{ data: Float32Array; count: number; dim: number; seed: number }, UmapLayout, { phase: 'graph' | 'epochs' | 'place'; done: number; total: number }>;
};
