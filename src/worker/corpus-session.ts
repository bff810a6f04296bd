/**
 * The corpus as the lab holds it: the documents in order, the structure parameters, the
 * models, and the retrieval engine built from them — plus engines of other chunk-size
 * variants, kept with their vectors so switching back is free. Every change that needs a
 * new engine goes through `replaceEngine`.
 */
import type { Embedder } from '../core/embed/embedder';
import { lateChunkingOf } from '../core/embed/late-chunking';
import { lexicalKey } from '../core/index/lexical-index';
import type { Reranker } from '../core/embed/reranker';
import { RetrievalEngine } from '../core/engine';
import { BUNDLE_KINDS } from '../core/export/tables';
import { vectorIndexFactory } from '../core/index/backends';
import { structureParams, type StructureParams, type UnitKind } from '../core/retrieve/params';
import { headerKey } from '../core/structure/headers';
import type { Document, DocumentContext } from '../core/types';
import type { EmbeddingJob } from './embedding-job';
import type { SavedVectors } from './persistence';
import { adoptStoredLexical, packLexical, type SavedLexical } from './saved-lexical';
import { addStoredDocuments, packSplit, packSplits, provisionalCounter, splitKey, storedSplitOrigin, type SavedSplit } from './saved-split';
import { labError, type DocSummary, type IndexBackend } from './protocol';

/** Chunk-size variants kept besides the current one. */
const MAX_VARIANTS = 2;

/** Structure fields that need new units (headers only need new vectors). */
function treeKey(s: StructureParams): string {
  return JSON.stringify([s.chunkLevels, s.sectionLevel, s.naive, s.packed, s.semantic]);
}

/** Late-chunked vectors where asked for and the model can make them, else plain (the page shows the model's reason by the switch). */
function vectorVariant(s: StructureParams, embedder: Embedder | null): StructureParams['vectors'] {
  return s.vectors === 'late' && lateChunkingOf(embedder).available ? 'late' : 'plain';
}

/** Trims a title and summary to what a header can hold; an empty context is none. */
function documentContext(c: DocumentContext): DocumentContext | null {
  const title = typeof c.title === 'string' ? c.title.replace(/\s+/g, ' ').trim().slice(0, 300) : '';
  const summary = typeof c.summary === 'string' ? c.summary.replace(/\s+/g, ' ').trim().slice(0, 1000) : '';
  if (!title && !summary) return null;
  return { ...(title ? { title } : {}), ...(summary ? { summary } : {}), by: typeof c.by === 'string' && c.by ? c.by.slice(0, 200) : 'user' };
}

/**
 * An engine that takes another's place gets its situating contexts and their vectors: they are
 * keyed by unit identity and text, so they fit whatever the new engine's documents and chunks.
 */
function carryContexts(from: RetrievalEngine, to: RetrievalEngine): void {
  if (from.contexts.store === to.contexts.store) return;
  for (const e of from.contexts.store.entries()) if (!to.contexts.store.has(e.key)) to.contexts.store.set(e.key, e.context);
  for (const run of from.contexts.store.runs) to.contexts.store.recordRun(run);
  for (const [k, v] of from.contexts.vectors) if (!to.contexts.vectors.has(k)) to.contexts.vectors.set(k, v);
}

export class CorpusSession {
  docs: Document[] = [];
  structure: StructureParams = structureParams();
  indexBackend: IndexBackend = 'auto';
  embedder: Embedder | null = null;
  engine: RetrievalEngine = new RetrievalEngine();
  private rerankerModel: Reranker | null = null;
  /** Engines of other chunk-tree variants (same documents, model and index), newest last. */
  private readonly variants = new Map<string, RetrievalEngine>();
  /** Documents' splits as restored from storage: a new engine takes them instead of splitting again when they fit it. */
  private stored = new Map<string, SavedSplit>();

  /** `job` is stopped whenever the engine it embeds for is replaced. */
  constructor(private readonly job: EmbeddingJob) {}

  get reranker(): Reranker | null {
    return this.rerankerModel;
  }

