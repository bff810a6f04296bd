/**
 * UMAP for the corpus map in its own worker, started by the lab worker. umap-js builds its
 * neighbour graph in one synchronous call (~10 s at 10k sentences); in the lab worker that
 * held up every search and slider move. Here it blocks nothing; the lab ends this worker
 * when the corpus changes.
 */
import { UmapMap } from '../core/map/umap';

export type UmapRequest = { data: Float32Array; count: number; dim: number; seed: number };
export type UmapMessage =
  | { type: 'progress'; phase: 'graph' | 'epochs' | 'place'; done: number; total: number }
  | { type: 'done'; xy: Float32Array; fitIds: Int32Array; epochs: number; subsampled: boolean; fitted: number; placeK: number }
  | { type: 'failed'; message: string };

const post = (m: UmapMessage, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

self.onmessage = (event: MessageEvent<UmapRequest>) => {
  const { data, count, dim, seed } = event.data;
  try {
    post({ type: 'progress', phase: 'graph', done: 0, total: 1 });
    const umap = new UmapMap(data, count, dim, { seed });
    const total = umap.init();
    let last = performance.now();
    // Progress at most every 100 ms: each message wakes the lab worker.
    const tick = (phase: 'epochs' | 'place', done: number, of: number) => {
      if (performance.now() - last < 100) return;
      last = performance.now();
      post({ type: 'progress', phase, done, total: of });
    };
    while (!umap.step(1)) tick('epochs', umap.epochs.done, total);
    umap.positions();
    while (!umap.placeRest(500)) tick('place', umap.rest.done, umap.rest.total);
    const xy = umap.positions();
    const fitIds = Int32Array.from(umap.fitIds);
    post({ type: 'done', xy, fitIds, epochs: total, subsampled: umap.subsampled, fitted: umap.fitIds.length, placeK: umap.placeK }, [xy.buffer, fitIds.buffer]);
  } catch (e) {
    post({ type: 'failed', message: (e as Error)?.message ?? String(e) });
  }
};
