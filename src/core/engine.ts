import type { Embedder, EmbedOptions } from './embed/embedder';
import type { Reranker } from './embed/reranker';
import { FlatIndex } from './index/flat-index';
import { LexicalIndex } from './index/lexical-index';
import type { Allow, Hit, VectorIndex } from './index/vector-index';
import { autoMerge, fitMerged } from './retrieve/automerge';
import type { Candidate } from './retrieve/candidates';
import { rangeMask, sentenceMask } from './retrieve/filters';
import {
  STRATEGY_UNIT,
  retrievalParams,
  structureParams,
  type RetrievalParams,
  type StrategyName,
  type StructureParams,
  type UnitKind,
} from './retrieve/params';
import { reciprocalRankFusion, type RankedList } from './retrieve/rrf';
import { fuseRankings, type FusedCandidate } from './retrieve/query-fusion';
import { expandWindows } from './retrieve/window';
import { adaptiveWindows } from './retrieve/adaptive';
import { bestSegments, unitValue } from './retrieve/rse';
import { words } from './segment/words';
import { detectLanguage } from './segment/language';
import { ApproxTokenCounter, type TokenCounter } from './segment/tokens';
import { appendDocument, boundaryGroups, emptyCorpus, type Corpus } from './structure/corpus';
import { chunkHeader, embeddedText, headerKey, type HeaderParams } from './structure/headers';
import { extendHierarchy, validateLevels } from './structure/hierarchy';
import { naiveChunksOfDocument, validateNaive } from './structure/naive-chunks';
import type { ChunkHierarchy, ChunkNode, ContextBlock, Document, NaiveChunk, Provenance } from './types';

/** Units embedded per slice: progress and search coverage advance slice by slice. */
const EMBED_SLICE = 256;

/** One strategy's answer to a query: the blocks handed over, best first. */
export interface StrategyResult {
  strategy: StrategyName;
  retriever: RetrievalParams['retriever'];
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

/** A unit (sentence, leaf, naive chunk) as a sentence range and a character span. */
interface UnitSpan {
  doc: number;
  start: number;
  end: number;
  charStart: number;
  charEnd: number;
}

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
 * The retrieval workbench: a corpus, its structures (hierarchy, naive chunks), lexical
 * and vector indexes per unit kind and header variant, and every strategy as a pure
 * function of (corpus, candidates, params). Used alike by the worker, the CLI and tests.
 * Retrieval-only parameter changes reuse cached candidates and never re-embed.
 */
export class RetrievalEngine {
  readonly corpus: Corpus;
  readonly counter: TokenCounter;
  /**
   * Chunk sizes and section level are fixed for the engine's life (another tree means
   * another engine); headers can change with setHeaders, each variant keeping its vectors.
   */
  structure: Readonly<StructureParams>;
  readonly embedder: Embedder | null;
  /** Can be swapped: reranking never changes what is indexed. */
  reranker: Reranker | null;
  readonly hierarchy: ChunkHierarchy;
  readonly chunks: NaiveChunk[] = [];
  private groups!: Int32Array;
  private groupStart!: Int32Array;
  private groupEnd!: Int32Array;
  private tokenPrefix = new Float64Array(1);
  private readonly lexical = new Map<string, LexicalIndex>();
  private readonly vectors = new Map<string, VectorIndex>();
  private readonly makeIndex: (dim: number) => VectorIndex | Promise<VectorIndex>;
  private readonly options: EngineOptions;
  private readonly headerTokens = new Map<string, number>();
  private readonly queryVectors = new Map<string, Float32Array>();
  /** One embedding run at a time per variant: concurrent runs would append the same units twice. */
  private readonly embedQueue = new Map<string, Promise<unknown>>();
  private readonly candidateCache = new Map<string, { candidates: Candidate[]; notes: string[] }>();
  private maskCache: { key: string; masks: Map<UnitKind, Uint8Array | null> } | null = null;

