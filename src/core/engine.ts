/**
 * The retrieval workbench as one object, used alike by the worker, the CLI, the benches and
 * tests. It owns the corpus and its units and wires the pieces that own the rest
 * (engine/): the vectors and their embedding jobs (VectorVariants), the BM25 indexes
 * (LexicalIndexes), candidate retrieval with its caches (CandidateRetrieval) — and the
 * strategies from the registry, each turning candidates into blocks. Retrieval-only
 * parameter changes reuse cached candidates and never re-embed.
 */
import type { Embedder } from './embed/embedder';
import type { Reranker } from './embed/reranker';
import type { LexicalIndex, LexicalParams } from './index/lexical-index';
import { dot } from './index/vector-index';
import type { VectorStore, VectorSet } from './index/vector-store';
import type { Candidate } from './retrieve/candidates';
import { blockCoherence } from './retrieve/coherence';
import { retrievalParams, structureParams, UNIT_KINDS, validLexical, type RetrievalParams, type StructureParams, type UnitKind } from './retrieve/params';
import type { FusedCandidate } from './retrieve/query-fusion';
import type { RetrieverName } from './retrieve/retrievers';
import { ApproxTokenCounter, type TokenCounter } from './segment/tokens';
import { BlockMaker, QueryContext } from './strategies/context';
import { strategyOf, strategySource, type StrategyName } from './strategies/registry';
import type { Corpus } from './structure/corpus';
import type { HeaderParams } from './structure/headers';
import { validateLevels } from './structure/hierarchy';
import { validateNaive } from './structure/naive-chunks';
import { CorpusUnits, type SplitDocument, type UnitSpan } from './structure/units';
import type { ChunkHierarchy, ChunkNode, ContextBlock, Document, NaiveChunk } from './types';
import { contextualText } from './context/contextual-text';
import { CandidateRetrieval, type Candidates } from './engine/candidate-retrieval';
import { ContextualUnits } from './engine/contextual';
import { foundBy } from './engine/found-by';
import { LexicalIndexes } from './engine/lexical-indexes';
import { kindOfKey, variantKey, type EngineChange, type EngineCore, type EngineOptions, type FusedStrategyResult, type StrategyResult } from './engine/types';
import { VectorVariants, type EmbedJobOptions } from './engine/vector-variants';

export type { VectorSet } from './index/vector-store';
export { SEMANTIC_NEEDS_MODEL, type EmbedProgress, type EngineOptions, type FusedStrategyResult, type StrategyResult } from './engine/types';

export class RetrievalEngine {
  readonly counter: TokenCounter;
  /**
   * Chunk sizes and section level are fixed for the engine's life (another tree means
   * another engine); headers and the lexical choice can change, each variant keeping its
   * vectors and indexes.
   */
  structure: Readonly<StructureParams>;
  readonly embedder: Embedder | null;
  /** Can be swapped: reranking never changes what is indexed. */
  reranker: Reranker | null;
  private readonly options: EngineOptions;
  private readonly units: CorpusUnits;
  private readonly blocksOf: BlockMaker;
  private readonly vectorVariants: VectorVariants;
  private readonly lexical: LexicalIndexes;
  private readonly retrieval: CandidateRetrieval;
  /** Situating contexts (contextual retrieval) and the vectors of contextualised units. */
  readonly contexts: ContextualUnits;

