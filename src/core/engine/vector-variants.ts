/**
 * The engine's vectors: one set per unit kind × header variant × model (VectorStore), the
 * embedding jobs that fill them slice by slice, the semantic chunks found with the model, the
 * query vectors, and the snapshots saved and restored. The one place a new way of making
 * vectors plugs in (another embedder, an endpoint, late chunking: structure.vectors 'late').
 */
import type { EmbedOptions, Embedder } from '../embed/embedder';
import { lateChunkingOf } from '../embed/late-chunking';
import { FlatIndex } from '../index/flat-index';
import type { VectorIndex } from '../index/vector-index';
import { VectorStore, type VectorSet } from '../index/vector-store';
import { UNIT_KINDS, type UnitKind } from '../retrieve/params';
import { bufferedRanges, neighbourDistances, semanticGroups } from '../structure/semantic-chunks';
import { validRuns } from '../structure/units';
import { BoundedCache } from '../util/bounded-cache';
import { EMBED_SLICE, kindOfKey, SEMANTIC_NEEDS_MODEL, type EmbedProgress, type EngineChange, type EngineCore } from './types';

export type EmbedJobOptions = Omit<EmbedOptions, 'kind'> & { onEmbedProgress?: (p: EmbedProgress) => void };

export class VectorVariants {
  /** Every vector set computed: see snapshot / restore. */
  readonly store: VectorStore;
  /** Bounded: an evaluation embeds a whole question set at once (4,096 × 384 floats ≈ 6 MB at most). */
  readonly queryVectors = new BoundedCache<string, Float32Array>(4096);
  /** Queries being embedded now, so a second search for one waits instead of embedding it again. */
  private readonly queriesInFlight = new Map<string, Promise<void>>();
  /** One embedding run at a time per variant: concurrent runs would append the same units twice. */
  private readonly embedQueue = new Map<string, Promise<unknown>>();
  /** One semantic chunk build at a time (every header variant shares the chunks). */
  private semanticQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly core: EngineCore,
    makeIndex: ((dim: number) => VectorIndex | Promise<VectorIndex>) | undefined,
    private readonly changed: (what: EngineChange) => void,
  ) {
    this.store = new VectorStore(makeIndex ?? ((dim) => new FlatIndex(dim)));
  }

  /** The current variant's index of a kind, if any vectors were made for it. */
  current(kind: UnitKind): VectorIndex | undefined {
    return this.store.get(this.core.variantKey(kind));
  }

  coverage(kind: UnitKind): { done: number; total: number } {
    return { done: this.store.size(this.core.variantKey(kind)), total: this.core.units.count(kind) };
  }

  /** Embeds the units of a kind that have no vector yet, in slices; safe to call repeatedly (done work is kept). */
  embedUnits(kind: UnitKind, options: EmbedJobOptions = {}): Promise<{ truncated: number[] }> {
    const key = this.core.variantKey(kind);
    // Semantic chunks exist only once their documents' buffered sentences are embedded.
    const ready = kind === 'semantic' ? this.buildSemanticChunks(options) : Promise.resolve();
    const run = Promise.all([this.embedQueue.get(key)?.catch(() => undefined), ready]).then(() => this.embedMissing(kind, key, options));
    this.embedQueue.set(key, run);
    return run;
  }

  private async embedMissing(kind: UnitKind, key: string, options: EmbedJobOptions): Promise<{ truncated: number[] }> {
    const embedder = this.core.embedder;
    if (!embedder) throw new Error('no embedding model is loaded');
    if (this.core.structure().vectors === 'late') return this.embedLate(kind, key, embedder, options);
    const idx = await this.store.ensure(key, embedder.dim);
    const total = this.core.units.count(kind);
    const first = idx.size;
    const truncated: number[] = [];
    // Slices in unit order: each is searchable as soon as it is done, and a cancel keeps them.
    for (let start = first; start < total; start += EMBED_SLICE) {
      const end = Math.min(total, start + EMBED_SLICE);
      const texts = Array.from({ length: end - start }, (_, i) => this.core.unitText(kind, start + i));
      const r = await embedder.embed(texts, {
        ...options,
        kind: 'passage',
        onProgress: (done) => options.onEmbedProgress?.({ kind, done: start - first + done, total: total - first }),
      });
      await idx.add(r.vectors);
      truncated.push(...r.truncated.map((i) => start + i));
      this.changed('vectors');
    }
    return { truncated };
  }

  /**
   * Late-chunked vectors (embed/late-chunking.ts): whole documents through the embedder's
   * lateEmbed, a few at a time, each batch appended in unit order (the store is append-only) and
   * searchable once done, so a cancel keeps the documents done. A unit is pooled from the
   * document's own text: its header is not put before it (the title and headings are already
   * in the stream, once), nor a situating context. Nothing is truncated: a unit longer than a
   * span is pooled across spans.
   */
  private async embedLate(kind: UnitKind, key: string, embedder: Embedder, options: EmbedJobOptions): Promise<{ truncated: number[] }> {
    const support = lateChunkingOf(embedder);
    if (!support.available || !embedder.lateEmbed) throw new Error(support.available ? `late chunking is not available for ${embedder.model}` : support.reason);
    const idx = await this.store.ensure(key, embedder.dim);
    const units = this.core.units;
    const first = idx.size;
    const total = units.count(kind);
    // Documents with units not embedded yet; a document begun elsewhere (a restored prefix) is pooled whole again, its missing units kept.
    const docs = units.rangesByDoc(kind).flatMap(([a, b], d) => (b > first && b > a ? [{ d, a, b }] : []));
    for (let i = 0; i < docs.length; ) {
      const batch: typeof docs = [];
      let n = 0;
      while (i < docs.length && (batch.length === 0 || n + docs[i]!.b - docs[i]!.a <= EMBED_SLICE)) {
        n += docs[i]!.b - docs[i]!.a;
        batch.push(docs[i++]!);
      }
      const input = batch.map(({ d, a, b }) => ({
        text: units.corpus.docs[d]!.text,
        units: Array.from({ length: b - a }, (_, k) => {
          const u = units.span(kind, a + k);
          return { start: u.charStart, end: u.charEnd };
        }),
      }));
      const from = Math.max(first, batch[0]!.a);
      const r = await embedder.lateEmbed(input, {
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (done, spans) => options.onEmbedProgress?.({ kind, done: from - first + Math.floor(((batch.at(-1)!.b - from) * done) / spans), total: total - first }),
      });
      await idx.add(r.vectors.subarray((from - batch[0]!.a) * embedder.dim));
      options.onEmbedProgress?.({ kind, done: batch.at(-1)!.b - first, total: total - first });
      this.changed('vectors');
    }
    return { truncated: [] };
  }

  /** The semantic chunks found so far, per document in order (sentence ranges from its first sentence). */
  semanticChunks(): { start: number; end: number }[][] {
    const units = this.core.units;
    return Array.from({ length: units.semanticDocs }, (_, d) => units.semanticRuns(d)!);
  }

  /** Semantic chunks found elsewhere for the documents that have none yet; throws before any change when they do not tile. */
  adoptSemanticChunks(perDoc: readonly (readonly { start: number; end: number }[])[]): void {
    const units = this.core.units;
    const c = units.corpus;
    if (perDoc.length > c.docs.length) throw new Error(`semantic chunks of ${perDoc.length} documents for a corpus of ${c.docs.length}`);
    for (let d = units.semanticDocs; d < perDoc.length; d++) {
      if (!validRuns(perDoc[d]!, c.docStarts[d + 1]! - c.docStarts[d]!)) throw new Error(`the semantic chunks of document ${d} ("${c.docs[d]!.title}") do not tile its sentences`);
    }
    for (let d = units.semanticDocs; d < perDoc.length; d++) units.addSemantic(d, perDoc[d]!);
    this.changed('semantic');
  }

  semanticCoverage(): { done: number; total: number } {
    return { done: this.core.units.semanticDocs, total: this.core.units.corpus.docs.length };
  }

  /** Finds the semantic chunks of documents that have none yet, in document order; a cancel keeps the documents done. */
  buildSemanticChunks(options: EmbedJobOptions = {}): Promise<void> {
    const run = this.semanticQueue.catch(() => undefined).then(() => this.buildMissingSemantic(options));
    this.semanticQueue = run;
    return run;
  }

  private async buildMissingSemantic(options: EmbedJobOptions): Promise<void> {
    const embedder = this.core.embedder;
    if (!embedder) throw new Error(SEMANTIC_NEEDS_MODEL);
    const units = this.core.units;
    const c = units.corpus;
    const { buffer, percentile } = this.core.structure().semantic;
    const first = units.semanticDocs;
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
        units.addSemantic(k, semanticGroups(m, neighbourDistances(vectors.subarray(row * dim, (row + m) * dim), dim, m), percentile));
        row += m;
      }
      done += n;
      d = end;
      this.changed('semantic');
    }
  }

  /** Every set ('all'), or the current header variant's non-empty sets ('current'), as rows for saving. */
  snapshot(scope: 'all' | 'current' = 'all'): VectorSet[] {
    if (scope === 'all') return this.store.snapshot();
    return this.store.snapshot(UNIT_KINDS.map((k) => this.core.variantKey(k)).filter((key) => this.store.size(key) > 0));
  }

  /**
   * Restores sets taken from an engine with the same documents, structure and model. 'skip':
   * sets that do not fit are left out (and not counted); 'exact': each must hold one vector per
   * unit of this model, or it throws and nothing after it is restored.
   */
  async restore(sets: readonly VectorSet[], mode: 'skip' | 'exact'): Promise<number> {
    const embedder = this.core.embedder;
    let restored = 0;
    for (const set of sets) {
      const kind = kindOfKey(set.key);
      const model = set.key.split('|')[2];
      const units = this.core.units.count(kind);
      if (mode === 'exact') {
        if (!embedder) throw new Error('load the embedding model the vectors were made with first');
        if (set.data.length !== units * embedder.dim) {
          throw new Error(`saved ${kind} vectors do not match this corpus (${set.data.length / embedder.dim} vectors for ${units} ${kind}s)`);
        }
      } else {
        if (!embedder || model !== embedder.model || set.dim !== embedder.dim) continue;
        if (set.data.length % set.dim !== 0 || set.data.length / set.dim > units) continue;
      }
      await this.store.put(set);
      restored++;
    }
    this.changed('vectors');
    return restored;
  }

  /** Per document: units embedded so far for the current header variant, over the given kinds. */
  documentCoverage(kinds: UnitKind[]): { done: number; total: number }[] {
    const out = this.core.units.corpus.docs.map(() => ({ done: 0, total: 0 }));
    for (const kind of kinds) {
      const have = this.store.size(this.core.variantKey(kind));
      this.core.units.rangesByDoc(kind).forEach(([a, b], d) => {
        out[d]!.total += b - a;
        out[d]!.done += Math.max(0, Math.min(b, have) - a);
      });
    }
    return out;
  }

  /** Embeds queries in one batch and caches them (the evaluation embeds all questions at once). */
  async embedQueries(queries: string[]): Promise<void> {
    const embedder = this.core.embedder;
    if (!embedder) return;
    const wanted = [...new Set(queries.filter((q) => !this.queryVectors.has(q)))];
    // A query already on its way (two searches at start-up) is waited for, not embedded again:
    // with an endpoint model that would send the question twice.
    const waiting = wanted.flatMap((q) => this.queriesInFlight.get(q) ?? []);
    const missing = wanted.filter((q) => !this.queriesInFlight.has(q));
    if (missing.length) {
      const run = embedder.embed(missing, { kind: 'query', batchSize: 32 }).then(({ vectors }) => {
        const d = embedder.dim;
        missing.forEach((q, i) => this.queryVectors.set(q, vectors.slice(i * d, (i + 1) * d)));
      });
      const settled = run.finally(() => missing.forEach((q) => this.queriesInFlight.get(q) === settled && this.queriesInFlight.delete(q)));
      missing.forEach((q) => this.queriesInFlight.set(q, settled));
      waiting.push(settled);
    }
    await Promise.all(waiting);
  }

  /** The query's vector (embedded once, cached); null without a model. */
  async queryVector(query: string): Promise<Float32Array | null> {
    if (!this.core.embedder) return null;
    await this.embedQueries([query]);
    return this.queryVectors.get(query) ?? null;
  }

  /** The current variant's sentence vectors as one row-major copy; null until every sentence has one. */
  sentenceMatrix(): { dim: number; count: number; data: Float32Array } | null {
    const key = this.core.variantKey('sentence');
    const count = this.core.units.corpus.sentences.length;
    const idx = this.store.get(key);
    if (!idx || count === 0 || idx.size < count) return null;
    const [set] = this.store.snapshot([key], () => [[0, count]]);
    return { dim: idx.dim, count, data: set!.data };
  }
}