  /** A new reranker applies at once, without a new engine. */
  set reranker(r: Reranker | null) {
    this.rerankerModel = r;
    this.engine.reranker = r;
  }

  /** An empty engine with the session's models, index backend and (by default) structure. */
  newEngine(structure: StructureParams = this.structure): RetrievalEngine {
    return new RetrievalEngine({ embedder: this.embedder, reranker: this.rerankerModel, structure: { ...structure, vectors: vectorVariant(structure, this.embedder) }, vectorIndex: vectorIndexFactory(this.indexBackend) });
  }

  /**
   * A new engine holding the session's documents, split as little as possible: the current
   * engine's units when it splits the same way (another vector index), else the stored splits
   * when they were made the way the new engine splits (a reload, then the model loaded).
   */
  private engineWithDocuments(): RetrievalEngine {
    const engine = this.newEngine();
    const current = this.engine.corpus.docs;
    if (this.docs.length && current.length === this.docs.length && current.every((d, i) => d.id === this.docs[i]!.id) && splitKey(this.engine) === splitKey(engine)) {
      engine.addSplitDocuments(this.engine.splitDocuments());
      // The same units: BM25 indexes move over instead of being built again.
      if (lexicalKey(engine.structure.lexical) === lexicalKey(this.engine.structure.lexical)) {
        for (const kind of BUNDLE_KINDS) engine.adoptLexicalIndex(kind, this.engine.lexicalIndex(kind));
      }
    } else addStoredDocuments(engine, this.docs, this.stored);
    return engine;
  }

  /** Every document's split in the current engine, packed for storage (they become the stored ones). */
  splitsForStorage(): Map<string, SavedSplit> {
    const splits = packSplits(this.engine);
    this.stored = splits;
    return splits;
  }

  /** BM25 indexes of these kinds (built ones only: an import's) as postings for storage; those that cannot be kept so are left out. */
  lexicalForStorage(kinds: readonly UnitKind[]): SavedLexical[] {
    return kinds.map((k) => packLexical(this.engine, k)).filter((l): l is SavedLexical => l !== null);
  }

  /**
   * The splits to store: those of documents whose stored split was made another way (or that
   * have none stored), packed; they become the stored ones. A split is the same for the same
   * document and splitKey, so the others are not written again.
   */
  splitsToStore(): Map<string, SavedSplit> {
    const key = splitKey(this.engine);
    const out = new Map<string, SavedSplit>();
    const ids = new Set<string>();
    this.engine.corpus.docs.forEach((doc, d) => {
      ids.add(doc.id);
      if (this.stored.get(doc.id)?.key === key) return;
      const split = packSplit(this.engine, d);
      out.set(doc.id, split);
      this.stored.set(doc.id, split);
    });
    for (const id of [...this.stored.keys()]) if (!ids.has(id)) this.stored.delete(id);
    return out;
  }

  /** The split of the document added last, packed for storage. */
  lastSplit(): SavedSplit {
    const split = packSplit(this.engine, this.engine.corpus.docs.length - 1);
    this.stored.set(this.docs[this.docs.length - 1]!.id, split);
    return split;
  }

  /**
   * Stops embedding, drops the cached variants (their documents, model or index are no
   * longer the session's) and puts the engine `build` makes in place of the current one.
   */
  async replaceEngine(build: () => RetrievalEngine | Promise<RetrievalEngine>): Promise<void> {
    this.job.stop();
    this.variants.clear();
    const before = this.engine;
    this.engine = await build();
    carryContexts(before, this.engine);
  }