  constructor(options: EngineOptions = {}) {
    this.options = options;
    this.embedder = options.embedder ?? null;
    this.reranker = options.reranker ?? null;
    this.counter = options.counter ?? this.embedder?.counter ?? new ApproxTokenCounter();
    this.structure = Object.freeze(structureParams(options.structure));
    validateLevels(this.structure.chunkLevels);
    validateNaive(this.structure.naive);
    const minLevel = Math.min(...this.structure.chunkLevels);
    const maxAtom = Math.min(options.maxSentenceTokens ?? minLevel, minLevel, this.embedder ? this.embedder.maxTokens - 2 : Infinity);
    this.units = new CorpusUnits(this.counter, this.structure, maxAtom);
    this.blocksOf = new BlockMaker(this.units, this.counter, () => this.structure.headers);
    // What the pieces read from the engine: the same units, model and structure as it is now.
    const core: EngineCore = {
      units: this.units,
      embedder: this.embedder,
      structure: () => this.structure,
      unitText: (kind, id, contextual) => this.unitText(kind, id, contextual),
      variantKey: (kind) => this.variantKey(kind),
    };
    const changed = (what: EngineChange) => this.retrieval.changed(what);
    this.contexts = new ContextualUnits(core, options.contexts, options.contextVectors);
    this.vectorVariants = new VectorVariants(core, options.vectorIndex, changed);
    this.lexical = new LexicalIndexes(core, this.contexts);
    this.retrieval = new CandidateRetrieval(core, this.vectorVariants, this.lexical, () => this.reranker, this.contexts);
  }

  /** Every vector set computed: see snapshotVectors / restoreVectorSets. */
  get vectors(): VectorStore {
    return this.vectorVariants.store;
  }

  get corpus(): Corpus {
    return this.units.corpus;
  }

  get hierarchy(): ChunkHierarchy {
    return this.units.hierarchy;
  }

  get chunks(): NaiveChunk[] {
    return this.units.chunks;
  }

  // ---- the corpus and its units ----------------------------------------------------------

  /**
   * Appends documents: sentences, chunk tree and naive chunks of the new documents only, so
   * every existing unit keeps its id (and its vector). A document whose content is already in
   * the corpus (same id) is not added twice; the duplicates are returned.
   */
  addDocuments(docs: Document[]): { added: Document[]; duplicates: Document[] } {
    return this.unitsAdded(this.units.add(docs));
  }

  /**
   * addDocuments for documents already split by this lab (an imported bundle's sentences and
   * naive chunks): the same corpus and units without splitting again. Throws on spans that do
   * not fit their documents, before anything is added.
   */
  addSplitDocuments(docs: SplitDocument[]): { added: Document[]; duplicates: Document[] } {
    return this.unitsAdded(this.units.addSplit(docs));
  }

  /** New units invalidate cached candidates and filter masks (their ids and counts changed). */
  private unitsAdded(r: { added: Document[]; duplicates: Document[] }): { added: Document[]; duplicates: Document[] } {
    if (r.added.length) this.retrieval.changed('units');
    return r;
  }

  /** The corpus as already-split documents, for addSplitDocuments of another engine with the same structure. */
  splitDocuments(): SplitDocument[] {
    return this.units.splitDocuments();
  }

  /** The document (index into corpus.docs) a unit belongs to. */
  unitDoc(kind: UnitKind, id: number): number {
    return this.units.span(kind, id).doc;
  }

  unitCount(kind: UnitKind): number {
    return this.units.count(kind);
  }

  /** A unit's document, sentence range [start, end) and character span. */
  unitSpan(kind: UnitKind, id: number): UnitSpan {
    return this.units.span(kind, id);
  }

  /** Tokens a block over sentences [start, end) costs in the context, header included. */
  blockCost = (start: number, end: number): number => this.blocksOf.blockCost(start, end);

  /** The smallest chunk-tree node that strictly contains sentences [start, end) (the document view's parent chunk); null at the top. */
  enclosingNode(start: number, end: number): ChunkNode | null {
    return this.units.enclosingNode(start, end);
  }

  /** The text a unit is indexed and embedded as: its header (when on), its context (`contextual`, default the switch; where written), its text. */
  unitText(kind: UnitKind, id: number, contextual = this.structure.contextual): string {
    const u = this.units.span(kind, id);
    const text = kind === 'chunk' ? this.units.chunks[id]!.text : this.corpus.docs[u.doc]!.text.slice(u.charStart, u.charEnd);
    return contextualText(this.blocksOf.header(u.start, u.end), contextual ? this.contexts.get(kind, id)?.text : undefined, text);
  }

