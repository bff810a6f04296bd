/**
 * PGlite as the verifier's database (verify.ts's SqlDatabase), in Node and in a browser
 * worker alike: PGlite's API is the same in both. Only PGlite's type is imported, so the
 * core stays free of its runtime. COPY rows reach the server through PGlite's /dev/blob device.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { SqlDatabase } from './verify';

export function pgliteDatabase(db: PGlite): SqlDatabase {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows,
    copyFrom: async (statement, rows) => {
      await db.query(`${statement} FROM '/dev/blob'`, [], { blob: new Blob([rows as Uint8Array<ArrayBuffer>]) });
    },
  };
}