  constructor(options: EngineOptions = {}) {
    this.options = options;
    this.embedder = options.embedder ?? null;
    this.reranker = options.reranker ?? null;
    this.counter = options.counter ?? this.embedder?.counter ?? new ApproxTokenCounter();
    this.structure = Object.freeze(structureParams(options.structure));
    validateLevels(this.structure.chunkLevels);
    validateNaive(this.structure.naive);
    this.hierarchy = { levels: [...this.structure.chunkLevels], nodes: [], leaves: [] };
    const minLevel = Math.min(...this.structure.chunkLevels);
    const maxAtom = Math.min(options.maxSentenceTokens ?? minLevel, minLevel, this.embedder ? this.embedder.maxTokens - 2 : Infinity);
    this.corpus = emptyCorpus(this.counter, { maxSentenceTokens: maxAtom });
    this.makeIndex = options.vectorIndex ?? ((dim) => new FlatIndex(dim));
    this.indexBoundaries();
  }

  /**
   * Appends documents: sentences, chunk tree and naive chunks of the new documents only,
   * so every existing unit keeps its id (and its vector). A document whose content is
   * already in the corpus (same id) is not added twice; the duplicates are returned.
   */
  addDocuments(docs: Document[]): { added: Document[]; duplicates: Document[] } {
    const known = new Set(this.corpus.docs.map((d) => d.id));
    const added: Document[] = [];
    const duplicates: Document[] = [];
    const c = this.corpus;
    const first = c.sentences.length;
    for (const d of docs) {
      if (known.has(d.id)) {
        duplicates.push(d);
        continue;
      }
      known.add(d.id);
      added.push(d);
      appendDocument(c, d, this.counter);
      this.chunks.push(...naiveChunksOfDocument(c, c.docs.length - 1, this.counter, this.structure.naive, this.chunks.length));
    }
    if (added.length) {
      this.indexBoundaries();
      const tokens = c.sentences.map((x) => x.tokens);
      const docsOf = c.sentences.map((x) => x.doc);
      extendHierarchy(this.hierarchy, tokens, this.groups, docsOf, first, c.sentences.length);
      this.candidateCache.clear();
      this.maskCache = null;
    }
    return { added, duplicates };
  }

  /** Per-sentence section bounds and token prefix sums, for O(1) windows and budgets. */
  private indexBoundaries(): void {
    const c = this.corpus;
    this.groups = boundaryGroups(c, this.structure.sectionLevel);
    const n = c.sentences.length;
    this.groupStart = new Int32Array(n);
    this.groupEnd = new Int32Array(n);
    for (let i = 0; i < n; ) {
      let j = i;
      while (j < n && this.groups[j] === this.groups[i]) j++;
      this.groupStart.fill(i, i, j);
      this.groupEnd.fill(j, i, j);
      i = j;
    }
    this.tokenPrefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) this.tokenPrefix[i + 1] = this.tokenPrefix[i]! + c.sentences[i]!.tokens;
  }

  unitCount(kind: UnitKind): number {
    return kind === 'sentence' ? this.corpus.sentences.length : kind === 'leaf' ? this.hierarchy.leaves.length : this.chunks.length;
  }

  private unit(kind: UnitKind, id: number): UnitSpan {
    const c = this.corpus;
    if (kind === 'sentence') {
      const s = c.sentences[id]!;
      return { doc: s.doc, start: id, end: id + 1, charStart: s.start, charEnd: s.end };
    }
    if (kind === 'leaf') {
      const n = this.hierarchy.nodes[this.hierarchy.leaves[id]!]!;
      return { doc: n.doc, start: n.start, end: n.end, charStart: c.sentences[n.start]!.start, charEnd: c.sentences[n.end - 1]!.end };
    }
    const ch = this.chunks[id]!;
    return { doc: ch.doc, start: ch.sentences.start, end: ch.sentences.end, charStart: ch.start, charEnd: ch.end };
  }

  private header(start: number, end: number): string {
    const s = this.corpus.sentences;
    const first = s[start]!;
    return chunkHeader(this.corpus.docs[first.doc]!, first, s[end - 1]!, this.structure.headers);
  }

