import { openDB, type IDBPDatabase } from 'idb';
import type { StructureParams } from '../core/retrieve/params';
import type { Document } from '../core/types';

/** What is kept across reloads: the documents in order, their structure and every vector set. */
export interface SavedCorpus {
  docIds: string[];
  structure: StructureParams;
  /** Model the vectors were made with (null: BM25 only). */
  model: string | null;
}

export interface SavedVectors {
  key: string;
  dim: number;
  data: Float32Array;
}

const DB_NAME = 'rag-context-lab';

/**
 * IndexedDB storage, used from the worker. Any failure (private mode, quota) turns
 * persistence off with a reason; the app keeps working in memory.
 */
export class Persistence {
  private db: IDBPDatabase | null = null;
  reason: string | undefined;

  get on(): boolean {
    return this.db !== null;
  }

  async open(): Promise<void> {
    try {
      if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available here');
      this.db = await openDB(DB_NAME, 1, {
        upgrade(db) {
          db.createObjectStore('docs');
          db.createObjectStore('vectors');
          db.createObjectStore('meta');
        },
      });
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    const name = (e as { name?: string })?.name;
    this.reason = name === 'QuotaExceededError' ? 'the browser storage quota is full' : `storage is unavailable (${(e as Error)?.message ?? e})`;
    this.db = null;
  }

  /** Runs a write; a failure switches persistence off instead of breaking the app. */
  private async write(fn: (db: IDBPDatabase) => Promise<unknown>): Promise<void> {
    if (!this.db) return;
    try {
      await fn(this.db);
    } catch (e) {
      this.fail(e);
    }
  }

  async load(): Promise<{ corpus: SavedCorpus; docs: Document[]; vectors: SavedVectors[]; params: unknown } | null> {
    if (!this.db) return null;
    try {
      const corpus = (await this.db.get('meta', 'corpus')) as SavedCorpus | undefined;
      const params = await this.db.get('meta', 'params');
      if (!corpus) return params ? { corpus: { docIds: [], structure: undefined as never, model: null }, docs: [], vectors: [], params } : null;
      const docs: Document[] = [];
      for (const id of corpus.docIds) {
        const d = (await this.db.get('docs', id)) as Document | undefined;
        if (d) docs.push(d);
      }
      const vectors = (await this.db.getAll('vectors')) as SavedVectors[];
      return { corpus, docs, vectors, params };
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  async saveCorpus(corpus: SavedCorpus, docs: Document[]): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'meta', 'vectors'], 'readwrite');
      const keep = new Set(corpus.docIds);
      for (const key of await tx.objectStore('docs').getAllKeys()) if (!keep.has(String(key))) await tx.objectStore('docs').delete(key);
      for (const d of docs) await tx.objectStore('docs').put(d, d.id);
      await tx.objectStore('meta').put(corpus, 'corpus');
      // Unit ids change with the document list: old vector sets are written again by saveVectors.
      await tx.objectStore('vectors').clear();
      await tx.done;
    });
  }

  /** Keeps one more document at once, so a crash later in a drop loses nothing already indexed. */
  async appendDocument(corpus: SavedCorpus, doc: Document): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'meta'], 'readwrite');
      await tx.objectStore('docs').put(doc, doc.id);
      await tx.objectStore('meta').put(corpus, 'corpus');
      await tx.done;
    });
  }

  async saveVectors(sets: SavedVectors[]): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction('vectors', 'readwrite');
      await tx.store.clear();
      for (const s of sets) await tx.store.put(s, s.key);
      await tx.done;
    });
  }

  async saveParams(params: unknown): Promise<void> {
    await this.write((db) => db.put('meta', params, 'params'));
  }

  async clear(): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'meta', 'vectors'], 'readwrite');
      await Promise.all([tx.objectStore('docs').clear(), tx.objectStore('vectors').clear(), tx.objectStore('meta').delete('corpus')]);
      await tx.done;
    });
  }
}
