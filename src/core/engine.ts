import type { Embedder, EmbedOptions } from './embed/embedder';
import type { Reranker } from './embed/reranker';
import { FlatIndex } from './index/flat-index';
import { queryLanguage } from './index/analyzer';
import { LexicalIndex, lexicalKey, lexicalLabel, TermDictionary, type LexicalParams } from './index/lexical-index';
import { dot, type Allow, type Hit, type VectorIndex } from './index/vector-index';
import { VectorStore, type VectorSet } from './index/vector-store';
import type { Candidate } from './retrieve/candidates';
import { blockCoherence } from './retrieve/coherence';
import { rerankCandidates } from './retrieve/rerank';
import { rangeMask, sentenceMask } from './retrieve/filters';
import { retrievalParams, structureParams, UNIT_KINDS, validLexical, type RetrievalParams, type StructureParams, type UnitKind } from './retrieve/params';
import { reciprocalRankFusion, type RankedList } from './retrieve/rrf';
import { fuseRankings, type FusedCandidate } from './retrieve/query-fusion';
import type { RetrieverName } from './retrieve/retrievers';
import { ApproxTokenCounter, type TokenCounter } from './segment/tokens';
import { BlockMaker, QueryContext } from './strategies/context';
import { strategyOf, type StrategyName } from './strategies/registry';
import type { Corpus } from './structure/corpus';
import { embeddedText, headerKey, type HeaderParams } from './structure/headers';
import { validateLevels } from './structure/hierarchy';
import { validateNaive } from './structure/naive-chunks';
import { bufferedRanges, neighbourDistances, semanticGroups } from './structure/semantic-chunks';
import { CorpusUnits, validRuns, type SplitDocument, type UnitSpan } from './structure/units';
import type { ChunkHierarchy, ChunkNode, ContextBlock, Document, NaiveChunk } from './types';
import { BoundedCache } from './util/bounded-cache';

export type { VectorSet } from './index/vector-store';

/** Units embedded per slice: progress and search coverage advance slice by slice. */
const EMBED_SLICE = 256;

/** A unit kind in a note: "sentences", "leafs", "semantic chunks". */
const unitsWord = (kind: UnitKind): string => (kind === 'packed' || kind === 'semantic' ? `${kind} chunks` : `${kind}s`);

/** What the semantic column says when no embedding model is loaded (it has no blocks then). */
export const SEMANTIC_NEEDS_MODEL = 'semantic chunking needs an embedding model';

/** One strategy's answer to a query: the blocks handed over, best first. */
export interface StrategyResult {
  strategy: StrategyName;
  retriever: RetrieverName;
  blocks: ContextBlock[];
  /** Context tokens of all blocks, headers included. */
  totalTokens: number;
  /** Units retrieved before expansion/merging/budget. */
  candidates: number;
  /** Why the result is what it is ("vector search unavailable: BM25 only", …). */
  notes: string[];
}

/** A strategy run on query fusion: the queries used (question first) and who found each block. */
export interface FusedStrategyResult extends StrategyResult {
  queries: string[];
  /** Per block, the indices into `queries` whose retrieval found a unit inside it. */
  foundBy: number[][];
}

/** LlamaIndex's fixed RRF constant for query fusion (the hybrid RRF c slider is not used). */
const QUERY_FUSION_K = 60;

export interface EngineOptions {
  embedder?: Embedder | null;
  /** Counts tokens when no embedder is loaded (BM25-only). Default: the embedder's, else approx. */
  counter?: TokenCounter;
  structure?: Partial<StructureParams>;
  /** Builds the vector index for a unit kind; default exact FlatIndex. */
  vectorIndex?: (dim: number) => VectorIndex | Promise<VectorIndex>;
  reranker?: Reranker | null;
  /** Longest sentence atom in tokens; default the smallest chunk level. */
  maxSentenceTokens?: number;
}

export interface EmbedProgress {
  kind: UnitKind;
  done: number;
  total: number;
}

/**
 * The retrieval workbench: a corpus and its units, one vector store (a set per unit kind
 * × header variant × model), BM25 indexes, candidate retrieval with its caches — and the
 * strategies from the registry, each turning candidates into blocks. Used alike by the
 * worker, the CLI and tests. Retrieval-only parameter changes reuse cached candidates and
 * never re-embed.
 */
