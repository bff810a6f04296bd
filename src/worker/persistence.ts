import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { StructureParams } from '../core/retrieve/params';
import type { QuestionSet } from '../core/questions/types';
import type { Document } from '../core/types';
import type { SavedLexical } from './saved-lexical';
import type { SavedSplit } from './saved-split';

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
 * Floats per stored record of a vector set. Chromium refuses an IndexedDB value over 127 MiB
 * ("The serialized keys and/or value are too large"): 100k sentence vectors of 384 dimensions
 * are 154 MB, so a set is stored in parts of 32 MB under `key`, `key#1`, `key#2`, ….
 */
const PART_FLOATS = 8 << 20;

/** A stored record of a vector set: the set's first part (with the number of parts), or a later one. Records of version 1 are whole sets. */
interface VectorPart extends SavedVectors {
  part?: number;
  parts?: number;
}

/** A vector set as the records it is stored in, with their store keys. */
function vectorParts(set: SavedVectors): [string, VectorPart][] {
  const parts = Math.max(1, Math.ceil(set.data.length / PART_FLOATS));
  return Array.from({ length: parts }, (_, i) => {
    // A copy, not a view: a view is cloned with its whole buffer.
    const data = parts === 1 ? set.data : set.data.slice(i * PART_FLOATS, Math.min(set.data.length, (i + 1) * PART_FLOATS));
    return i === 0 ? [set.key, { key: set.key, dim: set.dim, data, parts }] : [`${set.key}#${i}`, { key: set.key, dim: set.dim, data, part: i }];
  });
}

/** The vector sets stored as parts, joined again; a set missing a part is left out. */
function joinVectorParts(records: VectorPart[]): SavedVectors[] {
  const out: SavedVectors[] = [];
  for (const first of records) {
    if (first.part !== undefined) continue;
    const n = first.parts ?? 1;
    if (n === 1) {
      out.push({ key: first.key, dim: first.dim, data: first.data });
      continue;
    }
    const rest = records.filter((r) => r.key === first.key && r.part !== undefined).sort((a, b) => a.part! - b.part!);
    if (rest.length !== n - 1 || rest.some((r, i) => r.part !== i + 1)) continue;
    const data = new Float32Array(first.data.length + rest.reduce((k, r) => k + r.data.length, 0));
    let at = 0;
    for (const r of [first, ...rest]) {
      data.set(r.data, at);
      at += r.data.length;
    }
    out.push({ key: first.key, dim: first.dim, data });
  }
  return out;
}

/** A request queued in a transaction: its failure is the transaction's (awaited as tx.done), not an unhandled rejection. */
const quiet = (p: Promise<unknown>) => void p.catch(() => undefined);
/**
 * 2: documents' splits ('splits'), BM25 postings of an imported corpus ('lexical'), and the
 * bundle import in progress ('meta' 'importing'). Version 1 databases open as they are and
 * restore by splitting and indexing again.
 */
const DB_VERSION = 2;