  /**
   * An engine built elsewhere (an imported bundle: the session's documents plus the
   * bundle's, with their vectors) becomes the session's, with its documents and structure.
   * The session's reranker and index backend apply to it; units, vectors and BM25 indexes
   * move over as they are (`builtWithImportOptions`: it has the session's index already).
   */
  async adopt(engine: RetrievalEngine, builtWithImportOptions = false): Promise<void> {
    const structure = structureParams(engine.structure);
    const docs = [...engine.corpus.docs];
    await this.replaceEngine(async () => {
      engine.reranker = this.rerankerModel;
      if (this.indexBackend === 'flat' || builtWithImportOptions) return engine;
      // Another vector index: the same units (not split again), vectors and BM25 indexes in a new engine.
      const rebuilt = this.newEngine(structure);
      rebuilt.addSplitDocuments(engine.splitDocuments());
      await rebuilt.restoreVectorSets(engine.snapshotVectors('all'));
      for (const kind of BUNDLE_KINDS) rebuilt.adoptLexicalIndex(kind, engine.lexicalIndex(kind));
      return rebuilt;
    });
    this.structure = structure;
    this.docs = docs;
  }

  /** What an imported engine is built with so that adopt() takes it as it is: the session's vector index and reranker. */
  importOptions(): { vectorIndex: ReturnType<typeof vectorIndexFactory>; reranker: Reranker | null } {
    return { vectorIndex: vectorIndexFactory(this.indexBackend), reranker: this.rerankerModel };
  }

  /** The corpus restored from storage (documents, their stored splits when there are, and their structure). */
  async restore(docs: Document[], structure: StructureParams, splits = new Map<string, SavedSplit>(), lexical: readonly SavedLexical[] = []): Promise<void> {
    this.structure = structureParams(structure);
    this.docs = docs;
    this.stored = splits;
    const origin = this.embedder ? null : storedSplitOrigin(docs, splits);
    await this.replaceEngine(() => {
      if (!origin) return this.engineWithDocuments();
      // Split by a model's tokenizer, and the model not loaded yet: the stored units are taken
      // as they are (BM25 answers over them at once); the model's engine replaces this one.
      const engine = new RetrievalEngine({ reranker: this.rerankerModel, structure: { ...this.structure, vectors: 'plain' }, vectorIndex: vectorIndexFactory(this.indexBackend), counter: provisionalCounter(origin.counter), maxSentenceTokens: origin.maxSentenceTokens });
      addStoredDocuments(engine, docs, splits);
      return engine;
    });
    // BM25 indexes kept as postings (an imported corpus): taken instead of analysing every unit again.
    adoptStoredLexical(this.engine, lexical);
  }

  /** Appends a document; false when the same content is already in the corpus. */
  addDocument(doc: Document): boolean {
    const { added } = this.engine.addDocuments([doc]);
    if (!added.length) return false;
    this.docs.push(doc);
    return true;
  }

  /** Replaces the whole corpus (clear: none; a labelled set with documents: its own). */
  async reset(docs: Document[] = []): Promise<void> {
    await this.replaceEngine(() => this.newEngine());
    this.docs = [];
    for (const d of docs) this.addDocument(d);
  }

  async removeDocument(docId: string): Promise<void> {
    await this.replaceEngine(() => this.engine.withoutDocuments([docId]));
    this.docs = this.docs.filter((d) => d.id !== docId);
  }

  /**
   * A new title or summary changes the document's headers, hence its embedded text: the
   * document is taken out and appended again, so only its own units are embedded anew.
   * False when nothing changed.
   */
  async setDocumentContext(docId: string, context: DocumentContext | null): Promise<boolean> {
    const doc = this.docs.find((d) => d.id === docId);
    if (!doc) throw labError('document-gone');
    const clean = context ? documentContext(context) : null;
    const { context: _old, ...rest } = doc;
    const updated: Document = clean ? { ...rest, context: clean } : rest;
    if (JSON.stringify(updated.context ?? null) === JSON.stringify(doc.context ?? null)) return false;
    await this.removeDocument(docId);
    this.addDocument(updated);
    return true;
  }

  /**
   * Replaces a document by `change(doc)` (null: nothing changed, false is returned): taken out and
   * appended again, so only its own units are split, analysed and embedded anew.
   */
  async replaceDocument(docId: string, change: (doc: Document) => Document | null): Promise<boolean> {
    const doc = this.docs.find((d) => d.id === docId);
    if (!doc) throw labError('document-gone');
    const updated = change(doc);
    if (!updated) return false;
    await this.removeDocument(docId);
    this.addDocument(updated);
    return true;
  }