  /** The vector set key of a unit kind for the current header variant and model (never "|ctx": contextual vectors are an overlay). */
  variantKey(kind: UnitKind): string {
    return variantKey(kind, this.structure.headers, this.embedder?.model, { ...this.structure, contextual: false });
  }

  /** The unit kind a vector set key belongs to. */
  static kindOf(key: string): UnitKind {
    return kindOfKey(key);
  }

  /** Another analyzer or BM25 variant: only the lexical indexes change (built on first use, kept per choice). */
  setLexical(lexical: LexicalParams): void {
    this.structure = Object.freeze({ ...this.structure, lexical: validLexical({ ...lexical }) });
    this.retrieval.changed('lexical');
  }

  /** Switches contextual headers; vectors and BM25 indexes are kept per variant, so switching back costs nothing. */
  setHeaders(headers: HeaderParams): void {
    this.structure = Object.freeze({ ...this.structure, headers: { ...headers, fields: [...headers.fields] } });
    this.retrieval.changed('lexical');
  }

  /** Plain or late-chunked unit vectors (embed/late-chunking.ts), kept per variant: switching back costs nothing. */
  setVectorVariant(vectors: StructureParams['vectors']): void {
    this.structure = Object.freeze({ ...this.structure, vectors });
    this.retrieval.changed('vectors');
  }

  /** Contextual retrieval on or off for every strategy: the plain vectors serve both, BM25 indexes are kept per variant. */
  setContextual(contextual: boolean): void {
    this.structure = Object.freeze({ ...this.structure, contextual });
    this.retrieval.changed('lexical');
  }

  /**
   * A new engine without some documents. Units are renumbered, and every vector already
   * computed (all header variants) is carried over, so nothing is embedded again.
   */
  async withoutDocuments(ids: Iterable<string>): Promise<RetrievalEngine> {
    const drop = new Set(ids);
    const next = new RetrievalEngine({ ...this.options, embedder: this.embedder, reranker: this.reranker, counter: this.counter, structure: this.structure, maxSentenceTokens: this.corpus.maxSentenceTokens, contexts: this.contexts.store, contextVectors: this.contexts.vectors });
    const keep = this.corpus.docs.map((d, i) => [d, i] as const).filter(([d]) => !drop.has(d.id));
    next.addDocuments(keep.map(([d]) => d));
    // Semantic chunks cost embeddings to find: the kept documents keep theirs (a prefix, in order).
    for (const [k, [, d]] of keep.entries()) {
      const runs = this.units.semanticRuns(d);
      if (!runs || next.units.semanticDocs !== k) break;
      next.units.addSemantic(k, runs);
    }
    const kept = (key: string, size: number): [number, number][] => {
      const ranges = this.units.rangesByDoc(kindOfKey(key));
      const out: [number, number][] = [];
      for (const [, d] of keep) {
        const [a, b] = ranges[d]!;
        // Only vectors already computed: a variant still embedding keeps its prefix.
        out.push([a, Math.min(b, size)]);
        if (b > size) break;
      }
      return out;
    };
    for (const set of this.vectors.snapshot(this.vectors.keys(), (key, idx) => kept(key, idx.size))) await next.vectors.put(set);
    return next;
  }

  // ---- lexical indexes ------------------------------------------------------------------

  /** The BM25 index of a unit kind, brought up to date with the corpus. */
  lexicalIndex(kind: UnitKind, contextual = this.structure.contextual): LexicalIndex {
    return this.lexical.get(kind, contextual);
  }

  /**
   * Puts in a BM25 index built elsewhere (from a bundle's postings) for a unit kind under the
   * current header variant and lexical parameters. It must hold every unit of the kind with
   * this engine's lexical parameters; otherwise nothing changes and it returns false.
   */
  adoptLexicalIndex(kind: UnitKind, index: LexicalIndex): boolean {
    const adopted = this.lexical.adopt(kind, index);
    if (adopted) this.retrieval.changed('lexical');
    return adopted;
  }

  // ---- vectors (engine/vector-variants.ts) ----------------------------------------------

  /** How many units of a kind have vectors, of how many. */
  vectorCoverage(kind: UnitKind): { done: number; total: number } {
    return this.vectorVariants.coverage(kind);
  }

