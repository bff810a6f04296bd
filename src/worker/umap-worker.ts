/**
 * UMAP for the corpus map in its own worker, started by the lab worker. umap-js builds its
 * neighbour graph in one synchronous call (~10 s at 10k sentences); in the lab worker that
 * held up every search and slider move. Here it blocks nothing; the lab ends this worker
 * when the corpus changes.
 */
import { UmapMap } from '../core/map/umap';
import { serve } from '../rpc/server';
import type { RpcPort } from '../rpc/wire';
import { UMAP_TAG, type UmapApi } from './umap-protocol';

serve<UmapApi>(self as unknown as RpcPort, UMAP_TAG, {
  layout: {
    concurrency: 'serial',
    run: ({ data, count, dim, seed }, ctx) => {
      ctx.progress({ phase: 'graph', done: 0, total: 1 });
      const umap = new UmapMap(data, count, dim, { seed });
      const total = umap.init();
      let last = performance.now();
      // Progress at most every 100 ms: each message wakes the lab worker.
      const tick = (phase: 'epochs' | 'place', done: number, of: number) => {
        if (performance.now() - last < 100) return;
        last = performance.now();
        ctx.progress({ phase, done, total: of });
      };
      while (!umap.step(1)) tick('epochs', umap.epochs.done, total);
      umap.positions();
      while (!umap.placeRest(500)) tick('place', umap.rest.done, umap.rest.total);
      const xy = umap.positions();
      const fitIds = Int32Array.from(umap.fitIds);
      ctx.transfer(xy.buffer, fitIds.buffer);
      return { xy, fitIds, epochs: total, subsampled: umap.subsampled, fitted: umap.fitIds.length, placeK: umap.placeK };
    },
  },
});
