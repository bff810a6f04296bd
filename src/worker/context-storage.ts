/**
 * The corpus's situating contexts in IndexedDB, in a database of their own beside the lab's
 * (persistence.ts): one record, the store's JSON, written a moment after the last change. A
 * refused or failed write leaves the contexts in memory and is reported once.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { ContextStore, type SavedContexts } from '../core/context/context-store';

const DB_NAME = 'rag-lab-contexts';

export class ContextStorage {
  private db: IDBPDatabase | null = null;
  /** Why storing failed, once it did. */
  problem: string | null = null;

  async open(): Promise<void> {
    try {
      this.db = await openDB(DB_NAME, 1, { upgrade: (db) => void db.createObjectStore('contexts') });
    } catch (e) {
      this.problem = `contexts are kept only until the page closes: ${(e as Error).message}`;
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
}