/** What load() gives back. */
export interface Saved {
  corpus: SavedCorpus;
  docs: Document[];
  /** Stored splits by document id (a database of version 1 has none). */
  splits: Map<string, SavedSplit>;
  /** BM25 indexes as postings, per unit kind (kept from an import until the corpus changes). */
  lexical: SavedLexical[];
  vectors: SavedVectors[];
  params: unknown;
  /** The file name of a bundle whose import was still being stored when the page closed (reported once). */
  unfinishedImport: string | null;
  /** The corpus's question set ('meta' 'questions'; kept when documents come and go). */
  questions: QuestionSet | null;
}

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
      this.db = await openDB(DB_NAME, DB_VERSION, {
        upgrade(db, oldVersion) {
          if (oldVersion < 1) {
            db.createObjectStore('docs');
            db.createObjectStore('vectors');
            db.createObjectStore('meta');
          }
          if (oldVersion < 2) {
            db.createObjectStore('splits');
            db.createObjectStore('lexical');
          }
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

  async load(): Promise<Saved | null> {
    if (!this.db) return null;
    try {
      const tx = this.db.transaction(['docs', 'splits', 'lexical', 'vectors', 'meta'], 'readwrite');
      const meta = tx.objectStore('meta');
      const [corpus, params, importing, storedQuestions] = (await Promise.all([meta.get('corpus'), meta.get('params'), meta.get('importing'), meta.get('questions')])) as [SavedCorpus | undefined, unknown, { file?: unknown } | undefined, QuestionSet | undefined];
      const questions = storedQuestions ?? null;
      // Reported once: the import's own transaction never committed, so what was stored before it is intact.
      const unfinishedImport = importing ? String(importing.file ?? 'a bundle') : null;
      if (importing) await meta.delete('importing');
      if (!corpus) {
        await tx.done;
        return params || unfinishedImport || questions ? { corpus: { docIds: [], structure: undefined as never, model: null }, docs: [], splits: new Map(), lexical: [], vectors: [], params, unfinishedImport, questions } : null;
      }
      // All requests at once: IndexedDB answers them in order without a round trip each.
      const [found, stored, lexical, vectors] = await Promise.all([
        Promise.all(corpus.docIds.map((id) => tx.objectStore('docs').get(id) as Promise<Document | undefined>)),
        Promise.all(corpus.docIds.map((id) => tx.objectStore('splits').get(id) as Promise<SavedSplit | undefined>)),
        tx.objectStore('lexical').getAll() as Promise<SavedLexical[]>,
        tx.objectStore('vectors').getAll().then((records) => joinVectorParts(records as VectorPart[])),
      ]);
      await tx.done;
      const docs: Document[] = [];
      const splits = new Map<string, SavedSplit>();
      found.forEach((d, i) => {
        if (!d) return;
        docs.push(d);
        const s = stored[i];
        if (s) splits.set(d.id, s);
      });
      return { corpus, docs, splits, lexical, vectors, params, unfinishedImport, questions };
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  async saveCorpus(corpus: SavedCorpus, docs: Document[], splits?: ReadonlyMap<string, SavedSplit>): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta', 'vectors'], 'readwrite');
      this.putCorpus(tx, corpus, docs, splits);
      // Unit ids change with the document list: old vector sets are written again by saveVectors.
      quiet(tx.objectStore('vectors').clear());
      await tx.done;
    });
  }

  /** The documents, their splits and the corpus record, in a transaction (requests queued, not awaited one by one). */
  private putCorpus(tx: IDBPTransaction<unknown, string[], 'readwrite'>, corpus: SavedCorpus, docs: Document[], splits?: ReadonlyMap<string, SavedSplit>): void {
    const keep = new Set(corpus.docIds);
    for (const name of ['docs', 'splits'] as const) {
      const store = tx.objectStore(name);
      quiet(
        store.getAllKeys().then((keys) => {
          for (const key of keys) if (!keep.has(String(key))) quiet(store.delete(key));
        }),
      );
    }
    for (const d of docs) {
      quiet(tx.objectStore('docs').put(d, d.id));
      const s = splits?.get(d.id);
      if (s) quiet(tx.objectStore('splits').put(s, d.id));
      // No split given for a document: a stale one must not outlive it.
      else if (splits) quiet(tx.objectStore('splits').delete(d.id));
    }
    quiet(tx.objectStore('meta').put(corpus, 'corpus'));
    // Postings name unit ids, which a new document list changes: saveImport writes them again.
    quiet(tx.objectStore('lexical').clear());
  }

  /** Keeps one more document (and its split) at once, so a crash later in a drop loses nothing already indexed. */
  async appendDocument(corpus: SavedCorpus, doc: Document, split?: SavedSplit): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta'], 'readwrite');
      quiet(tx.objectStore('docs').put(doc, doc.id));
      quiet(tx.objectStore('lexical').clear());
      if (split) quiet(tx.objectStore('splits').put(split, doc.id));
      else quiet(tx.objectStore('splits').delete(doc.id));
      quiet(tx.objectStore('meta').put(corpus, 'corpus'));
      await tx.done;
    });
  }

  /**
   * Notes that a bundle import is being stored: if the page closes before saveImport
   * commits, the next load() reports it (and the corpus stored before it is still there).
   */
  async markImport(file: string): Promise<void> {
    await this.write((db) => db.put('meta', { file, at: Date.now() }, 'importing'));
  }

  /**
   * An imported corpus in one transaction: documents, splits, the corpus record and every
   * vector set, and the import's mark removed. It commits whole or not at all, so a page
   * closed meanwhile leaves the corpus stored before the import as it was.
   */
  async saveImport(corpus: SavedCorpus, docs: Document[], splits: ReadonlyMap<string, SavedSplit>, vectors: SavedVectors[], lexical: readonly SavedLexical[] = []): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta', 'vectors'], 'readwrite');
      this.putCorpus(tx, corpus, docs, splits);
      for (const l of lexical) quiet(tx.objectStore('lexical').put(l, l.kind));
      const v = tx.objectStore('vectors');
      quiet(v.clear());
      for (const set of vectors) for (const [key, part] of vectorParts(set)) quiet(v.put(part, key));
      quiet(tx.objectStore('meta').delete('importing'));
      await tx.done;
    });
  }

  async saveVectors(sets: SavedVectors[]): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction('vectors', 'readwrite');
      quiet(tx.store.clear());
      for (const s of sets) for (const [key, part] of vectorParts(s)) quiet(tx.store.put(part, key));
      await tx.done;
    });
  }

  /** The question set, whole (a few hundred questions at most: one record). */
  async saveQuestions(set: QuestionSet): Promise<void> {
    await this.write((db) => db.put('meta', set, 'questions'));
  }

  async saveParams(params: unknown): Promise<void> {
    await this.write((db) => db.put('meta', params, 'params'));
  }

  async clear(): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta', 'vectors'], 'readwrite');
      await Promise.all([tx.objectStore('docs').clear(), tx.objectStore('splits').clear(), tx.objectStore('lexical').clear(), tx.objectStore('vectors').clear(), tx.objectStore('meta').delete('corpus'), tx.objectStore('meta').delete('importing')]);
      await tx.done;
    });
  }
}
