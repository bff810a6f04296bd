/**
 * Keeps the engine's vectors and semantic chunks in storage as they are made (saved-vectors.ts):
 * whole documents while the job runs (at most one write every SAVE_INTERVAL_MS), everything
 * made so far when it ends or stops. It remembers what it wrote, so each record is written
 * once per change, and says what a reload restored.
 */
import type { RetrievalEngine } from '../core/engine';
import { UNIT_KINDS } from '../core/retrieve/params';
import type { Persistence } from './persistence';
import { engineSemanticWrites, engineVectorWrites, restoreDocVectors, semanticKey, storedKey, unitsKey, type DocSemantic, type DocVectors } from './saved-vectors';
import { splitKey } from './saved-split';

const SAVE_INTERVAL_MS = 1500;

export interface RestoredVectors {
  /** Vectors taken from storage (all kinds). */
  vectors: number;
  /** Documents whose semantic chunks were taken from storage. */
  semanticDocs: number;
  /** Units (semantic chunks apart) left without a vector then, and documents whose semantic chunks are still to cut. */
  toEmbed: number;
  toCut: number;
}

export class VectorKeeper {
  /** Rows written per storedKey (doc, set key, units key). */
  private readonly vectors = new Map<string, number>();
  /** storedKey(doc, 'semantic', semanticKey) of documents whose semantic chunks are written. */
  private readonly semantic = new Set<string>();
  /** Semantic chunks read at start, waiting for the model they were found with (vectors are read with their model). */
  private savedSemantic: DocSemantic[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<unknown> = Promise.resolve();
  /** What the last restore took from storage (null: nothing was restored in this page). */
  restored: RestoredVectors | null = null;
  /** The corpus came from storage: what a model load restores is said, even when it is nothing. */
  private fromStorage = false;

  /** `failed`: a write was refused (persistence is off from then on; its reason says what was not kept). */
  constructor(
    private readonly persistence: Persistence,
    private readonly failed: () => void,
  ) {}

  /** The corpus came from storage: the semantic chunks read at start wait for their model; vectors are read model by model. */
  load(semantic: DocSemantic[]): void {
    this.fromStorage = true;
    this.savedSemantic = semantic;
  }

  /** Puts the stored vectors of `engine`'s model that fit into it (read now: only this model's) and counts them as written. */
  async restoreInto(engine: RetrievalEngine): Promise<void> {
    if (!engine.embedder || !this.fromStorage) return;
    const saved = await this.persistence.docVectorsOf(engine.embedder.model);
    const semanticBefore = engine.semanticCoverage().done;
    const vectors = await restoreDocVectors(engine, saved, this.savedSemantic);
    const semantic = engine.semanticCoverage();
    // Counted as the documents' progress counts them: semantic chunks apart.
    const toEmbed = UNIT_KINDS.filter((k) => k !== 'semantic').reduce((n, k) => n + engine.unitCount(k) - engine.vectorCoverage(k).done, 0);
    this.restored = { vectors, semanticDocs: semantic.done - semanticBefore, toEmbed, toCut: semantic.total - semantic.done };
    // What was restored is stored already: not written again.
    const split = splitKey(engine);
    for (const r of saved) {
      const kind = r.key.split('|')[0] as Parameters<typeof unitsKey>[2];
      if (r.tree === unitsKey(split, engine.structure, kind)) this.vectors.set(storedKey(r.doc, r.key, r.tree), r.data.length / r.dim);
    }
    const tree = semanticKey(engine);
    for (const s of this.savedSemantic) if (s.tree === tree) this.semantic.add(storedKey(s.doc, 'semantic', s.tree));
  }

  /**
   * Another tab stored vectors or semantic chunks (this one follows it): the stored semantic
   * chunks and this model's vectors are read again into `engine` (it makes none of its own).
   */
  async refresh(engine: RetrievalEngine): Promise<void> {
    this.load(await this.persistence.semanticRecords());
    await this.restoreInto(engine);
  }

  /** A write soon (whole documents only): called on the job's progress. */
  schedule(engine: () => RetrievalEngine): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save(engine(), false);
    }, SAVE_INTERVAL_MS);
  }

  /** Writes what `engine` has that is not stored yet (`partial`: documents embedded only in part too). False when it could not be stored. */
  save(engine: RetrievalEngine, partial: boolean): Promise<boolean> {
    const run = this.writing.then(async () => {
      // Only the tab that owns the lab writes (a tab that follows another reads what it stores).
      if (!this.persistence.owner) return false;
      const { vectors, semantic } = this.pending(engine, partial);
      if (!vectors.length && !semantic.length) return true;
      const docs = new Set([...vectors, ...semantic].map((r) => r.doc));
      const names = engine.corpus.docs.filter((d) => docs.has(d.id)).map((d) => d.meta.fileName ?? d.title);
      const what = `the vectors of ${names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more documents` : names.join(', ')}`;
      const ok = await this.persistence.saveDocVectors(vectors, semantic, what);
      if (!ok) {
        this.failed();
        return false;
      }
      this.written(vectors, semantic);
      return true;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** What `engine` has that is not stored yet, as records (an import stores them in its own transaction; `views`: see engineVectorWrites). */
  pending(engine: RetrievalEngine, partial: boolean, views = false): { vectors: DocVectors[]; semantic: DocSemantic[] } {
    return { vectors: engineVectorWrites(engine, this.vectors, partial, views), semantic: engineSemanticWrites(engine, this.semantic) };
  }

  /** Records stored: not written again. */
  written(vectors: readonly DocVectors[], semantic: readonly DocSemantic[]): void {
    for (const r of vectors) this.vectors.set(storedKey(r.doc, r.key, r.tree), r.data.length / r.dim);
    for (const s of semantic) this.semantic.add(storedKey(s.doc, 'semantic', s.tree));
  }

  /** Documents whose vectors no longer hold (removed, or their text for the model changed; their stored records go with the document's). */
  forget(docIds: readonly string[]): void {
    const gone = new Set(docIds);
    for (const key of [...this.vectors.keys()]) if (gone.has(key.split('\u0000')[0]!)) this.vectors.delete(key);
    for (const key of [...this.semantic]) if (gone.has(key.split('\u0000')[0]!)) this.semantic.delete(key);
    this.savedSemantic = this.savedSemantic.filter((s) => !gone.has(s.doc));
  }

  /** The corpus was cleared: nothing is stored any more. */
  reset(): void {
    this.vectors.clear();
    this.semantic.clear();
    this.savedSemantic = [];
    this.restored = null;
    this.fromStorage = false;
  }
}
