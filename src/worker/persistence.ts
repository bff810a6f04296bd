import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { StructureParams } from '../core/retrieve/params';
import type { GenerationRun, LabelledQuestion, QuestionSet } from '../core/questions/types';
import type { Document } from '../core/types';
import { readStoredLexical, storedLexical, type SavedLexical, type StoredLexical } from './saved-lexical';
import type { SavedSplit } from './saved-split';
import { modelOfKey, type DocSemantic, type DocVectors } from './saved-vectors';
import { documentList, inOrder, OrderStamps, readStoredDocument, storedDocuments, type StoredDocument, type StoredRecord } from './stored-records';
import { createVectorIndexes, dropDocVectors, joinVectorParts, putDocVectors, putPackedVectors, quiet, readDocVectors, type DocVectorPart, type SavedVectors, type VectorPart } from './vector-records';

export type { SavedVectors } from './vector-records';

const DB_NAME = 'rag-context-lab';

/** What is kept of the corpus besides its records: the structure its splits were made for, and the model. */
export interface SavedCorpus {
  structure: StructureParams;
  /** Model the vectors were made with (null: BM25 only). */
  model: string | null;
}

/** A document to store, with its split when there is one. */
export interface DocumentEntry {
  doc: Document;
  split?: SavedSplit;
}

/** What changed in storage, announced to the other tabs (lab-changes.ts). */
export type StorageChange = 'docs' | 'vectors' | 'questions';

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
 * are read, and a pack written again on a removal becomes a Blob); later still, a document's
 * text and an index's terms (stored-records.ts, saved-lexical.ts; both forms are read).
 * 5: records only (stored-records.ts): the document list is the 'docs' records in the order of
 * their stamps ({order, doc}; 'meta' 'corpus' keeps the structure and model, no list), the
 * question set one record a question ('questions') and a generation run ('questionRuns'), and
 * 'meta' 'owner' names the tab that may write (see claim()).
 */
const DB_VERSION = 5;

/**
 * The transactions that write vectors (an import's, the embedding job's) commit without waiting
 * for the disk to flush: the data is handed to the operating system as before, so a reload or a
 * closed tab keeps it; only a crash of the machine itself could lose the last writes, which are
 * then made again. A 100k import is some 200 MB to write.
 */
const RELAXED: IDBTransactionOptions = { durability: 'relaxed' };

/** How long a start waits for a tab of an older version that holds the database open. */
const BLOCKED_MS = 3000;

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
  /** The file name of a bundle whose import was still being stored when its tab closed (the owner drops the mark: dropImportMark). */
  unfinishedImport: string | null;
  /** The corpus's question set (kept when documents come and go). */
  questions: QuestionSet | null;
}

type WriteTx = IDBPTransaction<unknown, string[], 'readwrite'>;

/** A write refused because another tab has claimed the storage since this one did. */
class NotOwner extends Error {}

/**
 * IndexedDB storage, used from the worker. Any failure (private mode, quota) turns
 * persistence off with a reason; the app keeps working in memory.
 *
 * Only the tab that owns the lab writes (lab-owner.ts: a Web Lock), and every write checks, in
 * its own transaction, that this tab's claim is still the stored one: a tab that lost the lab
 * while a write was on its way (its page was taken over) cannot write after the new owner has
 * read the storage. Writes are per record (stored-records.ts), so nothing is written back from
 * a copy in memory.
 */
export class Persistence {
  private db: IDBPDatabase | null = null;
  reason: string | undefined;
  /** The titles of documents the last load left out: their stored text could not be read back (the browser lost it). */
  lost: string[] = [];
  /** The claim this tab writes under (claim()); null: it does not write. */
  private tab: string | null = null;
  private readonly stamps = new OrderStamps();

  /**
   * `changed`: a write committed (the lab tells the other tabs). `lost`: a write found another
   * tab's claim: this one no longer writes.
   */
  constructor(private readonly events: { changed?: (what: StorageChange) => void; lost?: () => void } = {}) {}

  get on(): boolean {
    return this.db !== null;
  }

  /** This tab writes (its claim is the stored one, as far as it knows). */
  get owner(): boolean {
    return this.db !== null && this.tab !== null;
  }

