/**
 * The page's reply cache (core/answers/reply-cache.ts) in IndexedDB: answers and judge replies
 * survive reloads, so a repeated answer run sends nothing and a paused or cancelled one resumes
 * where it stopped. Entries are keyed by the hash of everything that makes a reply (model,
 * messages, settings), so two tabs writing the same key write the same reply: nothing to merge.
 * A stored value that is not a reply is ignored and said; storage that cannot open (private
 * mode, a blocked upgrade) falls back to a cache for this page only, and says so.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { readCachedReply, type CachedReply, type ReplyCache } from '../core/answers/reply-cache';

export const REPLIES_DB = 'rag-lab-replies';
const STORE = 'replies';

export class IdbReplyCache implements ReplyCache {
  readonly damaged: string[] = [];
  /** Set when storage could not be used: replies live as long as the page. */
  unavailable: string | null = null;
  private db: Promise<IDBPDatabase | null> | null = null;
  private readonly memory = new Map<string, CachedReply>();

  private open(): Promise<IDBPDatabase | null> {
    this.db ??= openDB(REPLIES_DB, 1, {
      upgrade(db) {
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
      },
      // Another tab opens a newer version: let it.
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
      },
    }).catch((e: unknown) => {
      this.unavailable = `answers are kept for this page only: the browser's storage could not be opened (${e instanceof Error ? e.message : String(e)})`;
      return null;
    });
    return this.db;
  }

  async get(key: string): Promise<CachedReply | undefined> {
    const here = this.memory.get(key);
    if (here) return here;
    const db = await this.open();
    if (!db) return undefined;
    const raw: unknown = await db.get(STORE, key).catch(() => undefined);
    if (raw === undefined) return undefined;
    const reply = readCachedReply(raw);
    if (!reply) {
      const note = `a stored reply (${key.slice(0, 12)}…) could not be read; it was ignored and its request will be sent again`;
      if (!this.damaged.includes(note)) this.damaged.push(note);
      return undefined;
    }
    this.memory.set(key, reply);
    return reply;
  }

  async put(key: string, reply: CachedReply): Promise<void> {
    this.memory.set(key, reply);
    const db = await this.open();
    if (!db) return;
    await db.put(STORE, reply, key).catch((e: unknown) => {
      this.unavailable = `a reply could not be stored (${e instanceof Error ? e.message : String(e)}); it is kept for this page only`;
    });
  }

  /** How many replies are stored (for the page's note on what the cache holds). */
  async count(): Promise<number> {
    const db = await this.open();
    return db ? db.count(STORE) : this.memory.size;
  }

  /** Forgets every stored reply. */
  async clear(): Promise<void> {
    this.memory.clear();
    const db = await this.open();
    await db?.clear(STORE);
  }
}

let shared: IdbReplyCache | null = null;
/** The page's one reply cache (opened on first use): answer runs and query rewrites share it. */
export function pageReplyCache(): IdbReplyCache {
  shared ??= new IdbReplyCache();
  return shared;
}
