/**
 * The page's door to the Postgres worker: one fresh module worker per check (PGlite holds
 * the whole database in its memory), ended when the check is done or fails.
 */
import { RpcClient } from '../rpc/client';
import { RpcError, type RpcPort } from '../rpc/wire';
import { POSTGRES_TAG, type PostgresApi, type PostgresVerifyResult, type VerifyProgress } from '../worker/postgres-protocol';

export async function verifyInPostgres(zip: Blob, onProgress: (p: VerifyProgress) => void): Promise<PostgresVerifyResult> {
  const worker = new Worker(new URL('../worker/postgres-worker.ts', import.meta.url), { type: 'module', name: 'rag-lab-postgres' });
  const client = new RpcClient<PostgresApi>(worker as unknown as RpcPort, POSTGRES_TAG);
  worker.onerror = (e) => {
    e.preventDefault();
    client.fail(new RpcError('crashed', `the Postgres worker stopped: ${e.message || 'it could not start'}`));
  };
  try {
    const bytes = await zip.arrayBuffer();
    return await client.request('verify', { zip: bytes }, { onProgress, transfer: [bytes] }).promise;
  } finally {
    worker.terminate();
  }
}
