import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { StructureParams } from '../core/retrieve/params';
import type { QuestionSet } from '../core/questions/types';
import type { Document } from '../core/types';
import { readStoredLexical, storedLexical, type SavedLexical, type StoredLexical } from './saved-lexical';
import type { SavedSplit } from './saved-split';
import { modelOfKey, type DocSemantic, type DocVectors } from './saved-vectors';
import { createVectorIndexes, dropDocVectors, joinVectorParts, putDocVectors, putPackedVectors, quiet, readDocVectors, type DocVectorPart, type SavedVectors, type VectorPart } from './vector-records';

export type { SavedVectors } from './vector-records';

const DB_NAME = 'rag-context-lab';

/** What is kept across reloads: the documents in order, their structure and every vector set. */
export interface SavedCorpus {
  docIds: string[];
  structure: StructureParams;
  /** Model the vectors were made with (null: BM25 only). */
  model: string | null;
}

/**
 * 2: documents' splits ('splits'), BM25 postings of an imported corpus ('lexical'), and the
 * bundle import in progress ('meta' 'importing'). Version 1 databases open as they are and
 * restore by splitting and indexing again.
 * 3: vectors per document ('docVectors', saved-vectors.ts) and semantic chunks per document
 * ('semantic'). Whole sets in 'vectors' (version 2) are still read once, until the corpus changes.
 * 4: 'docVectors' indexed by the model of their set ('model'), so a start reads only the loaded
 * model's vectors, and another model's when the user switches to it; an import's vectors in
 * packs of many documents ('vectorPacks', vector-records.ts). Later, without a new version: a
 * pack's rows and an index's postings columns are written as Blobs (they were typed arrays; both
 * are read, and a pack written again on a removal becomes a Blob).
 */
const DB_VERSION = 4;

/**
 * The transactions that write vectors (an import's, the embedding job's) commit without waiting
 * for the disk to flush: the data is handed to the operating system as before, so a reload or a
 * closed tab keeps it; only a crash of the machine itself could lose the last writes, which are
 * then made again. A 100k import is some 200 MB to write.
 */
const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