export class RetrievalEngine {
  readonly counter: TokenCounter;
  /**
   * Chunk sizes and section level are fixed for the engine's life (another tree means
   * another engine); headers can change with setHeaders, each variant keeping its vectors.
   */
  structure: Readonly<StructureParams>;
  readonly embedder: Embedder | null;
  /** Can be swapped: reranking never changes what is indexed. */
  reranker: Reranker | null;
  /** Every vector set computed: see snapshotVectors / restoreVectorSets. */
  readonly vectors: VectorStore;
  private readonly units: CorpusUnits;
  private readonly blocksOf: BlockMaker;
  private readonly lexical = new Map<string, LexicalIndex>();
  /** One term dictionary per analyzer, shared by the BM25 indexes of every unit kind and header variant. */
  private readonly terms = new Map<string, TermDictionary>();
  private readonly options: EngineOptions;
  /** Bounded: an evaluation embeds a whole question set at once (4,096 × 384 floats ≈ 6 MB at most). */
  private readonly queryVectors = new BoundedCache<string, Float32Array>(4096);
  /** One embedding run at a time per variant: concurrent runs would append the same units twice. */
  private readonly embedQueue = new Map<string, Promise<unknown>>();
  /** One semantic chunk build at a time (every header variant shares the chunks). */
  private semanticQueue: Promise<unknown> = Promise.resolve();
  private readonly candidateCache = new BoundedCache<string, { candidates: Candidate[]; notes: string[] }>(64);
  /**
   * Vector hits per query, kind and filter, at hybrid depth: the vector and hybrid columns of
   * one question share one scan of the kind (at 1M sentences a scan is most of a column's time).
   */
  private readonly vectorHitCache = new BoundedCache<string, { index: VectorIndex; size: number; hits: Hit[] }>(64);
  private maskCache: { key: string; masks: Map<UnitKind, Uint8Array | null> } | null = null;

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
    this.vectors = new VectorStore(options.vectorIndex ?? ((dim) => new FlatIndex(dim)));
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

  /**
   * Appends documents: sentences, chunk tree and naive chunks of the new documents only,
   * so every existing unit keeps its id (and its vector). A document whose content is
   * already in the corpus (same id) is not added twice; the duplicates are returned.
   */
  addDocuments(docs: Document[]): { added: Document[]; duplicates: Document[] } {
    return this.unitsAdded(this.units.add(docs));
  }

  /**
   * addDocuments for documents already split by this lab (an imported bundle's sentences and
   * naive chunks): the same corpus and units without splitting again. Throws on spans that
   * do not fit their documents, before anything is added.
   */
  addSplitDocuments(docs: SplitDocument[]): { added: Document[]; duplicates: Document[] } {
    return this.unitsAdded(this.units.addSplit(docs));
  }

  /** New units invalidate cached candidates and filter masks (their ids and counts changed). */
  private unitsAdded(r: { added: Document[]; duplicates: Document[] }): { added: Document[]; duplicates: Document[] } {
    if (r.added.length) {
      this.candidateCache.clear();
      this.vectorHitCache.clear();
      this.maskCache = null;
    }
    return r;
  }

  /** The corpus as already-split documents, for addSplitDocuments of another engine with the same structure. */
  splitDocuments(): SplitDocument[] {
    return this.units.splitDocuments();
  }