  private headerCost(header: string): number {
    if (!header) return 0;
    let n = this.headerTokens.get(header);
    if (n === undefined) this.headerTokens.set(header, (n = this.counter.count(header)));
    return n;
  }

  /** Tokens a block over sentences [start, end) costs in the context, header included. */
  blockCost = (start: number, end: number): number =>
    this.tokenPrefix[end]! - this.tokenPrefix[start]! + (this.structure.headers.enabled ? this.headerCost(this.header(start, end)) : 0);

  /**
   * The smallest chunk-tree node that strictly contains sentences [start, end): the
   * "parent chunk" the document view draws around a block. Null at the top of the tree.
   */
  enclosingNode(start: number, end: number): ChunkNode | null {
    const { leaves, nodes } = this.hierarchy;
    let lo = 0;
    let hi = leaves.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (nodes[leaves[mid]!]!.start <= start) lo = mid;
      else hi = mid - 1;
    }
    let node: ChunkNode | undefined = nodes[leaves[lo] ?? -1];
    while (node && !(node.start <= start && node.end >= end && node.end - node.start > end - start)) {
      node = node.parent === null ? undefined : nodes[node.parent];
    }
    return node ?? null;
  }

  /**
   * How coherent a block is (seed: the information content of a window): the mean cosine
   * of its sentences with the query, and the mean pairwise cosine among them, from the
   * sentence vectors. Null without vectors for all its sentences. Pairs are sampled
   * evenly above 40 sentences so a long parent stays cheap.
   */
  blockCoherence(start: number, end: number, query: string): { toQuery: number; internal: number | null } | null {
    const idx = this.vectors.get(this.variantKey('sentence'));
    const q = this.queryVectors.get(query);
    if (!idx || !q || end > idx.size) return null;
    const step = Math.max(1, Math.ceil((end - start) / 40));
    const ids: number[] = [];
    for (let i = start; i < end; i += step) ids.push(i);
    const dot = (a: Float32Array, b: Float32Array) => {
      let s = 0;
      for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
      return s;
    };
    const toQuery = ids.reduce((s, i) => s + dot(q, idx.vector(i)), 0) / ids.length;
    if (ids.length < 2) return { toQuery, internal: null };
    let sum = 0;
    let n = 0;
    for (let a = 0; a < ids.length; a++) for (let b = a + 1; b < ids.length; b++) (sum += dot(idx.vector(ids[a]!), idx.vector(ids[b]!))), n++;
    return { toQuery, internal: sum / n };
  }

  /** The text a unit is indexed and embedded as (its header first, when headers are on). */
  unitText(kind: UnitKind, id: number): string {
    const u = this.unit(kind, id);
    const text = kind === 'chunk' ? this.chunks[id]!.text : this.corpus.docs[u.doc]!.text.slice(u.charStart, u.charEnd);
    return embeddedText(this.structure.headers.enabled ? this.header(u.start, u.end) : '', text);
  }

  private variantKey(kind: UnitKind): string {
    return `${kind}|${headerKey(this.structure.headers)}|${this.embedder?.model ?? 'none'}`;
  }

  /** The BM25 index of a unit kind, brought up to date with the corpus. */
  lexicalIndex(kind: UnitKind): LexicalIndex {
    const key = this.variantKey(kind);
    let idx = this.lexical.get(key);
    if (!idx) this.lexical.set(key, (idx = new LexicalIndex()));
    const total = this.unitCount(kind);
    if (idx.size < total) {
      const ids = Array.from({ length: total - idx.size }, (_, i) => idx!.size + i);
      idx.add(
        ids.map((id) => this.unitText(kind, id)),
        ids.map((id) => this.corpus.docs[this.unit(kind, id).doc]!.language),
      );
    }
    return idx;
  }

  /** How many units of a kind have vectors, of how many. */
  vectorCoverage(kind: UnitKind): { done: number; total: number } {
    return { done: this.vectors.get(this.variantKey(kind))?.size ?? 0, total: this.unitCount(kind) };
  }

  /**
   * Embeds the units of a kind that have no vector yet (new documents, or a new header
   * variant), in length-sorted batches. Safe to call repeatedly: done work is kept.
   */
  embedUnits(kind: UnitKind, options: Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void } = {}): Promise<{ truncated: number[] }> {
    const key = this.variantKey(kind);
    const run = (this.embedQueue.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.embedMissing(kind, key, options));
    this.embedQueue.set(key, run);
    return run;
  }

  private async embedMissing(kind: UnitKind, key: string, options: Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void }): Promise<{ truncated: number[] }> {
    if (!this.embedder) throw new Error('no embedding model is loaded');
    let idx = this.vectors.get(key);
    if (!idx) this.vectors.set(key, (idx = await this.makeIndex(this.embedder.dim)));
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

  /** Every computed vector set (all unit kinds and header variants), for persistence. */
  vectorSnapshot(): { key: string; dim: number; data: Float32Array }[] {
    return [...this.vectors].map(([key, idx]) => {
      const data = new Float32Array(idx.size * idx.dim);
      for (let i = 0; i < idx.size; i++) data.set(idx.vector(i), i * idx.dim);
      return { key, dim: idx.dim, data };
    });
  }

  /**
   * Restores a snapshot taken from an engine with the same documents, structure and
   * model. Sets that do not fit (another model, more vectors than units) are skipped.
   */
  async restoreVectors(snapshot: { key: string; dim: number; data: Float32Array }[]): Promise<number> {
    let restored = 0;
    for (const { key, dim, data } of snapshot) {
      const [kind, , model] = key.split('|') as [UnitKind, string, string];
      if (!this.embedder || model !== this.embedder.model || dim !== this.embedder.dim) continue;
      if (data.length % dim !== 0 || data.length / dim > this.unitCount(kind)) continue;
      const idx = await this.makeIndex(dim);
      await idx.add(data);
      this.vectors.set(key, idx);
      restored++;
    }
    this.candidateCache.clear();
    return restored;
  }

  /** Per document: units embedded so far over all kinds, for the current header variant. */
  documentCoverage(kinds: UnitKind[] = ['sentence', 'leaf', 'chunk']): { done: number; total: number }[] {
    const out = this.corpus.docs.map(() => ({ done: 0, total: 0 }));
    for (const kind of kinds) {
      const have = this.vectors.get(this.variantKey(kind))?.size ?? 0;
      this.unitRangesByDoc(kind).forEach(([a, b], d) => {
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
  setHeaders(headers: HeaderParams): void {
    this.structure = Object.freeze({ ...this.structure, headers: { ...headers, fields: [...headers.fields] } });
    this.candidateCache.clear();
  }

  /** Unit id ranges [start, end) of each document, per unit kind (units are in document order). */
  private unitRangesByDoc(kind: UnitKind): [number, number][] {
    const n = this.corpus.docs.length;
    if (kind === 'sentence') return Array.from({ length: n }, (_, d) => [this.corpus.docStarts[d]!, this.corpus.docStarts[d + 1]!]);
    const docOf = kind === 'leaf' ? (i: number) => this.hierarchy.nodes[this.hierarchy.leaves[i]!]!.doc : (i: number) => this.chunks[i]!.doc;
    const ranges: [number, number][] = Array.from({ length: n }, () => [0, 0]);
    const total = this.unitCount(kind);
    for (let i = 0; i < total; ) {
      const d = docOf(i);
      let j = i;
      while (j < total && docOf(j) === d) j++;
      ranges[d] = [i, j];
      i = j;
    }
    return ranges;
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
    for (const [key, idx] of this.vectors) {
      const kind = key.split('|')[0] as UnitKind;
      const ranges = this.unitRangesByDoc(kind);
      const rows: Float32Array[] = [];
      for (const [, d] of keep) {
        const [a, b] = ranges[d]!;
        // Only vectors already computed: a variant still embedding keeps its prefix.
        for (let id = a; id < Math.min(b, idx.size); id++) rows.push(idx.vector(id));
        if (b > idx.size) break;
      }
      const moved = await this.makeIndex(idx.dim);
      const flat = new Float32Array(rows.length * idx.dim);
      rows.forEach((r, i) => flat.set(r, i * idx.dim));
      await moved.add(flat);
      next.vectors.set(key, moved);
    }
    return next;
  }

  /** Vectors of every unit kind embedded so far, for saving a corpus (current header variant). */
  exportVectors(): Partial<Record<UnitKind, Float32Array>> {
    const out: Partial<Record<UnitKind, Float32Array>> = {};
    for (const kind of ['sentence', 'leaf', 'chunk'] as const) {
      const idx = this.vectors.get(this.variantKey(kind));
      if (idx?.size) {
        const rows = new Float32Array(idx.size * idx.dim);
        for (let i = 0; i < idx.size; i++) rows.set(idx.vector(i), i * idx.dim);
        out[kind] = rows;
      }
    }
    return out;
  }

  /** Restores saved vectors (same documents, structure and model), so nothing is re-embedded. */
  async importVectors(kind: UnitKind, vectors: Float32Array): Promise<void> {
    if (!this.embedder) throw new Error('load the embedding model the vectors were made with first');
    const dim = this.embedder.dim;
    if (vectors.length !== this.unitCount(kind) * dim) {
      throw new Error(`saved ${kind} vectors do not match this corpus (${vectors.length / dim} vectors for ${this.unitCount(kind)} ${kind}s)`);
    }
    const idx = await this.makeIndex(dim);
    await idx.add(vectors);
    this.vectors.set(this.variantKey(kind), idx);
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
    const idx = this.vectors.get(this.variantKey('sentence'));
    const count = this.corpus.sentences.length;
    if (!idx || count === 0 || idx.size < count) return null;
    const data = new Float32Array(count * idx.dim);
    for (let i = 0; i < count; i++) data.set(idx.vector(i), i * idx.dim);
    return { dim: idx.dim, count, data };
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
      m = !sentences || kind === 'sentence' ? sentences : rangeMask(sentences, Array.from({ length: this.unitCount(kind) }, (_, id) => this.unit(kind, id)));
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
      notes.push(`vector search covers ${vindex!.size} of ${this.unitCount(kind)} ${kind}s (embedding continues)`);
    }
    // Fusion looks twice as deep into each list, so a unit ranked k+1 by one retriever and
    // high by the other can still make the fused top k.
    const fetch = p.retriever === 'hybrid' && wantVector ? k * 2 : k;
    if (wantBm25 || !wantVector) {
      const lang = detectLanguage(query, this.corpus.docs[0]?.language ?? 'en');
      lists.push({ name: 'bm25', items: this.lexicalIndex(kind).search(query, fetch, allow, lang), weight: p.rrf.weights.bm25 });
    }
    if (wantVector) lists.push({ name: 'vector', items: vindex!.search(qvec!, fetch, allow), weight: p.rrf.weights.vector });
    let cands: Candidate[];
    if (lists.length === 2) {
      cands = reciprocalRankFusion(lists, { c: p.rrf.c })
        .slice(0, k)
        .map((f) => ({ id: f.id, score: f.score, ranks: f.ranks, scores: f.scores, fused: f.score }));
    } else {
      const l = lists[0]!;
      cands = l.items.slice(0, k).map((h: Hit, i) => ({ id: h.id, score: h.score, ranks: { [l.name]: i + 1 }, scores: { [l.name]: h.score } }));
    }
    if (p.rerank.enabled && !this.reranker) notes.push('reranking is on but no reranker is loaded');
    if (reranking) cands = await this.rerank(query, kind, cands, p.rerank.topN);
    return { candidates: cands.slice(0, p.topK), notes };
  }

  private async rerank(query: string, kind: UnitKind, cands: Candidate[], topN: number): Promise<Candidate[]> {
    const head = cands.slice(0, Math.max(1, topN));
    // The cross-encoder sees the same text that was embedded, header included (dsRAG).
    const scores = await this.reranker!.score(query, head.map((c) => this.unitText(kind, c.id)));
    const reranked = head
      .map((c, i) => ({ ...c, score: scores[i]!, rerank: { score: scores[i]!, before: i + 1 } }))
      .sort((a, b) => b.score - a.score);
    // Units past the top N keep their order below every reranked one: scores must share
    // one scale, or merging and windows would compare logits with RRF scores.
    const floor = Math.min(...reranked.map((c) => c.score));
    const tail = cands.slice(head.length).map((c, i) => ({ ...c, score: floor - (i + 1) * 1e-6 }));
    return [...reranked, ...tail];
  }

  /** Turns candidates into a strategy's blocks: pure and synchronous (sliders call this). */
  blocks(strategy: StrategyName, cands: Candidate[], p: RetrievalParams, query = ''): ContextBlock[] {
    const budget = p.budgetTokens;
    const kind = STRATEGY_UNIT[strategy];
    const bound = (i: number): [number, number] => {
      if (p.window.bySection) return [this.groupStart[i]!, this.groupEnd[i]!];
      const d = this.corpus.sentences[i]!.doc;
      return [this.corpus.docStarts[d]!, this.corpus.docStarts[d + 1]!];
    };
    if (strategy === 'adaptive') {
      const { relevance, source } = this.sentenceRelevance(query, p.adaptive.policy);
      return adaptiveWindows(cands, p.adaptive, relevance, bound, this.blockCost, budget).map((w) => {
        const best = [...w.hits].sort((a, b) => b.score - a.score)[0]!;
        return this.block('adaptive', w.start, w.end, w.hits, w.score, {
          adaptive: { before: best.id - w.start, after: w.end - 1 - best.id, stopped: w.stopped, relevance: source },
          ...(w.hits.length > 1 ? { hits: w.hits.length } : {}),
        });
      });
    }
    if (strategy === 'rse') return this.rseBlocks(cands, p);
    if (strategy === 'window') {
      return expandWindows(cands, p.window, bound, this.blockCost, budget).map((w) =>
        this.block('window', w.start, w.end, w.hits, w.score, {
          window: { before: p.window.before, after: p.window.after, shrunk: w.shrunk },
          ...(w.hits.length > 1 ? { hits: w.hits.length } : {}),
        }),
      );
    }
    if (strategy === 'automerge') {
      // With a budget, merging decides among the leaves the budget would hold, as with a
      // small top-k in LlamaIndex: merging over 50 retrieved leaves would promote nearly
      // every parent of a short document.
      let pool = cands;
      if (budget !== null) {
        pool = [];
        let used = 0;
        for (const c of cands) {
          const leaf = this.hierarchy.nodes[this.hierarchy.leaves[c.id]!]!;
          const cost = this.blockCost(leaf.start, leaf.end);
          if (used + cost > budget) continue;
          used += cost;
          pool.push(c);
        }
      }
      const leafCands = pool.map((c) => ({ ...c, id: this.hierarchy.leaves[c.id]! }));
      const merged = fitMerged(this.hierarchy, autoMerge(this.hierarchy, leafCands, p.merge), this.blockCost, budget);
      return merged.map((m) => {
        const n = this.hierarchy.nodes[m.node]!;
        const hitSentences = m.leaves.flatMap((l) => {
          const leaf = this.hierarchy.nodes[l.id]!;
          return Array.from({ length: leaf.end - leaf.start }, (_, i) => leaf.start + i);
        });
        // A parent with one child is the same text: no merge worth reporting.
        return this.block('automerge', n.start, n.end, m.leaves, m.score, m.merged && m.merged.of > 1 ? { merged: m.merged } : {}, hitSentences);
      });
    }
    // sentence hits and naive chunks: each unit is a block; those that do not fit are skipped.
    const out: ContextBlock[] = [];
    let used = 0;
    for (const c of cands) {
      if (kind === 'chunk') {
        const ch = this.chunks[c.id]!;
        const header = this.structure.headers.enabled ? this.header(ch.sentences.start, ch.sentences.end) : '';
        const cost = ch.tokens + this.headerCost(header);
        if (budget !== null && used + cost > budget) continue;
        used += cost;
        out.push({
          id: `naive:${ch.doc}:${ch.start}-${ch.end}`,
          doc: ch.doc,
          sentences: { ...ch.sentences },
          start: ch.start,
          end: ch.end,
          text: ch.text,
          ...(header ? { header } : {}),
          hits: [],
          score: c.score,
          tokens: cost,
          provenance: this.provenance('chunk', [c], {}),
        });
      } else {
        const cost = this.blockCost(c.id, c.id + 1);
        if (budget !== null && used + cost > budget) continue;
        used += cost;
        out.push(this.block('sentence', c.id, c.id + 1, [c], c.score, {}));
      }
    }
    return out;
  }

  /**
   * How relevant each sentence is to the query, for adaptive windows: the cosine of the
   * sentence's vector with the query's (and the hit's, with policy query+hit) when both
   * exist, else the share of the query's words the sentence contains.
   */
  private sentenceRelevance(query: string, policy: 'query' | 'query+hit'): { relevance: (i: number, hit: number) => number; source: 'vector' | 'words' } {
    const idx = this.vectors.get(this.variantKey('sentence'));
    const q = this.queryVectors.get(query);
    if (idx && q) {
      const cos = (a: Float32Array, b: Float32Array) => {
        let s = 0;
        for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
        return s;
      };
      const toQuery = (i: number) => (i < idx.size ? cos(q, idx.vector(i)) : 0);
      if (policy === 'query') return { relevance: toQuery, source: 'vector' };
      return { relevance: (i, hit) => (toQuery(i) + (i < idx.size && hit < idx.size ? cos(idx.vector(hit), idx.vector(i)) : 0)) / 2, source: 'vector' };
    }
    const lang = this.corpus.docs[0]?.language ?? 'en';
    const qWords = new Set(words(query, lang));
    const cache = new Map<number, number>();
    const overlap = (i: number) => {
      let v = cache.get(i);
      if (v === undefined) {
        const s = this.corpus.sentences[i]!;
        const w = new Set(words(s.text, this.corpus.docs[s.doc]!.language));
        let n = 0;
        for (const x of qWords) if (w.has(x)) n++;
        cache.set(i, (v = qWords.size ? n / qWords.size : 0));
      }
      return v;
    };
    return { relevance: policy === 'query' ? overlap : (i, hit) => (overlap(i) + overlap(hit)) / 2, source: 'words' };
  }

  /**
   * Relevant segment extraction over leaves: the documents of the top results form the
   * meta-document, each leaf gets dsRAG's value from its rank and its relevance (its score
   * over the best score), and the best segments within the budget become blocks.
   */
  private rseBlocks(cands: Candidate[], p: RetrievalParams): ContextBlock[] {
    if (!cands.length) return [];
    const r = p.rse;
    const maxScore = Math.max(...cands.map((c) => c.score), 1e-12);
    const rankOf = new Map(cands.map((c, i) => [c.id, { rank: i, relevance: Math.max(0, c.score) / maxScore, cand: c }]));
    const docs: number[] = [];
    for (const c of cands.slice(0, r.topKForDocumentSelection)) {
      const d = this.hierarchy.nodes[this.hierarchy.leaves[c.id]!]!.doc;
      if (!docs.includes(d)) docs.push(d);
    }
    const ranges = this.unitRangesByDoc('leaf');
    const meta: number[] = []; // meta index → leaf id
    const splits: number[] = [];
    for (const d of docs) {
      if (meta.length) splits.push(meta.length);
      const [a, b] = ranges[d]!;
      for (let leaf = a; leaf < b; leaf++) meta.push(leaf);
    }
    const values = meta.map((leaf) => {
      const hit = rankOf.get(leaf);
      return hit ? unitValue(hit.rank, hit.relevance, r) : unitValue(null, 0, r);
    });
    const span = (start: number, end: number) => {
      const first = this.hierarchy.nodes[this.hierarchy.leaves[meta[start]!]!]!;
      const last = this.hierarchy.nodes[this.hierarchy.leaves[meta[end - 1]!]!]!;
      return [first.start, last.end] as const;
    };
    const cost = (start: number, end: number) => this.blockCost(...span(start, end));
    return bestSegments(values, splits, r, cost, p.budgetTokens).map((seg) => {
      const [s, e] = span(seg.start, seg.end);
      const inside = meta.slice(seg.start, seg.end).filter((leaf) => rankOf.has(leaf));
      const hitCands = inside.map((leaf) => rankOf.get(leaf)!.cand).sort((a, b) => b.score - a.score);
      const hitSentences = inside.flatMap((leaf) => {
        const n = this.hierarchy.nodes[this.hierarchy.leaves[leaf]!]!;
        return Array.from({ length: n.end - n.start }, (_, i) => n.start + i);
      });
      const extra = { segment: { value: seg.value, units: seg.end - seg.start, retrieved: inside.length } };
      return this.block('rse', s, e, hitCands.length ? hitCands : [cands[0]!], seg.value, extra, hitSentences);
    });
  }

  private provenance(unit: Provenance['unit'], hits: Candidate[], extra: Partial<Provenance>): Provenance {
    const best = hits[0]!;
    return {
      unit,
      ranks: { ...best.ranks },
      scores: { ...best.scores },
      ...(best.fused !== undefined ? { fused: best.fused } : {}),
      ...(best.rerank ? { rerank: { ...best.rerank } } : {}),
      ...extra,
    };
  }

  private block(
    strategy: StrategyName,
    start: number,
    end: number,
    hits: Candidate[],
    score: number,
    extra: Partial<Provenance>,
    hitSentences?: number[],
  ): ContextBlock {
    const s = this.corpus.sentences;
    const doc = s[start]!.doc;
    const charStart = s[start]!.start;
    const charEnd = s[end - 1]!.end;
    const header = this.structure.headers.enabled ? this.header(start, end) : '';
    const ordered = [...hits].sort((a, b) => b.score - a.score);
    return {
      id: `${strategy}:${doc}:${start}-${end}`,
      doc,
      sentences: { start, end },
      start: charStart,
      end: charEnd,
      text: this.corpus.docs[doc]!.text.slice(charStart, charEnd),
      ...(header ? { header } : {}),
      hits: hitSentences ?? ordered.map((h) => h.id).sort((a, b) => a - b),
      score,
      tokens: this.blockCost(start, end),
      provenance: this.provenance(strategy === 'automerge' || strategy === 'rse' ? 'leaf' : 'sentence', ordered, extra),
    };
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
    const kind = STRATEGY_UNIT[strategy];
    const hits = new Set(block.hits);
    const found = new Set<number>();
    for (const c of cands) {
      const u = this.unit(kind, c.id);
      let inside = false;
      if (kind === 'chunk') inside = u.doc === block.doc && u.start === block.sentences.start && u.end === block.sentences.end;
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
    const { candidates, notes } = await this.fusedCandidates(queries, STRATEGY_UNIT[strategy], p);
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
      const kind = STRATEGY_UNIT[s];
      if (!byKind.has(kind)) byKind.set(kind, await this.candidates(query, kind, p));
    }
    return strategies.map((s) => {
      const { candidates, notes } = byKind.get(STRATEGY_UNIT[s])!;
      const blocks = this.blocks(s, candidates, p, query);
      return { strategy: s, retriever: p.retriever, blocks, totalTokens: blocks.reduce((n, b) => n + b.tokens, 0), candidates: candidates.length, notes };
    });
  }
}