/** What load() gives back. */
export interface Saved {
  corpus: SavedCorpus;
  docs: Document[];
  /** Stored splits by document id (a database of version 1 has none). */
  splits: Map<string, SavedSplit>;
  /** BM25 indexes as postings, per unit kind (kept from an import until the corpus changes). */
  lexical: SavedLexical[];
  /** Whole vector sets stored by version 2 (read once; the corpus's next change drops them). */
  vectors: SavedVectors[];
  /** Semantic chunks per document (version 3; each model's vectors per document are read with the model, docVectorsOf). */
  semantic: DocSemantic[];
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
        async upgrade(db, oldVersion, _newVersion, tx) {
          if (oldVersion < 1) {
            db.createObjectStore('docs');
            db.createObjectStore('vectors');
            db.createObjectStore('meta');
          }
          if (oldVersion < 2) {
            db.createObjectStore('splits');
            db.createObjectStore('lexical');
          }
          if (oldVersion < 3) {
            db.createObjectStore('docVectors');
            db.createObjectStore('semantic');
          }
          if (oldVersion < 4) {
            createVectorIndexes(tx, db);
            // Records of version 3 learn their set's model, once (none exist below version 3).
            for (let c = await tx.objectStore('docVectors').openCursor(); c; c = await c.continue()) {
              const r = c.value as DocVectorPart;
              if (r.model === undefined) await c.update({ ...r, model: modelOfKey(r.key) });
            }
          }
        },
      });
    } catch (e) {
      this.fail(e);
    }
  }

  /** `what`: what the failed write would have kept, said with the reason. */
  private fail(e: unknown, what?: string): void {
    const name = (e as { name?: string })?.name;
    const why = name === 'QuotaExceededError' ? 'the browser storage quota is full' : `storage is unavailable (${(e as Error)?.message ?? e})`;
    this.reason = what ? `${why}; ${what} could not be stored` : why;
    this.db = null;
  }

  /** Runs a write; a failure switches persistence off instead of breaking the app. False when it was not stored. */
  private async write(fn: (db: IDBPDatabase) => Promise<unknown>, what?: string): Promise<boolean> {
    if (!this.db) return false;
    try {
      await fn(this.db);
      return true;
    } catch (e) {
      this.fail(e, what);
      return false;
    }
  }

  async load(): Promise<Saved | null> {
    if (!this.db) return null;
    try {
      const tx = this.db.transaction(['docs', 'splits', 'lexical', 'vectors', 'docVectors', 'semantic', 'meta'], 'readwrite');
      const meta = tx.objectStore('meta');
      const [corpus, params, importing, storedQuestions] = (await Promise.all([meta.get('corpus'), meta.get('params'), meta.get('importing'), meta.get('questions')])) as [SavedCorpus | undefined, unknown, { file?: unknown } | undefined, QuestionSet | undefined];
      const questions = storedQuestions ?? null;
      // Reported once: the import's own transaction never committed, so what was stored before it is intact.
      const unfinishedImport = importing ? String(importing.file ?? 'a bundle') : null;
      if (importing) await meta.delete('importing');
      if (!corpus) {
        await tx.done;
        return params || unfinishedImport || questions ? { corpus: { docIds: [], structure: undefined as never, model: null }, docs: [], splits: new Map(), lexical: [], vectors: [], semantic: [], params, unfinishedImport, questions } : null;
      }
      // All requests at once: IndexedDB answers them in order without a round trip each.
      const [found, stored, storedLexicals, vectors, semantic] = await Promise.all([
        Promise.all(corpus.docIds.map((id) => tx.objectStore('docs').get(id) as Promise<Document | undefined>)),
        Promise.all(corpus.docIds.map((id) => tx.objectStore('splits').get(id) as Promise<SavedSplit | undefined>)),
        tx.objectStore('lexical').getAll() as Promise<StoredLexical[]>,
        tx.objectStore('vectors').getAll().then((records) => joinVectorParts(records as VectorPart[])),
        tx.objectStore('semantic').getAll() as Promise<DocSemantic[]>,
      ]);
      await tx.done;
      // Their Blobs are read after the transaction (a Blob outlives it).
      const lexical = (await Promise.all(storedLexicals.map(readStoredLexical))).filter((l): l is SavedLexical => l !== null);
      const docs: Document[] = [];
      const splits = new Map<string, SavedSplit>();
      found.forEach((d, i) => {
        if (!d) return;
        docs.push(d);
        const s = stored[i];
        if (s) splits.set(d.id, s);
      });
      return { corpus, docs, splits, lexical, vectors, semantic, params, unfinishedImport, questions };
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  /** One model's vectors per document and set, as stored (the other models' stay on disk until asked for). */
  async docVectorsOf(model: string): Promise<DocVectors[]> {
    if (!this.db) return [];
    try {
      return await readDocVectors(this.db.transaction(['docVectors', 'vectorPacks']), model);
    } catch (e) {
      this.fail(e);
      return [];
    }
  }

  /** The document list; the vectors and semantic chunks of documents no longer in it go with them, the others' stay. */
  async saveCorpus(corpus: SavedCorpus, docs: Document[], splits?: ReadonlyMap<string, SavedSplit>): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta', 'vectors', 'docVectors', 'vectorPacks', 'semantic'], 'readwrite');
      this.putCorpus(tx, corpus, docs, splits);
      // Whole sets of version 2 name unit ids, which a new document list changes.
      quiet(tx.objectStore('vectors').clear());
      await tx.done;
    });
  }

  /** The documents, their splits and the corpus record, in a transaction (requests queued, not awaited one by one). */
  private putCorpus(tx: IDBPTransaction<unknown, string[], 'readwrite'>, corpus: SavedCorpus, docs: Document[], splits?: ReadonlyMap<string, SavedSplit>): void {
    const keep = new Set(corpus.docIds);
    for (const name of ['docs', 'splits', 'semantic'] as const) {
      const store = tx.objectStore(name);
      quiet(
        store.getAllKeys().then((keys) => {
          const gone = keys.filter((key) => !keep.has(String(key)));
          for (const key of gone) quiet(store.delete(key));
          if (name === 'docs') dropDocVectors(tx, gone.map(String));
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
  async saveImport(corpus: SavedCorpus, docs: Document[], splits: ReadonlyMap<string, SavedSplit>, vectors: readonly DocVectors[], lexical: readonly SavedLexical[] = [], semantic: readonly DocSemantic[] = []): Promise<boolean> {
    return this.write(async (db) => {
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta', 'vectors', 'docVectors', 'vectorPacks', 'semantic'], 'readwrite', RELAXED);
      this.putCorpus(tx, corpus, docs, splits);
      for (const l of lexical) quiet(tx.objectStore('lexical').put(storedLexical(l), l.kind));
      quiet(tx.objectStore('vectors').clear());
      // Many documents a record: a few dozen writes for 100k sentences, not thousands.
      putPackedVectors(tx, vectors);
      for (const s of semantic) quiet(tx.objectStore('semantic').put(s, s.doc));
      quiet(tx.objectStore('meta').delete('importing'));
      await tx.done;
    }, 'the imported bundle');
  }

  /** Documents' vectors and semantic chunks as they are made, each record replacing the document's earlier one. False when they could not be stored. */
  async saveDocVectors(vectors: readonly DocVectors[], semantic: readonly DocSemantic[], what = 'the vectors made since the last save'): Promise<boolean> {
    if (!vectors.length && !semantic.length) return this.on;
    return this.write(async (db) => {
      const tx = db.transaction(['docVectors', 'vectorPacks', 'semantic'], 'readwrite', RELAXED);
      putDocVectors(tx, vectors);
      for (const s of semantic) quiet(tx.objectStore('semantic').put(s, s.doc));
      await tx.done;
    }, what);
  }

  /** A document's vectors and semantic chunks no longer hold (its text for the model changed). */
  async forgetVectors(docIds: readonly string[]): Promise<void> {
    await this.write(async (db) => {
      const tx = db.transaction(['docVectors', 'vectorPacks', 'semantic'], 'readwrite');
      dropDocVectors(tx, docIds);
      for (const doc of docIds) quiet(tx.objectStore('semantic').delete(doc));
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
      const tx = db.transaction(['docs', 'splits', 'lexical', 'meta', 'vectors', 'docVectors', 'vectorPacks', 'semantic'], 'readwrite');
      await Promise.all([tx.objectStore('docs').clear(), tx.objectStore('splits').clear(), tx.objectStore('lexical').clear(), tx.objectStore('vectors').clear(), tx.objectStore('docVectors').clear(), tx.objectStore('vectorPacks').clear(), tx.objectStore('semantic').clear(), tx.objectStore('meta').delete('corpus'), tx.objectStore('meta').delete('importing')]);
      await tx.done;
    });
  }
}
