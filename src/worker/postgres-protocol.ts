/**
 * What the page and the Postgres worker say to each other (src/rpc): one method, which loads
 * a bundle's SQL into PGlite (PostgreSQL in WASM, with pgvector) and checks its golden run.
 */
import type { RunAgreement, VerifyReport } from '../core/export/verify';
import type { RpcMethod } from '../rpc/wire';

export const POSTGRES_TAG = 'rag-lab-postgres';

export interface VerifyProgress {
  /** 'query' counts golden questions × runs; the other phases have no finer progress. */
  phase: 'unzip' | 'start' | 'load' | 'query';
  done: number;
  total: number;
}

export type { RunAgreement };

export interface PostgresVerifyResult extends VerifyReport {
  /** Starting PGlite and creating the vector extension. */
  startMs: number;
  /** PostgreSQL's and pgvector's versions, as the database reports them. */
  versions: { postgres: string; pgvector: string };
}

export type PostgresApi = {
  /** `zip`: the bundle as exported (a .zip); errors: BUNDLE_REFUSED (protocol.ts) for a bad bundle. */
  verify: RpcMethod<{ zip: ArrayBuffer }, PostgresVerifyResult, VerifyProgress>;
};