  /**
   * Puts in a BM25 index built elsewhere (from a bundle's postings) for a unit kind under the
   * current header variant and lexical parameters. It must hold every unit of the kind with
   * this engine's lexical parameters; otherwise nothing changes and it returns false.
   */
  adoptLexicalIndex(kind: UnitKind, index: LexicalIndex): boolean {
    if (index.size !== this.unitCount(kind) || lexicalKey(index.params) !== lexicalKey(this.structure.lexical)) return false;
    this.lexical.set(`${this.variantKey(kind)}|${lexicalKey(this.structure.lexical)}`, index);
    this.candidateCache.clear();
    return true;
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

  /**
   * The smallest chunk-tree node that strictly contains sentences [start, end): the
   * "parent chunk" the document view draws around a block. Null at the top of the tree.
   */
  enclosingNode(start: number, end: number): ChunkNode | null {
    return this.units.enclosingNode(start, end);
  }

  /** How coherent a block is: its sentences' mean cosine with the query and with each other (retrieve/coherence). */
  blockCoherence(start: number, end: number, query: string): { toQuery: number; internal: number | null } | null {
    const idx = this.vectors.get(this.variantKey('sentence'));
    const q = this.queryVectors.get(query);
    return idx && q ? blockCoherence(idx, q, start, end) : null;
  }

  /** The text a unit is indexed and embedded as (its header first, when headers are on). */
  unitText(kind: UnitKind, id: number): string {
    const u = this.units.span(kind, id);
    const text = kind === 'chunk' ? this.units.chunks[id]!.text : this.corpus.docs[u.doc]!.text.slice(u.charStart, u.charEnd);
    return embeddedText(this.blocksOf.header(u.start, u.end), text);
  }

  /** The vector set key of a unit kind for the current header variant and model. */
  variantKey(kind: UnitKind): string {
    return `${kind}|${headerKey(this.structure.headers)}|${this.embedder?.model ?? 'none'}`;
  }

  /** The unit kind a vector set key belongs to. */
  static kindOf(key: string): UnitKind {
    return key.split('|')[0] as UnitKind;
  }

  /** The BM25 index of a unit kind, brought up to date with the corpus. */
  lexicalIndex(kind: UnitKind): LexicalIndex {
    const key = `${this.variantKey(kind)}|${lexicalKey(this.structure.lexical)}`;
    let idx = this.lexical.get(key);
    if (!idx) {
      const { analyzer } = this.structure.lexical;
      let terms = this.terms.get(analyzer);
      if (!terms) this.terms.set(analyzer, (terms = new TermDictionary()));
      this.lexical.set(key, (idx = new LexicalIndex(this.structure.lexical, terms)));
    }
    const total = this.unitCount(kind);
    if (idx.size < total) {
      const ids = Array.from({ length: total - idx.size }, (_, i) => idx!.size + i);
      idx.add(
        ids.map((id) => this.unitText(kind, id)),
        ids.map((id) => this.corpus.docs[this.units.span(kind, id).doc]!.language),
      );
    }
    return idx;
  }

  /** How many units of a kind have vectors, of how many. */
  vectorCoverage(kind: UnitKind): { done: number; total: number } {
    return { done: this.vectors.size(this.variantKey(kind)), total: this.unitCount(kind) };
  }

  /**
   * Embeds the units of a kind that have no vector yet (new documents, or a new header
   * variant), in length-sorted batches. Safe to call repeatedly: done work is kept.
   */
  embedUnits(kind: UnitKind, options: Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void } = {}): Promise<{ truncated: number[] }> {
    const key = this.variantKey(kind);
    // Semantic chunks exist only once their documents' buffered sentences are embedded.
    const ready = kind === 'semantic' ? this.buildSemanticChunks(options) : Promise.resolve();
    const run = Promise.all([this.embedQueue.get(key)?.catch(() => undefined), ready]).then(() => this.embedMissing(kind, key, options));
    this.embedQueue.set(key, run);
    return run;
  }