  /** The embedder changed: a new engine, with the vectors saved for that model restored. */
  async setEmbedder(embedder: Embedder | null, saved: SavedVectors[]): Promise<void> {
    this.embedder = embedder;
    await this.replaceEngine(async () => {
      const engine = this.engineWithDocuments();
      if (embedder && saved.length) await engine.restoreVectorSets(saved);
      return engine;
    });
  }

  /**
   * auto (default: exact below 20,000 vectors, approximate above), exact scan, voy-search or approximate. Vectors move over as they are: switching
   * rebuilds the index, it never re-embeds.
   */
  async setIndexBackend(backend: IndexBackend): Promise<boolean> {
    if (backend === this.indexBackend) return false;
    await this.replaceEngine(async () => {
      const snapshot = this.engine.snapshotVectors('all');
      this.indexBackend = backend;
      const engine = this.engineWithDocuments();
      await engine.restoreVectorSets(snapshot);
      return engine;
    });
    return true;
  }

  /**
   * New structure parameters. New chunk sizes switch to another engine (cached ones come
   * back with their vectors); new header settings only change what is embedded next.
   */
  setStructure(next: StructureParams): void {
    const s = structureParams(next);
    if (treeKey(s) !== treeKey(this.structure)) {
      // Earlier chunk-size variants are kept with their vectors: switching back is free.
      this.variants.set(treeKey(this.structure), this.engine);
      const cached = this.variants.get(treeKey(s));
      // Built first: invalid sizes throw here and leave the current corpus as it was.
      const engine = cached ?? this.newEngine(s);
      carryContexts(this.engine, engine);
      engine.addDocuments(this.docs); // documents added since it was cached
      engine.setHeaders(s.headers);
      this.variants.delete(treeKey(s));
      while (this.variants.size > MAX_VARIANTS) this.variants.delete(this.variants.keys().next().value!);
      this.job.stop();
      this.structure = s;
      this.engine = engine;
    } else if (headerKey(s.headers) !== headerKey(this.structure.headers)) {
      this.structure = s;
      this.engine.setHeaders(s.headers);
    } else {
      this.structure = s;
    }
    // The analyzer and BM25 variant rebuild only the lexical indexes, never the vectors.
    if (lexicalKey(this.engine.structure.lexical) !== lexicalKey(s.lexical)) this.engine.setLexical(s.lexical);
    // Late chunking on or off: each variant's vectors are kept (switching back is instant); the job goes on with the new one.
    const vectors = vectorVariant(s, this.embedder);
    if (this.engine.structure.vectors !== vectors) {
      this.job.stop();
      this.engine.setVectorVariant(vectors);
    }
    // Contextual retrieval on or off: the same vectors, other BM25 indexes.
    if (this.engine.structure.contextual !== s.contextual) this.engine.setContextual(s.contextual);
  }

  document(docId: string): Document {
    const d = this.docs.find((x) => x.id === docId);
    if (!d) throw labError('document-gone');
    return d;
  }

  summaries(): DocSummary[] {
    const coverage = this.engine.documentCoverage();
    return this.docs.map((d, i) => this.summary(d, i, coverage));
  }

  /** The summary of the document added last. */
  lastSummary(): DocSummary {
    return this.summary(this.docs[this.docs.length - 1]!, this.docs.length - 1, this.engine.documentCoverage());
  }

  private summary(d: Document, i: number, coverage: { done: number; total: number }[]): DocSummary {
    const c = this.engine.corpus;
    return {
      id: d.id,
      title: d.title,
      fileName: d.meta.fileName,
      language: d.language,
      format: d.meta.format,
      size: d.meta.size,
      pages: d.pages.length,
      sections: d.sections.length - 1,
      sentences: (c.docStarts[i + 1] ?? 0) - (c.docStarts[i] ?? 0),
      warnings: d.warnings ?? [],
      ...(d.context ? { context: d.context } : {}),
      ...(d.languageInfo ? { languageInfo: d.languageInfo } : {}),
      embedded: coverage[i] ?? { done: 0, total: 0 },
    };
  }
}