  async open(): Promise<void> {
    let blocked: (() => void) | null = null;
    try {
      if (typeof indexedDB === 'undefined') throw new Error('IndexedDB is not available here');
      const opening = openDB(DB_NAME, DB_VERSION, {
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
          if (oldVersion < 5) {
            db.createObjectStore('questions');
            db.createObjectStore('questionRuns');
            if (oldVersion >= 1) await recordsFromLists(tx);
          }
        },
        // A tab of an older version holds the database open: after a moment this one goes on without storage rather than wait.
        blocked: () => blocked?.(),
      });
      const waitedOut = new Promise<null>((resolve) => {
        blocked = () => setTimeout(() => resolve(null), BLOCKED_MS);
      });
      const db = await Promise.race([opening, waitedOut]);
      if (!db) {
        void opening.then((late) => late.close(), () => undefined);
        throw new Error('the lab is open in another tab of an older version: close it and reload this one');
      }
      // A newer version of the lab in another tab is not kept waiting for this one.
      db.addEventListener('versionchange', () => {
        db.close();
        this.db = null;
        this.reason = 'a newer version of the lab opened its storage in another tab: reload this one';
      });
      this.db = db;
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

  /**
   * This tab writes from now on, under `tab` (its claim is stored: a tab that claimed before can
   * no longer write). Read the storage after this, never before: what the tab holds must be
   * what was stored when its claim began.
   */
  async claim(tab: string): Promise<boolean> {
    if (!this.db) return false;
    try {
      await this.db.put('meta', { tab, at: Date.now() }, 'owner');
      this.tab = tab;
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    }
  }

  /**
   * Whether this tab's claim is still the stored one, read now: for writes outside this
   * database (the contexts'), which cannot check it in their own transaction.
   */
  async stillOwner(): Promise<boolean> {
    const tab = this.tab;
    if (!this.db || !tab) return false;
    try {
      const claim = (await this.db.get('meta', 'owner')) as { tab?: string } | undefined;
      if (claim?.tab === tab) return true;
    } catch {
      return false;
    }
    if (this.tab === tab) {
      this.tab = null;
      this.events.lost?.();
    }
    return false;
  }

  /** This tab stops writing (another takes the lab). */
  release(): void {
    this.tab = null;
  }

  /**
   * Runs a write in one transaction over `stores` (and 'meta', where the claim is checked
   * first); a failure switches persistence off instead of breaking the app. False when it was
   * not stored: refused by the browser, or this tab does not own the storage (any more).
   */
  private async write(stores: readonly string[], fn: (tx: WriteTx) => void | Promise<void>, change: StorageChange | null, what?: string, options?: IDBTransactionOptions): Promise<boolean> {
    const tab = this.tab;
    if (!this.db || !tab) return false;
    try {
      const tx = this.db.transaction([...new Set(['meta', ...stores])], 'readwrite', options);
      try {
        const claim = (await tx.objectStore('meta').get('owner')) as { tab?: string } | undefined;
        if (claim?.tab !== tab) throw new NotOwner();
        await fn(tx);
        await tx.done;
      } catch (e) {
        // Whatever was queued before the failure goes with it: a record is written whole or not at all.
        try {
          tx.abort();
        } catch {
          // Already ended (the failure was its own).
        }
        quiet(tx.done);
        throw e;
      }
      if (change) this.events.changed?.(change);
      return true;
    } catch (e) {
      if (e instanceof NotOwner) {
        if (this.tab === tab) {
          this.tab = null;
          this.events.lost?.();
        }
        return false;
      }
      this.fail(e, what);
      return false;
    }
  }

  /** Everything stored, read in one transaction that writes nothing (a tab that does not own the lab reads it too). */
  async load(): Promise<Saved | null> {
    if (!this.db) return null;
    try {
      const tx = this.db.transaction(['docs', 'splits', 'lexical', 'vectors', 'semantic', 'meta', 'questions', 'questionRuns'], 'readonly');
      const meta = tx.objectStore('meta');
      // All requests at once: IndexedDB answers them in order without a round trip each.
      const [corpus, params, importing, records, splitKeys, splitValues, storedLexicals, vectors, semantic, questions] = await Promise.all([
        meta.get('corpus') as Promise<SavedCorpus | undefined>,
        meta.get('params'),
        meta.get('importing') as Promise<{ file?: unknown } | undefined>,
        tx.objectStore('docs').getAll() as Promise<StoredDocument[]>,
        tx.objectStore('splits').getAllKeys(),
        tx.objectStore('splits').getAll() as Promise<SavedSplit[]>,
        tx.objectStore('lexical').getAll() as Promise<StoredLexical[]>,
        tx.objectStore('vectors').getAll().then((records) => joinVectorParts(records as VectorPart[])),
        tx.objectStore('semantic').getAll() as Promise<DocSemantic[]>,
        this.questionsIn(tx),
      ]);
      await tx.done;
      for (const r of records) this.stamps.saw(r.order);
      const unfinishedImport = importing ? String(importing.file ?? 'a bundle') : null;
      // Their texts' Blobs are read after the transaction (a Blob outlives it).
      const read = await Promise.all(records.map(readStoredDocument));
      this.lost = records.filter((r, i) => read[i] === null && typeof r?.doc?.title === 'string').map((r) => r.doc.title);
      const docs = documentList(read.filter((r) => r !== null));
      // Settings never stored (a drop cut short before its first write): the defaults (structureParams of nothing).
      const settings = corpus ?? { structure: undefined as never, model: null };
      if (!docs.length) return corpus || params || unfinishedImport || questions ? { corpus: settings, docs: [], splits: new Map(), lexical: [], vectors: [], semantic: [], params, unfinishedImport, questions } : null;
      const lexical = (await Promise.all(storedLexicals.map(readStoredLexical))).filter((l): l is SavedLexical => l !== null);
      const ids = new Set(docs.map((d) => d.id));
      const splits = new Map<string, SavedSplit>();
      splitKeys.forEach((k, i) => {
        if (ids.has(String(k))) splits.set(String(k), splitValues[i]!);
      });
      return { corpus: settings, docs, splits, lexical, vectors, semantic: semantic.filter((s) => ids.has(s.doc)), params, unfinishedImport, questions };
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  /** The question set as stored: its questions and runs, in the order they were added. */
  private async questionsIn(tx: IDBPTransaction<unknown, string[], 'readonly'>): Promise<QuestionSet | null> {
    const [questions, runs] = await Promise.all([tx.objectStore('questions').getAll() as Promise<StoredRecord<LabelledQuestion>[]>, tx.objectStore('questionRuns').getAll() as Promise<StoredRecord<GenerationRun>[]>]);
    if (!questions.length && !runs.length) return null;
    return {
      questions: inOrder(questions, (r) => r.order, (r) => r.value.id).map((r) => r.value),
      runs: inOrder(runs, (r) => r.order, () => '').map((r) => r.value),
    };
  }

  /** The question set alone (a tab that follows another's changes). */
  async loadQuestions(): Promise<QuestionSet | null> {
    if (!this.db) return null;
    try {
      const tx = this.db.transaction(['questions', 'questionRuns'], 'readonly');
      const set = await this.questionsIn(tx);
      await tx.done;
      return set;
    } catch {
      return null;
    }
  }

  /** Every document's stored semantic chunks (a tab that follows another's embedding). */
  async semanticRecords(): Promise<DocSemantic[]> {
    if (!this.db) return [];
    try {
      return (await this.db.getAll('semantic')) as DocSemantic[];
    } catch {
      return [];
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

  /** Queues documents at the end of the list (stamps after every stored one), each with its split or none. */
  private putDocuments(tx: WriteTx, entries: readonly DocumentEntry[]): void {
    const records = storedDocuments(entries.map(({ doc }) => ({ order: this.stamps.next(), doc })));
    for (const [i, { doc, split }] of entries.entries()) {
      quiet(tx.objectStore('docs').put(records[i], doc.id));
      if (split) quiet(tx.objectStore('splits').put(split, doc.id));
      // No split given: a stale one must not outlive the document's new text.
      else quiet(tx.objectStore('splits').delete(doc.id));
    }
    // Postings name unit ids, which a new document list changes.
    if (entries.length) quiet(tx.objectStore('lexical').clear());
  }

  /** Queues splits of documents that are stored (a split of a document removed meanwhile is not written). */
  private putSplits(tx: WriteTx, splits: ReadonlyMap<string, SavedSplit>): void {
    const docs = tx.objectStore('docs');
    for (const [id, split] of splits) quiet(docs.getKey(id).then((key) => key !== undefined && quiet(tx.objectStore('splits').put(split, id))));
  }

  /** Queues the removal of documents with everything stored for them. */
  private dropDocuments(tx: WriteTx, ids: readonly string[]): void {
    if (!ids.length) return;
    for (const name of ['docs', 'splits', 'semantic'] as const) for (const id of ids) quiet(tx.objectStore(name).delete(id));
    dropDocVectors(tx, ids);
    quiet(tx.objectStore('lexical').clear());
    // Whole sets of version 2 name unit ids, which a new document list changes.
    quiet(tx.objectStore('vectors').clear());
  }

  /**
   * Documents added at the end of the list, each with its split, and the corpus's settings:
   * one transaction, so a crash later in a drop loses nothing already indexed.
   */
  async addDocuments(entries: readonly DocumentEntry[], settings: SavedCorpus): Promise<boolean> {
    return this.write(['docs', 'splits', 'lexical'], (tx) => {
      this.putDocuments(tx, entries);
      quiet(tx.objectStore('meta').put(settings, 'corpus'));
    }, 'docs');
  }

  /** Documents removed, with their splits, semantic chunks and vectors (every other record stays). */
  async removeDocuments(ids: readonly string[]): Promise<boolean> {
    return this.write(['docs', 'splits', 'semantic', 'lexical', 'vectors', 'docVectors', 'vectorPacks'], (tx) => this.dropDocuments(tx, ids), 'docs');
  }

  /** A document whose text for the model changed (its headers' title and summary): it goes to the end of the list, its vectors and semantic chunks go. */
  async replaceDocument(entry: DocumentEntry): Promise<boolean> {
    return this.write(['docs', 'splits', 'semantic', 'lexical', 'docVectors', 'vectorPacks'], (tx) => {
      dropDocVectors(tx, [entry.doc.id]);
      quiet(tx.objectStore('semantic').delete(entry.doc.id));
      this.putDocuments(tx, [entry]);
    }, 'docs');
  }

  /** A new corpus in place of the stored one (a labelled set that brings its documents): one transaction. */
  async replaceCorpus(entries: readonly DocumentEntry[], settings: SavedCorpus): Promise<boolean> {
    return this.write(CORPUS_STORES, (tx) => {
      for (const name of CORPUS_STORES) quiet(tx.objectStore(name).clear());
      this.putDocuments(tx, entries);
      quiet(tx.objectStore('meta').put(settings, 'corpus'));
    }, 'docs');
  }

  /** The corpus's settings, and the splits that changed with them (of documents still stored). */
  async saveSettings(settings: SavedCorpus, splits: ReadonlyMap<string, SavedSplit>): Promise<boolean> {
    return this.write(['docs', 'splits'], (tx) => {
      quiet(tx.objectStore('meta').put(settings, 'corpus'));
      this.putSplits(tx, splits);
    }, splits.size ? 'docs' : null);
  }

  /**
   * Notes that a bundle import is being stored: if the page closes before saveImport
   * commits, the next load() reports it (and the corpus stored before it is still there).
   */
  async markImport(file: string): Promise<void> {
    await this.write([], (tx) => void quiet(tx.objectStore('meta').put({ file, at: Date.now() }, 'importing')), null);
  }

  /** The mark of an import that never committed, once it has been reported. */
  async dropImportMark(): Promise<void> {
    await this.write([], (tx) => void quiet(tx.objectStore('meta').delete('importing')), null);
  }

  /**
   * An imported bundle in one transaction: its documents (after the stored ones) and their
   * splits, the splits of documents already stored that changed with the bundle's settings, the
   * settings, BM25 postings and vector sets, and the import's mark removed. It commits whole or
   * not at all, so a page closed meanwhile leaves the corpus stored before the import as it was.
   */
  async saveImport(settings: SavedCorpus, added: readonly DocumentEntry[], splits: ReadonlyMap<string, SavedSplit>, vectors: readonly DocVectors[], lexical: readonly SavedLexical[] = [], semantic: readonly DocSemantic[] = []): Promise<boolean> {
    return this.write(CORPUS_STORES, (tx) => {
      this.putDocuments(tx, added);
      this.putSplits(tx, splits);
      quiet(tx.objectStore('meta').put(settings, 'corpus'));
      // After putDocuments (which clears them): the postings of the corpus with the bundle.
      for (const l of lexical) quiet(tx.objectStore('lexical').put(storedLexical(l), l.kind));
      quiet(tx.objectStore('vectors').clear());
      // Many documents a record: a few dozen writes for 100k sentences, not thousands.
      putPackedVectors(tx, vectors);
      for (const s of semantic) quiet(tx.objectStore('semantic').put(s, s.doc));
      quiet(tx.objectStore('meta').delete('importing'));
    }, 'docs', 'the imported bundle', RELAXED);
  }

  /** Documents' vectors and semantic chunks as they are made, each record replacing the document's earlier one. False when they could not be stored. */
  async saveDocVectors(vectors: readonly DocVectors[], semantic: readonly DocSemantic[], what = 'the vectors made since the last save'): Promise<boolean> {
    if (!vectors.length && !semantic.length) return this.owner;
    return this.write(['docVectors', 'vectorPacks', 'semantic'], (tx) => {
      putDocVectors(tx, vectors);
      for (const s of semantic) quiet(tx.objectStore('semantic').put(s, s.doc));
    }, 'vectors', what, RELAXED);
  }

  /** A document's vectors and semantic chunks no longer hold (its text for the model changed). */
  async forgetVectors(docIds: readonly string[]): Promise<void> {
    await this.write(['docVectors', 'vectorPacks', 'semantic'], (tx) => {
      dropDocVectors(tx, docIds);
      for (const doc of docIds) quiet(tx.objectStore('semantic').delete(doc));
    }, 'vectors');
  }

  /** Questions written (new ones after every stored one; a changed one keeps its place). */
  async putQuestions(questions: readonly LabelledQuestion[]): Promise<void> {
    if (!questions.length) return;
    await this.write(['questions'], (tx) => {
      const store = tx.objectStore('questions');
      for (const q of questions) {
        const order = this.stamps.next();
        quiet((store.get(q.id) as Promise<StoredRecord<LabelledQuestion> | undefined>).then((old) => quiet(store.put({ order: old?.order ?? order, value: q }, q.id))));
      }
    }, 'questions');
  }

  async deleteQuestions(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    await this.write(['questions'], (tx) => {
      for (const id of ids) quiet(tx.objectStore('questions').delete(id));
    }, 'questions');
  }

  /** A generation run, kept after the others. */
  async addQuestionRun(run: GenerationRun): Promise<void> {
    const order = this.stamps.next();
    await this.write(['questionRuns'], (tx) => void quiet(tx.objectStore('questionRuns').put({ order, value: run }, order)), 'questions');
  }

  async saveParams(params: unknown): Promise<void> {
    await this.write([], (tx) => void quiet(tx.objectStore('meta').put(params, 'params')), null);
  }

  /** Every document and what was stored for it go (the question set stays: its questions say their documents are missing). */
  async clear(): Promise<boolean> {
    return this.write(CORPUS_STORES, (tx) => {
      for (const name of CORPUS_STORES) quiet(tx.objectStore(name).clear());
      quiet(tx.objectStore('meta').delete('corpus'));
      quiet(tx.objectStore('meta').delete('importing'));
    }, 'docs');
  }
}

/** The stores that hold the corpus (the question set and parameters are kept apart). */
const CORPUS_STORES = ['docs', 'splits', 'lexical', 'vectors', 'docVectors', 'vectorPacks', 'semantic'] as const;

/**
 * Version 5's records from the lists of before: each listed document gets its place in the
 * list as its stamp (a document no list names was not part of the corpus, and goes), the
 * corpus record loses its list, and the question set becomes a record per question and run.
 */
async function recordsFromLists(tx: IDBPTransaction<unknown, string[], 'versionchange'>): Promise<void> {
  const meta = tx.objectStore('meta');
  const corpus = (await meta.get('corpus')) as (SavedCorpus & { docIds?: string[] }) | undefined;
  const listed = new Map((corpus?.docIds ?? []).map((id, i) => [id, i]));
  for (let c = await tx.objectStore('docs').openCursor(); c; c = await c.continue()) {
    const order = listed.get(String(c.key));
    if (order === undefined) await c.delete();
    else await c.update({ order, doc: c.value as Document } satisfies StoredDocument);
  }
  if (corpus) {
    const { docIds: _list, ...settings } = corpus;
    await meta.put(settings, 'corpus');
  }
  const set = (await meta.get('questions')) as QuestionSet | undefined;
  if (set) {
    for (const [order, q] of (set.questions ?? []).entries()) if (q && typeof q.id === 'string') await tx.objectStore('questions').put({ order, value: q }, q.id);
    for (const [order, run] of (set.runs ?? []).entries()) await tx.objectStore('questionRuns').put({ order, value: run }, order);
    await meta.delete('questions');
  }
}
