/**
 * PGlite (PostgreSQL 18 in WASM) with pgvector as the verifier's database, in Node.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { BundleFile } from '../core/export/format';
import { pgliteDatabase } from '../core/export/pglite-database';
import { readVerifiable, verifyBundle, type VerifyReport } from '../core/export/verify';

export { pgliteDatabase };

/** A fresh in-memory PGlite with the vector extension created. */
export async function createPglite(): Promise<PGlite> {
  const db = await PGlite.create({ extensions: { vector } });
  await db.exec('CREATE EXTENSION IF NOT EXISTS vector;');
  return db;
}

/** Loads a bundle into a fresh PGlite and checks it against its golden run. */
export async function verifyInPglite(files: BundleFile[], options: { onProgress?: (done: number, total: number) => void } = {}): Promise<VerifyReport & { startMs: number }> {
  const bundle = await readVerifiable(files);
  const t0 = performance.now();
  const db = await createPglite();
  const startMs = performance.now() - t0;
  try {
    return { ...(await verifyBundle(bundle, pgliteDatabase(db), options)), startMs };
  } finally {
    await db.close();
  }
}
