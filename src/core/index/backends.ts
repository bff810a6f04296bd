import { BitScanIndex, COMPACT_FROM } from './bit-scan-index';
import { FlatIndex } from './flat-index';
import type { VectorIndex } from './vector-index';
import { VoyIndex } from './voy-index';

/**
 * The vector index a user can choose: `auto` (exact scan below AUTO_APPROX_FROM vectors, the
 * approximate bit scan from there), `flat` (always exact), `voy` (voy-search's k-d tree),
 * `ann` (always the approximate bit scan).
 */
export type VectorBackend = 'auto' | 'flat' | 'voy' | 'ann';
export const VECTOR_BACKENDS: readonly VectorBackend[] = ['auto', 'flat', 'voy', 'ann'];

/**
 * Where `auto` switches to the approximate index, per index (sentence, leaf and chunk vectors
 * each decide alone). Measured (scale-bench, 384 dims, 2 cores, real-sentence vectors): the
 * exact top-10 scan takes 10–12 ms p50 at 10k and 18–31 ms at 20k, the bit scan 2–5 and 6–8 ms
 * at recall@10 ≥ 0.999. Below 20k the scan costs about a frame and its results are exact for
 * free; above, it grows to 100–155 ms at 100k (bit scan 13 ms, recall 0.999) and 1.0–1.1 s at
 * 1M (bit scan 64 ms p50 in the 1M node bench on a loaded 2-core machine, recall 0.999). From the same size the bit scan keeps its rows as
 * float16 (COMPACT_FROM): half the memory of the vectors, cosines within 5e-5.
 */
export const AUTO_APPROX_FROM = COMPACT_FROM;

/** Recall@10 of the approximate index against the exact scan, as measured (for the UI's note). */
export function isVectorBackend(s: string): s is VectorBackend {
  return (VECTOR_BACKENDS as readonly string[]).includes(s);
}

/** The engine's `vectorIndex` factory for a backend. */
export function vectorIndexFactory(backend: VectorBackend): (dim: number) => VectorIndex | Promise<VectorIndex> {
  switch (backend) {
    case 'flat':
      return (dim) => new FlatIndex(dim);
    case 'voy':
      return (dim) => VoyIndex.create(dim);
    case 'ann':
      return (dim) => new BitScanIndex(dim);
    case 'auto':
      return (dim) => new BitScanIndex(dim, { exactBelow: AUTO_APPROX_FROM });
  }
}
