/**
 * The Postgres worker: PGlite (PostgreSQL 18 in WASM) with pgvector, started fresh for one
 * check of one bundle, in memory; the page ends the worker afterwards, which frees it all.
 * PGlite's wasm, data and the vector extension are files of this site (Vite emits them from
 * the packages): nothing is fetched from anywhere else. PGlite is imported on the first call,
 * after the RPC listens (a message that arrives during a top-level import would be lost).
 */
import { readVerifiable, verifyBundle } from '../core/export/verify';
import { serve } from '../rpc/server';
import type { RpcPort } from '../rpc/wire';
import { asRefusal } from './bundle-refusal';
import { unzipBundle } from './bundle-zip';
import { pgliteDatabase } from '../core/export/pglite-database';
import { POSTGRES_TAG, type PostgresApi } from './postgres-protocol';

serve<PostgresApi>(self as unknown as RpcPort, POSTGRES_TAG, {
  verify: {
    concurrency: 'serial',
    run: async ({ zip }, ctx) => {
      ctx.progress({ phase: 'unzip', done: 0, total: 1 });
      let bundle;
      try {
        // Only what verify reads: the manifest, the SQL and the golden run.
        bundle = await readVerifiable(unzipBundle(new Uint8Array(zip), { skip: ['parquet/', 'jsonl/', 'frameworks/'] }));
      } catch (e) {
        throw asRefusal(e);
      }
      ctx.progress({ phase: 'start', done: 0, total: 1 });
      const t0 = performance.now();
      const [{ PGlite }, { vector }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector')]);
      const pg = await PGlite.create({ extensions: { vector } });
      try {
        await pg.exec('CREATE EXTENSION IF NOT EXISTS vector;');
        const startMs = performance.now() - t0;
        const [row] = (await pg.query<{ postgres: string; pgvector: string }>("SELECT current_setting('server_version') AS postgres, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector")).rows;
        ctx.progress({ phase: 'load', done: 0, total: 1 });
        const report = await verifyBundle(bundle, pgliteDatabase(pg), {
          onProgress: (done, total) => ctx.progress({ phase: 'query', done, total }),
        });
        return { ...report, startMs, versions: { postgres: row?.postgres ?? '?', pgvector: row?.pgvector ?? '?' } };
      } catch (e) {
        throw asRefusal(e);
      } finally {
        await pg.close();
      }
    },
  },
});