  /** Embeds the units of a kind that have no vector yet (new documents, or a new header variant); done work is kept. */
  embedUnits(kind: UnitKind, options: EmbedJobOptions = {}): Promise<{ truncated: number[] }> {
    return this.vectorVariants.embedUnits(kind, options);
  }

  /** The semantic chunks found so far, per document in order (sentence ranges from its first sentence): saved beside the vectors. */
  semanticChunks(): { start: number; end: number }[][] {
    return this.vectorVariants.semanticChunks();
  }

  /** Semantic chunks found by an engine with the same documents, model and parameters, for documents that have none yet; throws before any change when they do not tile. */
  adoptSemanticChunks(perDoc: readonly (readonly { start: number; end: number }[])[]): void {
    this.vectorVariants.adoptSemanticChunks(perDoc);
  }

  /** Documents whose semantic chunks are built, of all documents (the rest need buildSemanticChunks). */
  semanticCoverage(): { done: number; total: number } {
    return this.vectorVariants.semanticCoverage();
  }

  /** Finds the semantic chunks of documents that have none yet (LlamaIndex's breakpoints); a cancel keeps the documents done. */
  buildSemanticChunks(options: EmbedJobOptions = {}): Promise<void> {
    return this.vectorVariants.buildSemanticChunks(options);
  }

  /** The vector sets computed so far, as rows for saving: every kind and header variant ('all'), or the current variant's non-empty sets. */
  snapshotVectors(scope: 'all' | 'current' = 'all'): VectorSet[] {
    return this.vectorVariants.snapshot(scope);
  }

  /** Restores sets of an engine with the same documents, structure and model: 'skip' leaves out (and does not count) sets that do not fit, 'exact' throws at the first (engine/vector-variants.ts). */
  restoreVectorSets(sets: readonly VectorSet[], mode: 'skip' | 'exact' = 'skip'): Promise<number> {
    return this.vectorVariants.restore(sets, mode);
  }

  /** The current variant's vectors by unit kind (CLI files, export, benches). */
  exportVectors(): Partial<Record<UnitKind, Float32Array>> {
    return Object.fromEntries(this.snapshotVectors('current').map((s) => [kindOfKey(s.key), s.data]));
  }

  /** Puts one kind's vectors of the current variant in: restoreVectorSets of one set, 'exact'. */
  async importVectors(kind: UnitKind, vectors: Float32Array): Promise<void> {
    await this.restoreVectorSets([{ key: this.variantKey(kind), dim: this.embedder?.dim ?? 0, data: vectors }], 'exact');
  }

  /** Per document: units embedded so far for the current variant; by default not semantic chunks (they exist only once found, their column says how far). */
  documentCoverage(kinds: UnitKind[] = UNIT_KINDS.filter((k) => k !== 'semantic')): { done: number; total: number }[] {
    return this.vectorVariants.documentCoverage(kinds);
  }

  /** Embeds queries in one batch and caches them (the evaluation embeds all questions at once). */
  embedQueries(queries: string[]): Promise<void> {
    return this.vectorVariants.embedQueries(queries);
  }

  /** The query's vector (embedded once, cached), for the corpus map; null without a model. */
  queryEmbedding(query: string): Promise<Float32Array | null> {
    return this.vectorVariants.queryVector(query);
  }

  /** The current variant's sentence vectors as one row-major matrix (a copy), for the corpus map; null until all are embedded. */
  sentenceMatrix(): { dim: number; count: number; data: Float32Array } | null {
    return this.vectorVariants.sentenceMatrix();
  }

  /** How coherent a block is: its sentences' mean cosine with the query and with each other (retrieve/coherence). */
  blockCoherence(start: number, end: number, query: string): { toQuery: number; internal: number | null } | null {
    const idx = this.vectorVariants.current('sentence');
    const q = this.vectorVariants.queryVectors.get(query);
    return idx && q ? blockCoherence(idx, q, start, end) : null;
  }

