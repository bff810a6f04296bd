/**
 * Candidate retrieval over the engine's indexes: BM25, vector, or both fused with weighted
 * RRF, then optionally reranked; metadata filters as masks; and the caches that make a
 * slider move free (candidates per query and parameters, one vector scan per kind shared by
 * vector and hybrid columns). Also query fusion's candidates.
 */
import type { Reranker } from '../embed/reranker';
import { queryLanguage } from '../index/analyzer';
import { lexicalLabel } from '../index/lexical-index';
import type { Allow, Hit, VectorIndex } from '../index/vector-index';
import type { Candidate } from '../retrieve/candidates';
import { rangeMask, sentenceMask } from '../retrieve/filters';
import type { RetrievalParams, UnitKind } from '../retrieve/params';
import type { RetrieverName } from '../retrieve/retrievers';
import { fuseRankings, type FusedCandidate } from '../retrieve/query-fusion';
import { rerankCandidates } from '../retrieve/rerank';
import { reciprocalRankFusion, type RankedList } from '../retrieve/rrf';
import { BoundedCache } from '../util/bounded-cache';
import type { ContextualUnits } from './contextual';
import type { LexicalIndexes } from './lexical-indexes';
import { SEMANTIC_NEEDS_MODEL, unitsWord, type EngineChange, type EngineCore } from './types';
import type { VectorVariants } from './vector-variants';

/** LlamaIndex's fixed RRF constant for query fusion (the hybrid RRF c slider is not used). */
const QUERY_FUSION_K = 60;

export interface Candidates {
  candidates: Candidate[];
  notes: string[];
  /** The retriever that really ranked them (BM25 alone when vectors are missing); null when none ran. */
  used: RetrieverName | null;
}

export class CandidateRetrieval {
  private readonly cache = new BoundedCache<string, Candidates>(64);
  /**
   * Vector hits per query, kind and filter, at hybrid depth: the vector and hybrid columns of
   * one question share one scan of the kind (at 1M sentences a scan is most of a column's time).
   */
  private readonly vectorHitCache = new BoundedCache<string, { index: VectorIndex; size: number; hits: Hit[] }>(64);
  private maskCache: { key: string; masks: Map<UnitKind, Uint8Array | null> } | null = null;

  constructor(
    private readonly core: EngineCore,
    private readonly vectors: VectorVariants,
    private readonly lexical: LexicalIndexes,
    private readonly reranker: () => Reranker | null,
    private readonly contexts: ContextualUnits,
  ) {}

  /** Drops what a change makes stale: every change the candidates, new units or semantic chunks the masks too. */
  changed(what: EngineChange): void {
    this.cache.clear();
    if (what === 'units' || what === 'semantic') this.maskCache = null;
    if (what === 'units') this.vectorHitCache.clear();
  }

  /** Filter masks are computed once per filter and corpus, not per query. */
  private allow(kind: UnitKind, params: RetrievalParams): Allow | undefined {
    const key = JSON.stringify(params.filters);
    if (this.maskCache?.key !== key) this.maskCache = { key, masks: new Map() };
    let m = this.maskCache.masks.get(kind);
    if (m === undefined) {
      const units = this.core.units;
      const sentences = sentenceMask(units.corpus, params.filters);
      m = !sentences || kind === 'sentence' ? sentences : rangeMask(sentences, Array.from({ length: units.count(kind) }, (_, id) => units.span(kind, id)));
      this.maskCache.masks.set(kind, m);
    }
    if (!m) return undefined;
    const mask = m;
    return (id) => mask[id] === 1;
  }

