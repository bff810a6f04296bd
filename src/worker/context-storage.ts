/**
 * The corpus's situating contexts and their contextual vectors in IndexedDB, in a database of
 * their own beside the lab's (persistence.ts):
 *
 * - 'contexts': one record, the store's JSON, written a moment after the last change.
 * - 'contextVectors' (version 2): one record per contextual vector, its Float32Array, keyed
 *   [model, hash of the embedded text]. A start reads only the loaded model's range of keys;
 *   the text itself is not stored (the lab hashes the texts of its units with a context and
 *   looks them up), so a key stays small however long the header, context and unit are.
 *
 * A refused or failed write leaves everything in memory and is reported (`problem`).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { openDB, type IDBPDatabase } from 'idb';
import { ContextStore, type SavedContexts } from '../core/context/context-store';

export const CONTEXTS_DB = 'rag-lab-contexts';
export const CONTEXTS_DB_VERSION = 2;
const VECTORS = 'contextVectors';
const encoder = new TextEncoder();

/** How long a start waits for another tab that holds the database open at an older version. */
const BLOCKED_MS = 3000;

/**
 * The stored identity of an embedded text: SHA-256 of its UTF-8 bytes, the first 128 bits in
 * hex. A cryptographic hash rather than a fast 64-bit one because a collision would silently
 * hand a unit another text's vector: 128 bits make that impossible in practice at any corpus
 * size. @noble/hashes (already in the bundle for the export's manifest) rather than
 * crypto.subtle: it is synchronous, and for many short texts three times faster than one
 * subtle.digest promise per text (100k texts of ~300 characters: 1.4 s against 4.4 s on the
 * 2-core test machine).
 */
export function textHash(text: string): string {
  const digest = sha256(encoder.encode(text));
  let hex = '';
  for (let i = 0; i < 16; i++) hex += digest[i]!.toString(16).padStart(2, '0');
  return hex;
}

/** One contextual vector to store: the hash of its text (textHash) and its values. */
export interface StoredContextVector {
  hash: string;
  data: Float32Array;
}

export class ContextStorage {
  private db: IDBPDatabase | null = null;
  /** Why storing failed, once it did. */
  problem: string | null = null;

  async open(): Promise<void> {
    let gaveUp = false;
    let blocked: (() => void) | null = null;
    const opening = openDB(CONTEXTS_DB, CONTEXTS_DB_VERSION, {
      upgrade(db, oldVersion) {
        // Version 1 had the contexts only: they stay as they are, the vectors' store is added.
        if (oldVersion < 1) db.createObjectStore('contexts');
        if (oldVersion < 2) db.createObjectStore(VECTORS);
      },
      // Another tab at an older version: after a moment this one goes on without storage rather than wait.
      blocked: () => blocked?.(),
    });
    const waitedOut = new Promise<null>((resolve) => {
      blocked = () => setTimeout(() => resolve(null), BLOCKED_MS);
    });
    try {
      const db = await Promise.race([opening, waitedOut]);
      if (!db) {
        gaveUp = true;
        this.problem = 'contexts are kept only until the page closes: another tab of the lab holds their storage open (close it and reload)';
        // Opened late: not used (the contexts were not read from it, so writing to it would lose the stored ones).
        void opening.then((late) => late.close(), () => undefined);
        return;
      }
      // A newer version of the lab in another tab is not kept waiting for this one.
      db.addEventListener('versionchange', () => {
        db.close();
        this.db = null;
        this.problem = 'contexts are kept only until the page closes: a newer version of the lab opened their storage in another tab';
      });
      this.db = db;
    } catch (e) {
      if (!gaveUp) this.problem = `contexts are kept only until the page closes: ${(e as Error).message}`;
    }
  }

  async load(): Promise<ContextStore | null> {
    if (!this.db) return null;
    try {
      const json = (await this.db.get('contexts', 'corpus')) as SavedContexts | undefined;
      return json ? ContextStore.fromJSON(json) : null;
    } catch (e) {
      this.problem = `the stored contexts could not be read: ${(e as Error).message}`;
      return null;
    }
  }

  async save(json: SavedContexts | null): Promise<void> {
    if (!this.db) return;
    try {
      if (json) await this.db.put('contexts', json, 'corpus');
      else await this.db.delete('contexts', 'corpus');
    } catch (e) {
      this.problem = `contexts are kept only until the page closes: ${(e as Error).message}`;
    }
  }

  /** Stores vectors of one model, in one transaction; false when the write failed (the problem is set). */
  async putVectors(model: string, vectors: readonly StoredContextVector[]): Promise<boolean> {
    if (!this.db) return false;
    if (!vectors.length) return true;
    try {
      const tx = this.db.transaction(VECTORS, 'readwrite');
      for (const v of vectors) void tx.store.put(v.data, [model, v.hash]);
      await tx.done;
      return true;
    } catch (e) {
      this.problem = `contextual vectors are kept only until the page closes: ${(e as Error).message}`;
      return false;
    }
  }

  /** The stored vectors of one model (and only its), by text hash. */
  async loadVectors(model: string): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (!this.db) return out;
    try {
      // Array keys sort after strings: [model, []] is above every [model, hash].
      const range = IDBKeyRange.bound([model], [model, []]);
      const tx = this.db.transaction(VECTORS, 'readonly');
      const [keys, values] = await Promise.all([tx.store.getAllKeys(range), tx.store.getAll(range)]);
      await tx.done;
      keys.forEach((k, i) => out.set((k as [string, string])[1], values[i] as Float32Array));
    } catch (e) {
      this.problem = `the stored contextual vectors could not be read: ${(e as Error).message}`;
    }
    return out;
  }

  /** Drops the stored vectors (of every model) whose text hash is not in `keep`; returns how many. */
  async pruneVectors(keep: ReadonlySet<string>): Promise<number> {
    if (!this.db) return 0;
    try {
      const tx = this.db.transaction(VECTORS, 'readwrite');
      const keys = (await tx.store.getAllKeys()) as [string, string][];
      const stale = keys.filter((k) => !keep.has(k[1]));
      for (const k of stale) void tx.store.delete(k);
      await tx.done;
      return stale.length;
    } catch (e) {
      this.problem = `stale contextual vectors could not be removed from storage: ${(e as Error).message}`;
      return 0;
    }
  }

  /** Every stored vector goes (the corpus was cleared). */
  async clearVectors(): Promise<void> {
    if (!this.db) return;
    try {
      await this.db.clear(VECTORS);
    } catch (e) {
      this.problem = `the stored contextual vectors could not be removed: ${(e as Error).message}`;
    }
  }
}