  // ---- retrieval (engine/candidate-retrieval.ts) and the strategies ----------------------

  /** Candidate units of one kind: BM25, vector, or both fused with weighted RRF, then optionally reranked; notes say what was not possible. */
  candidates(query: string, kind: UnitKind, p: RetrievalParams, contextual = this.structure.contextual): Promise<Candidates> {
    return this.retrieval.candidates(query, kind, p, contextual);
  }

  /** Query fusion's candidates: each query's, fused by RRF (k = 60) and cut to topK. */
  fusedCandidates(queries: string[], kind: UnitKind, p: RetrievalParams, contextual = this.structure.contextual): Promise<{ candidates: FusedCandidate[]; notes: string[]; used: RetrieverName | null }> {
    return this.retrieval.fused(queries, kind, p, contextual);
  }

  /** What a strategy works with for one query: units, costs, bounds, the query's vector similarities, blocks. */
  private context(query: string): QueryContext {
    const idx = this.vectorVariants.current('sentence');
    const q = this.vectorVariants.queryVectors.get(query);
    const similarity =
      idx && q
        ? {
            toQuery: (i: number) => (i < idx.size ? dot(q, idx.vector(i)) : null),
            between: (i: number, j: number) => (i < idx.size && j < idx.size ? dot(idx.vector(i), idx.vector(j)) : null),
          }
        : null;
    return new QueryContext(this.blocksOf, this.structure, query, similarity, (kind, id) => this.contexts.get(kind, id));
  }

  /** Turns candidates into a strategy's blocks: pure and synchronous (sliders call this). */
  blocks(strategy: StrategyName, cands: Candidate[], p: RetrievalParams, query = ''): ContextBlock[] {
    return strategyOf(strategy).blocks(this.context(query), cands, p);
  }

  /** Which of the fused queries found something inside a block (engine/found-by.ts); the kind is the one its provenance names. */
  foundBy(_strategy: StrategyName, block: ContextBlock, cands: readonly FusedCandidate[]): number[] {
    return foundBy(this.units, block.provenance.unit, block, cands);
  }

  /** Runs one strategy on query-fused candidates; blocks are judged against the original question (queries[0]). */
  async searchFused(queries: string[], strategy: StrategyName, params: Partial<RetrievalParams> = {}): Promise<FusedStrategyResult> {
    const p = retrievalParams(params);
    if (!queries.length) throw new Error('query fusion needs at least the question');
    const src = strategySource(strategy, p, this.structure.contextual);
    const { candidates, notes, used } = await this.fusedCandidates(queries, src.kind, p, src.contextual);
    const blocks = this.blocks(strategy, candidates, p, queries[0]);
    return {
      strategy,
      retriever: p.retriever,
      blocks,
      totalTokens: blocks.reduce((n, b) => n + b.tokens, 0),
      candidates: candidates.length,
      notes,
      used,
      queries: [...queries],
      foundBy: blocks.map((b) => this.foundBy(strategy, b, candidates)),
    };
  }

  /** Runs strategies for a query: candidates once per unit kind, then each strategy's blocks. */
  async search(query: string, strategies: readonly StrategyName[], params: Partial<RetrievalParams> = {}): Promise<StrategyResult[]> {
    const p = retrievalParams(params);
    // Once per unit kind and text (plain or contextual): strategies of one source share them.
    const bySource = new Map<string, Candidates>();
    const sourceKey = (s: StrategyName) => JSON.stringify(strategySource(s, p, this.structure.contextual));
    for (const s of strategies) {
      const src = strategySource(s, p, this.structure.contextual);
      if (!bySource.has(sourceKey(s))) bySource.set(sourceKey(s), await this.candidates(query, src.kind, p, src.contextual));
    }
    return strategies.map((s) => {
      const { candidates, notes, used } = bySource.get(sourceKey(s))!;
      const blocks = this.blocks(s, candidates, p, query);
      return { strategy: s, retriever: p.retriever, blocks, totalTokens: blocks.reduce((n, b) => n + b.tokens, 0), candidates: candidates.length, notes, used };
    });
  }
}