  private async embedMissing(kind: UnitKind, key: string, options: Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void }): Promise<{ truncated: number[] }> {
    if (!this.embedder) throw new Error('no embedding model is loaded');
    const idx = await this.vectors.ensure(key, this.embedder.dim);
    const total = this.unitCount(kind);
    const first = idx.size;
    const truncated: number[] = [];
    // Slices in unit order: each is searchable as soon as it is done, and a cancel keeps them.
    for (let start = first; start < total; start += EMBED_SLICE) {
      const end = Math.min(total, start + EMBED_SLICE);
      const texts = Array.from({ length: end - start }, (_, i) => this.unitText(kind, start + i));
      const r = await this.embedder.embed(texts, {
        ...options,
        kind: 'passage',
        onProgress: (done) => options.onEmbedProgress?.({ kind, done: start - first + done, total: total - first }),
      });
      await idx.add(r.vectors);
      truncated.push(...r.truncated.map((i) => start + i));
      this.candidateCache.clear();
    }
    return { truncated };
  }

  /** The semantic chunks found so far, per document in order (sentence ranges from its first sentence): saved beside the vectors. */
  semanticChunks(): { start: number; end: number }[][] {
    return Array.from({ length: this.units.semanticDocs }, (_, d) => this.units.semanticRuns(d)!);
  }

  /**
   * Puts in semantic chunks found by an engine with the same documents, embedding model and
   * semantic parameters (semanticChunks' output), for the documents that have none yet.
   * Throws when they do not tile a document's sentences, before anything changes.
   */
  adoptSemanticChunks(perDoc: readonly (readonly { start: number; end: number }[])[]): void {
    if (perDoc.length > this.corpus.docs.length) throw new Error(`semantic chunks of ${perDoc.length} documents for a corpus of ${this.corpus.docs.length}`);
    const c = this.corpus;
    for (let d = this.units.semanticDocs; d < perDoc.length; d++) {
      if (!validRuns(perDoc[d]!, c.docStarts[d + 1]! - c.docStarts[d]!)) throw new Error(`the semantic chunks of document ${d} ("${c.docs[d]!.title}") do not tile its sentences`);
    }
    for (let d = this.units.semanticDocs; d < perDoc.length; d++) this.units.addSemantic(d, perDoc[d]!);
    this.candidateCache.clear();
    this.maskCache = null;
  }

  /** Documents whose semantic chunks are built, of all documents (the rest need buildSemanticChunks). */
  semanticCoverage(): { done: number; total: number } {
    return { done: this.units.semanticDocs, total: this.corpus.docs.length };
  }

  /**
   * Finds the semantic chunks of documents that have none yet, in document order (so unit
   * ids stay in document order): each sentence is embedded with its buffer of neighbours,
   * whole documents at a time in slices of about EMBED_SLICE texts, and the breakpoints are
   * LlamaIndex's (structure/semantic-chunks). A cancel keeps the documents done. The
   * buffered vectors are dropped once a document's chunks are known.
   */
  buildSemanticChunks(options: Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void } = {}): Promise<void> {
    const run = this.semanticQueue.catch(() => undefined).then(() => this.buildMissingSemantic(options));
    this.semanticQueue = run;
    return run;
  }

  private async buildMissingSemantic(options: Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void }): Promise<void> {
    if (!this.embedder) throw new Error(SEMANTIC_NEEDS_MODEL);
    const embedder = this.embedder;
    const c = this.corpus;
    const { buffer, percentile } = this.structure.semantic;
    const first = this.units.semanticDocs;
    const sizeOf = (d: number) => c.docStarts[d + 1]! - c.docStarts[d]!;
    let total = 0;
    for (let d = first; d < c.docs.length; d++) total += sizeOf(d);
    let done = 0;
    for (let d = first; d < c.docs.length; ) {
      // Whole documents per slice: a document's distances need all of its vectors.
      let end = d;
      let n = 0;
      while (end < c.docs.length && (end === d || n + sizeOf(end) <= EMBED_SLICE)) n += sizeOf(end++);
      const texts: string[] = [];
      for (let k = d; k < end; k++) {
        const base = c.docStarts[k]!;
        const text = c.docs[k]!.text;
        for (const [a, b] of bufferedRanges(sizeOf(k), buffer)) texts.push(text.slice(c.sentences[base + a]!.start, c.sentences[base + b - 1]!.end));
      }
      const { vectors } = texts.length
        ? await embedder.embed(texts, { ...options, kind: 'passage', onProgress: (x) => options.onEmbedProgress?.({ kind: 'semantic', done: done + x, total }) })
        : { vectors: new Float32Array(0) };
      const dim = embedder.dim;
      let row = 0;
      for (let k = d; k < end; k++) {
        const m = sizeOf(k);
        const own = vectors.subarray(row * dim, (row + m) * dim);
        this.units.addSemantic(k, semanticGroups(m, neighbourDistances(own, dim, m), percentile));
        row += m;
      }
      done += n;
      d = end;
      this.candidateCache.clear();
      this.maskCache = null;
    }
  }

  /**
   * The vector sets computed so far, as rows for saving: every unit kind and header
   * variant ('all'), or the current header variant's non-empty sets ('current').
   */
  snapshotVectors(scope: 'all' | 'current' = 'all'): VectorSet[] {
    if (scope === 'all') return this.vectors.snapshot();
    return this.vectors.snapshot(UNIT_KINDS.map((k) => this.variantKey(k)).filter((key) => this.vectors.size(key) > 0));
  }

  /**
   * Restores sets taken from an engine with the same documents, structure and model.
   * 'skip': sets that do not fit (another model or dimension, more vectors than units) are
   * left out and counted out of the result. 'exact': each set must hold one vector per
   * unit of this model, or it throws and nothing after it is restored.
   */
  async restoreVectorSets(sets: readonly VectorSet[], mode: 'skip' | 'exact' = 'skip'): Promise<number> {
    let restored = 0;
    for (const set of sets) {
      const kind = RetrievalEngine.kindOf(set.key);
      const model = set.key.split('|')[2];
      if (mode === 'exact') {
        if (!this.embedder) throw new Error('load the embedding model the vectors were made with first');
        const dim = this.embedder.dim;
        if (set.data.length !== this.unitCount(kind) * dim) {
          throw new Error(`saved ${kind} vectors do not match this corpus (${set.data.length / dim} vectors for ${this.unitCount(kind)} ${kind}s)`);
        }
      } else {
        if (!this.embedder || model !== this.embedder.model || set.dim !== this.embedder.dim) continue;
        if (set.data.length % set.dim !== 0 || set.data.length / set.dim > this.unitCount(kind)) continue;
      }
      await this.vectors.put(set);
      restored++;
    }
    this.candidateCache.clear();
    return restored;
  }

  /** The current variant's vectors by unit kind: a per-kind view of snapshotVectors('current') (CLI files, export, benches). */
  exportVectors(): Partial<Record<UnitKind, Float32Array>> {
    return Object.fromEntries(this.snapshotVectors('current').map((s) => [RetrievalEngine.kindOf(s.key), s.data]));
  }

  /** Puts one kind's vectors of the current variant in: restoreVectorSets of one set, 'exact'. */
  async importVectors(kind: UnitKind, vectors: Float32Array): Promise<void> {
    await this.restoreVectorSets([{ key: this.variantKey(kind), dim: this.embedder?.dim ?? 0, data: vectors }], 'exact');
  }

  /**
   * Per document: units embedded so far, for the current header variant. By default every
   * kind but semantic chunks: those exist only once found (a document would read "ready",
   * then not), and their column says how far that is.
   */
  documentCoverage(kinds: UnitKind[] = UNIT_KINDS.filter((k) => k !== 'semantic')): { done: number; total: number }[] {
    const out = this.corpus.docs.map(() => ({ done: 0, total: 0 }));
    for (const kind of kinds) {
      const have = this.vectors.size(this.variantKey(kind));
      this.units.rangesByDoc(kind).forEach(([a, b], d) => {
        out[d]!.total += b - a;
        out[d]!.done += Math.max(0, Math.min(b, have) - a);
      });
    }
    return out;
  }

  /**
   * Switches contextual headers. Vectors and BM25 indexes are kept per header variant, so
   * switching back costs nothing; a new variant needs embedUnits (the app shows progress).
   */
  /** Another analyzer or BM25 variant: only the lexical indexes change (built on first use, kept per choice). */
  setLexical(lexical: LexicalParams): void {
    this.structure = Object.freeze({ ...this.structure, lexical: validLexical({ ...lexical }) });
    this.candidateCache.clear();
  }

  setHeaders(headers: HeaderParams): void {
    this.structure = Object.freeze({ ...this.structure, headers: { ...headers, fields: [...headers.fields] } });
    this.candidateCache.clear();
  }

  /**
   * A new engine without some documents. Units are renumbered, and every vector already
   * computed (all header variants) is carried over, so nothing is embedded again.
   */
  async withoutDocuments(ids: Iterable<string>): Promise<RetrievalEngine> {
    const drop = new Set(ids);
    const next = new RetrievalEngine({ ...this.options, embedder: this.embedder, reranker: this.reranker, counter: this.counter, structure: this.structure, maxSentenceTokens: this.corpus.maxSentenceTokens });
    const keep = this.corpus.docs.map((d, i) => [d, i] as const).filter(([d]) => !drop.has(d.id));
    next.addDocuments(keep.map(([d]) => d));
    // Semantic chunks cost embeddings to find: the kept documents keep theirs (a prefix, in order).
    for (const [k, [, d]] of keep.entries()) {
      const runs = this.units.semanticRuns(d);
      if (!runs || next.units.semanticDocs !== k) break;
      next.units.addSemantic(k, runs);
    }
    const kept = (key: string, idx: VectorIndex): [number, number][] => {
      const ranges = this.units.rangesByDoc(RetrievalEngine.kindOf(key));
      const out: [number, number][] = [];
      for (const [, d] of keep) {
        const [a, b] = ranges[d]!;
        // Only vectors already computed: a variant still embedding keeps its prefix.
        out.push([a, Math.min(b, idx.size)]);
        if (b > idx.size) break;
      }
      return out;
    };
    for (const set of this.vectors.snapshot(this.vectors.keys(), kept)) await next.vectors.put(set);
    return next;
  }

  /** Embeds queries in one batch and caches them (the evaluation embeds all questions at once). */
  async embedQueries(queries: string[]): Promise<void> {
    if (!this.embedder) return;
    const missing = [...new Set(queries.filter((q) => !this.queryVectors.has(q)))];
    if (!missing.length) return;
    const { vectors } = await this.embedder.embed(missing, { kind: 'query', batchSize: 32 });
    const d = this.embedder.dim;
    missing.forEach((q, i) => this.queryVectors.set(q, vectors.slice(i * d, (i + 1) * d)));
  }

  /** The query's vector (embedded once, cached), for the corpus map; null without a model. */
  async queryEmbedding(query: string): Promise<Float32Array | null> {
    return this.queryVector(query);
  }

  /**
   * The sentence vectors of the current header variant as one row-major matrix (a copy), for
   * the corpus map; null until every sentence has its vector.
   */
  sentenceMatrix(): { dim: number; count: number; data: Float32Array } | null {
    const key = this.variantKey('sentence');
    const count = this.corpus.sentences.length;
    const idx = this.vectors.get(key);
    if (!idx || count === 0 || idx.size < count) return null;
    const [set] = this.vectors.snapshot([key], () => [[0, count]]);
    return { dim: idx.dim, count, data: set!.data };
  }

  private async queryVector(query: string): Promise<Float32Array | null> {
    if (!this.embedder) return null;
    await this.embedQueries([query]);
    return this.queryVectors.get(query) ?? null;
  }

  /** Filter masks are computed once per filter and corpus, not per query. */
  private allow(kind: UnitKind, params: RetrievalParams): Allow | undefined {
    const key = JSON.stringify(params.filters);
    if (this.maskCache?.key !== key) this.maskCache = { key, masks: new Map() };
    let m = this.maskCache.masks.get(kind);
    if (m === undefined) {
      const sentences = sentenceMask(this.corpus, params.filters);
      m = !sentences || kind === 'sentence' ? sentences : rangeMask(sentences, Array.from({ length: this.unitCount(kind) }, (_, id) => this.units.span(kind, id)));
      this.maskCache.masks.set(kind, m);
    }
    if (!m) return undefined;
    const mask = m;
    return (id) => mask[id] === 1;
  }

  /**
   * Retrieves candidate units for one unit kind: BM25, vector, or both fused with
   * weighted RRF; then optionally reranked by the cross-encoder. Notes say what was not
   * possible (no model, vectors still being computed).
   */
  async candidates(query: string, kind: UnitKind, p: RetrievalParams): Promise<{ candidates: Candidate[]; notes: string[] }> {
    // Sliders for windows, merging and budgets re-run blocks() on cached candidates.
    const key = JSON.stringify([query, kind, p.retriever, p.topK, p.rrf, p.rerank.enabled && this.reranker ? [p.rerank.topN, this.reranker.model] : null, p.filters]);
    const cached = this.candidateCache.get(key);
    if (cached) return cached;
    const result = await this.retrieveCandidates(query, kind, p);
    if (this.candidateCache.size >= 64) this.candidateCache.delete(this.candidateCache.keys().next().value!);
    this.candidateCache.set(key, result);
    return result;
  }

  private async retrieveCandidates(query: string, kind: UnitKind, p: RetrievalParams): Promise<{ candidates: Candidate[]; notes: string[] }> {
    const notes: string[] = [];
    if (kind === 'semantic') {
      if (!this.embedder) return { candidates: [], notes: [SEMANTIC_NEEDS_MODEL] };
      const { done, total } = this.semanticCoverage();
      if (done < total) notes.push(done === 0 ? 'semantic chunks are not built yet: each sentence is embedded with its neighbours first (embedding continues)' : `semantic chunks cover ${done} of ${total} documents (embedding continues)`);
    }
    const allow = this.allow(kind, p);
    const reranking = p.rerank.enabled && this.reranker !== null;
    // The reranker sees its top N even when fewer are shown.
    const k = reranking ? Math.max(p.topK, p.rerank.topN) : p.topK;
    if (k === 0) return { candidates: [], notes };
    const lists: RankedList[] = [];
    const wantBm25 = p.retriever !== 'vector';
    let wantVector = p.retriever !== 'bm25';
    const qvec = wantVector ? await this.queryVector(query) : null;
    const vindex = this.vectors.get(this.variantKey(kind));
    if (wantVector && (!qvec || !vindex || vindex.size === 0)) {
      notes.push(this.embedder ? `no ${kind} vectors yet: BM25 results only` : 'no embedding model loaded: BM25 results only');
      wantVector = false;
    } else if (wantVector && vindex!.size < this.unitCount(kind)) {
      notes.push(`vector search covers ${vindex!.size} of ${this.unitCount(kind)} ${unitsWord(kind)} (embedding continues)`);
    }
    // Fusion looks twice as deep into each list, so a unit ranked k+1 by one retriever and
    // high by the other can still make the fused top k.
    const fetch = p.retriever === 'hybrid' && wantVector ? k * 2 : k;
    if (wantBm25 || !wantVector) {
      const lang = queryLanguage(query, this.corpus.docs.map((d) => d.language));
      lists.push({ name: 'bm25', items: this.lexicalIndex(kind).search(query, fetch, allow, lang), weight: p.rrf.weights.bm25 });
    }
    if (wantVector) lists.push({ name: 'vector', items: this.vectorHits(query, kind, vindex!, qvec!, 2 * k, allow, p).slice(0, fetch), weight: p.rrf.weights.vector });
    let cands: Candidate[];
    if (lists.length === 2) {
      cands = reciprocalRankFusion(lists, { c: p.rrf.c })
        .slice(0, k)
        .map((f) => ({ id: f.id, score: f.score, ranks: f.ranks, scores: f.scores, fused: f.score }));
    } else {
      const l = lists[0]!;
      cands = l.items.slice(0, k).map((h: Hit, i) => ({ id: h.id, score: h.score, ranks: { [l.name]: i + 1 }, scores: { [l.name]: h.score } }));
    }
    if (lists.some((l) => l.name === 'bm25')) {
      const lexical = lexicalLabel(this.structure.lexical);
      cands = cands.map((c) => ({ ...c, lexical }));
    }
    if (p.rerank.enabled && !this.reranker) notes.push('reranking is on but no reranker is loaded');
    if (reranking) cands = await rerankCandidates(this.reranker!, query, cands, p.rerank.topN, (id) => this.unitText(kind, id));
    return { candidates: cands.slice(0, p.topK), notes };
  }

  /**
   * The index's top `depth` hits for a query, cached: a vector-only column takes the first k of
   * the same 2k hits a hybrid column fuses. The top k of a top-2k search are the top k (ties go
   * to the smaller id either way); the approximate index's short list is at least 1,000 long,
   * so up to k = 20 it is the same list, and above it only looks wider.
   */
  private vectorHits(query: string, kind: UnitKind, index: VectorIndex, qvec: Float32Array, depth: number, allow: Allow | undefined, p: RetrievalParams): Hit[] {
    const key = JSON.stringify([query, this.variantKey(kind), depth, p.filters]);
    const cached = this.vectorHitCache.get(key);
    if (cached && cached.index === index && cached.size === index.size) return cached.hits;
    const hits = index.search(qvec, depth, allow);
    this.vectorHitCache.set(key, { index, size: index.size, hits });
    return hits;
  }

  /** What a strategy works with for one query: units, costs, bounds, the query's vector similarities, blocks. */
  private context(query: string): QueryContext {
    const idx = this.vectors.get(this.variantKey('sentence'));
    const q = this.queryVectors.get(query);
    const similarity =
      idx && q
        ? {
            toQuery: (i: number) => (i < idx.size ? dot(q, idx.vector(i)) : null),
            between: (i: number, j: number) => (i < idx.size && j < idx.size ? dot(idx.vector(i), idx.vector(j)) : null),
          }
        : null;
    return new QueryContext(this.blocksOf, this.structure, query, similarity);
  }

  /** Turns candidates into a strategy's blocks: pure and synchronous (sliders call this). */
  blocks(strategy: StrategyName, cands: Candidate[], p: RetrievalParams, query = ''): ContextBlock[] {
    return strategyOf(strategy).blocks(this.context(query), cands, p);
  }

  /**
   * Query fusion (LlamaIndex QueryFusionRetriever, reciprocal_rerank): candidates for each
   * query (the question first, then the LLM's variants), fused by RRF and cut to topK, as
   * LlamaIndex cuts to similarity_top_k. Per-query results come from the candidate cache;
   * notes are merged without repeats.
   */
  async fusedCandidates(queries: string[], kind: UnitKind, p: RetrievalParams): Promise<{ candidates: FusedCandidate[]; notes: string[] }> {
    // One embedding batch for all queries instead of one model call each.
    if (p.retriever !== 'bm25') await this.embedQueries(queries);
    const lists: { query: string; candidates: Candidate[] }[] = [];
    const notes: string[] = [];
    for (const query of queries) {
      const r = await this.candidates(query, kind, p);
      lists.push({ query, candidates: r.candidates });
      for (const n of r.notes) if (!notes.includes(n)) notes.push(n);
    }
    return { candidates: fuseRankings(lists, QUERY_FUSION_K).slice(0, p.topK), notes };
  }

  /**
   * Which queries found something inside a block: the union of `variants` of the fused
   * candidates the block was built from (its hit sentences; for a naive chunk, its range).
   */
  foundBy(strategy: StrategyName, block: ContextBlock, cands: readonly FusedCandidate[]): number[] {
    const kind = strategyOf(strategy).unit;
    const hits = new Set(block.hits);
    const found = new Set<number>();
    for (const c of cands) {
      const u = this.units.span(kind, c.id);
      let inside = false;
      // A chunk is retrieved whole: it found the block that is that chunk.
      if (kind === 'chunk' || kind === 'packed' || kind === 'semantic') inside = u.doc === block.doc && u.start === block.sentences.start && u.end === block.sentences.end;
      else for (let i = u.start; i < u.end && !inside; i++) inside = hits.has(i);
      if (inside) c.variants.forEach((r, q) => r !== null && found.add(q));
    }
    return [...found].sort((a, b) => a - b);
  }

  /**
   * Runs one strategy on query-fused candidates. Blocks are judged against the original
   * question (queries[0]): adaptive windows grow by relevance to it, not to a variant.
   */
  async searchFused(queries: string[], strategy: StrategyName, params: Partial<RetrievalParams> = {}): Promise<FusedStrategyResult> {
    const p = retrievalParams(params);
    if (!queries.length) throw new Error('query fusion needs at least the question');
    const { candidates, notes } = await this.fusedCandidates(queries, strategyOf(strategy).unit, p);
    const blocks = this.blocks(strategy, candidates, p, queries[0]);
    return {
      strategy,
      retriever: p.retriever,
      blocks,
      totalTokens: blocks.reduce((n, b) => n + b.tokens, 0),
      candidates: candidates.length,
      notes,
      queries: [...queries],
      foundBy: blocks.map((b) => this.foundBy(strategy, b, candidates)),
    };
  }

  /** Runs strategies for a query: candidates once per unit kind, then each strategy's blocks. */
  async search(query: string, strategies: readonly StrategyName[], params: Partial<RetrievalParams> = {}): Promise<StrategyResult[]> {
    const p = retrievalParams(params);
    const byKind = new Map<UnitKind, { candidates: Candidate[]; notes: string[] }>();
    for (const s of strategies) {
      const kind = strategyOf(s).unit;
      if (!byKind.has(kind)) byKind.set(kind, await this.candidates(query, kind, p));
    }
    return strategies.map((s) => {
      const { candidates, notes } = byKind.get(strategyOf(s).unit)!;
      const blocks = this.blocks(s, candidates, p, query);
      return { strategy: s, retriever: p.retriever, blocks, totalTokens: blocks.reduce((n, b) => n + b.tokens, 0), candidates: candidates.length, notes };
    });
  }
}