  /**
   * Candidate units of one kind for a query, cached per retrieval parameters that change them.
   * `contextual` (default: the structure's switch) retrieves units by their contextualised text.
   */
  async candidates(query: string, kind: UnitKind, p: RetrievalParams, contextual = this.core.structure().contextual): Promise<Candidates> {
    const reranker = this.reranker();
    // Sliders for windows, merging and budgets re-run blocks() on cached candidates.
    const key = JSON.stringify([query, kind, p.retriever, p.topK, p.rrf, p.rerank.enabled && reranker ? [p.rerank.topN, reranker.model] : null, p.filters, contextual ? this.contexts.version(kind) : null]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const result = await this.retrieve(query, kind, p, reranker, contextual);
    this.cache.set(key, result);
    return result;
  }

  private async retrieve(query: string, kind: UnitKind, p: RetrievalParams, reranker: Reranker | null, contextual: boolean): Promise<Candidates> {
    const notes: string[] = contextual ? this.contextNotes(kind, p.retriever !== 'bm25') : [];
    const { embedder, units } = this.core;
    if (kind === 'semantic') {
      if (!embedder) return { candidates: [], notes: [SEMANTIC_NEEDS_MODEL], used: null };
      const { done, total } = this.vectors.semanticCoverage();
      if (done < total) notes.push(done === 0 ? 'semantic chunks are not built yet: each sentence is embedded with its neighbours first (embedding continues)' : `semantic chunks cover ${done} of ${total} documents (embedding continues)`);
    }
    const allow = this.allow(kind, p);
    const reranking = p.rerank.enabled && reranker !== null;
    // The reranker sees its top N even when fewer are shown.
    const k = reranking ? Math.max(p.topK, p.rerank.topN) : p.topK;
    if (k === 0) return { candidates: [], notes, used: null };
    const lists: RankedList[] = [];
    const wantBm25 = p.retriever !== 'vector';
    let wantVector = p.retriever !== 'bm25';
    const qvec = wantVector ? await this.vectors.queryVector(query) : null;
    const vindex = this.vectors.current(kind);
    if (wantVector && (!qvec || !vindex || vindex.size === 0)) {
      notes.push(embedder ? `no ${kind} vectors yet: BM25 results only` : 'no embedding model loaded: BM25 results only');
      wantVector = false;
    } else if (wantVector && vindex!.size < units.count(kind)) {
      notes.push(`vector search covers ${vindex!.size} of ${units.count(kind)} ${unitsWord(kind)} (embedding continues)`);
    }
    if (wantVector && this.core.structure().vectors === 'late') notes.push("late-chunked vectors: each unit's vector pools its own tokens, read with the rest of its document");
    // Fusion looks twice as deep into each list, so a unit ranked k+1 by one retriever and
    // high by the other can still make the fused top k.
    const fetch = p.retriever === 'hybrid' && wantVector ? k * 2 : k;
    if (wantBm25 || !wantVector) {
      const lang = queryLanguage(query, units.corpus.docs.map((d) => d.language));
      lists.push({ name: 'bm25', items: this.lexical.get(kind, contextual).search(query, fetch, allow, lang), weight: p.rrf.weights.bm25 });
    }
    if (wantVector) {
      const hits = contextual ? this.contexts.search(kind, qvec!, 2 * k, allow, vindex) : this.vectorHits(query, kind, vindex!, qvec!, 2 * k, allow, p);
      lists.push({ name: 'vector', items: hits.slice(0, fetch), weight: p.rrf.weights.vector });
    }
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
      const lexical = lexicalLabel(this.core.structure().lexical);
      cands = cands.map((c) => ({ ...c, lexical }));
    }
    if (p.rerank.enabled && !reranker) notes.push('reranking is on but no reranker is loaded');
    if (reranking) cands = await rerankCandidates(reranker!, query, cands, p.rerank.topN, (id) => this.core.unitText(kind, id, contextual));
    const used: RetrieverName = lists.length === 2 ? 'hybrid' : lists[0]!.name === 'bm25' ? 'bm25' : 'vector';
    return { candidates: cands.slice(0, p.topK), notes, used };
  }

  /** What contextual retrieval of a kind stands on: how many units have a context, and how many of those are embedded. */
  private contextNotes(kind: UnitKind, vectors: boolean): string[] {
    const { written, embedded, total } = this.contexts.coverage(kind);
    if (written === 0) return [`no contexts written for ${unitsWord(kind)} yet: every unit is retrieved by its plain text`];
    const notes = written < total ? [`contexts cover ${written} of ${total} ${unitsWord(kind)}: the other ${total - written} are retrieved by their plain text`] : [];
    if (vectors && this.core.embedder && embedded < written) notes.push(`${written - embedded} contexts are not embedded yet: vector search reads those units' plain vectors`);
    return notes;
  }

  /**
   * The index's top `depth` hits for a query, cached: a vector-only column takes the first k of
   * the same 2k hits a hybrid column fuses. The top k of a top-2k search are the top k (ties go
   * to the smaller id either way); the approximate index's short list is at least 1,000 long,
   * so up to k = 20 it is the same list, and above it only looks wider.
   */
  private vectorHits(query: string, kind: UnitKind, index: VectorIndex, qvec: Float32Array, depth: number, allow: Allow | undefined, p: RetrievalParams): Hit[] {
    const key = JSON.stringify([query, this.core.variantKey(kind), depth, p.filters]);
    const cached = this.vectorHitCache.get(key);
    if (cached && cached.index === index && cached.size === index.size) return cached.hits;
    const hits = index.search(qvec, depth, allow);
    this.vectorHitCache.set(key, { index, size: index.size, hits });
    return hits;
  }

  /**
   * Query fusion (LlamaIndex QueryFusionRetriever, reciprocal_rerank): candidates for each query
   * (the question first, then the LLM's variants), fused by RRF and cut to topK. Per-query
   * results come from the candidate cache; notes are merged without repeats.
   */
  async fused(queries: string[], kind: UnitKind, p: RetrievalParams, contextual = this.core.structure().contextual): Promise<{ candidates: FusedCandidate[]; notes: string[]; used: RetrieverName | null }> {
    // One embedding batch for all queries instead of one model call each.
    if (p.retriever !== 'bm25') await this.vectors.embedQueries(queries);
    const lists: { query: string; candidates: Candidate[] }[] = [];
    const notes: string[] = [];
    let used: RetrieverName | null = null;
    for (const query of queries) {
      const r = await this.candidates(query, kind, p, contextual);
      lists.push({ query, candidates: r.candidates });
      used ??= r.used;
      for (const n of r.notes) if (!notes.includes(n)) notes.push(n);
    }
    return { candidates: fuseRankings(lists, QUERY_FUSION_K).slice(0, p.topK), notes, used };
  }
}
