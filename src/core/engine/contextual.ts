/**
 * Contextual retrieval inside the engine: the units' situating contexts (a ContextStore, keyed
 * by stable unit identity) and the vectors of contextualised units. Contexts arrive one by one
 * over minutes and can be edited, while the engine's vector sets are append-only in unit
 * order; so contextual vectors are an overlay: one vector per unit that has a context, beside
 * the plain set, searched together with it (same model, so the cosines compare), the plain
 * vector standing in for every unit without one. The overlay is content-addressed (by model
 * and the exact text embedded): an edited context is simply a new text, a removed document
 * loses nothing, and an engine without some documents shares the cache.
 */
import { CONTEXT_UNIT_KINDS, ContextStore, contextKey, isContextUnitKind, type UnitContext } from '../context/context-store';
import type { EmbedOptions } from '../embed/embedder';
import { dot, l2normalize, type Allow, type Hit, type VectorIndex } from '../index/vector-index';
import type { UnitKind } from '../retrieve/param-types';
import { EMBED_SLICE, type EngineCore } from './types';

/** Contextual vectors by "<model>\0<embedded text>". */
export type ContextVectorCache = Map<string, Float32Array>;

/** The cache key of a text's contextual vector under a model. */
export function contextVectorKey(model: string, text: string): string {
  return `${model}\u0000${text}`;
}

export interface ContextEmbedOptions extends Omit<EmbedOptions, 'kind'> {
  /** Each slice's new cache entries, as soon as they are in the cache (the lab stores them). */
  onVectors?: (added: [key: string, vector: Float32Array][]) => void;
}

interface Overlay {
  version: string;
  /** Units with a context. */
  written: number;
  ids: number[];
  rows: Float32Array;
  /** 1 for units searched by their contextual vector. */
  mask: Uint8Array;
}

export class ContextualUnits {
  private readonly overlays = new Map<UnitKind, Overlay>();
  private readonly queue = new Map<UnitKind, Promise<unknown>>();
  /** Bumped when vectors are added, so overlays rebuild. */
  private added = 0;

  constructor(
    private readonly core: EngineCore,
    readonly store: ContextStore = new ContextStore(),
    readonly vectors: ContextVectorCache = new Map(),
  ) {}

  /** A unit's identity in the store. */
  key(kind: UnitKind, id: number): string {
    const u = this.core.units.span(kind, id);
    return contextKey(this.core.units.corpus.docs[u.doc]!.id, kind, u.charStart, u.charEnd);
  }

  /** A unit's context, if one was written (semantic chunks have none). */
  get(kind: UnitKind, id: number): UnitContext | undefined {
    if (!isContextUnitKind(kind) || this.store.count(kind) === 0) return undefined;
    return this.store.get(this.key(kind, id));
  }

  /** Units of a kind with a context, with an embedded contextual vector, and in all. */
  coverage(kind: UnitKind): { written: number; embedded: number; total: number } {
    const o = this.overlay(kind);
    return { written: o?.written ?? 0, embedded: o?.ids.length ?? 0, total: this.core.units.count(kind) };
  }

  private vectorKey(model: string, kind: UnitKind, id: number): string {
    return contextVectorKey(model, this.core.unitText(kind, id, true));
  }

  /**
   * The contextualised text of every unit that has a context, of every kind: what the current
   * contextual vectors are made from (a stored vector whose text is not among them is stale).
   */
  texts(): Set<string> {
    const out = new Set<string>();
    for (const kind of CONTEXT_UNIT_KINDS) {
      if (this.store.count(kind) === 0) continue;
      const n = this.core.units.count(kind);
      for (let id = 0; id < n; id++) if (this.store.has(this.key(kind, id))) out.add(this.core.unitText(kind, id, true));
    }
    return out;
  }

  /** Takes vectors made earlier (read back from storage), by cache key; keys already held are kept as they are. Returns how many were taken. */
  adoptVectors(entries: Iterable<[key: string, vector: Float32Array]>): number {
    let n = 0;
    for (const [key, v] of entries) {
      if (this.vectors.has(key)) continue;
      this.vectors.set(key, v);
      n++;
    }
    if (n) this.added++;
    return n;
  }

  /** Embeds the contextualised text of every unit of a kind whose context has no vector yet; returns how many. */
  embed(kind: UnitKind, options: ContextEmbedOptions = {}): Promise<number> {
    const run = (this.queue.get(kind)?.catch(() => undefined) ?? Promise.resolve()).then(() => this.embedMissing(kind, options));
    this.queue.set(kind, run);
    return run;
  }

  private async embedMissing(kind: UnitKind, { onVectors, ...options }: ContextEmbedOptions): Promise<number> {
    const embedder = this.core.embedder;
    if (!embedder || !isContextUnitKind(kind) || this.store.count(kind) === 0) return 0;
    const missing = new Map<string, string>();
    const n = this.core.units.count(kind);
    for (let id = 0; id < n; id++) {
      if (!this.store.has(this.key(kind, id))) continue;
      const text = this.core.unitText(kind, id, true);
      const key = contextVectorKey(embedder.model, text);
      if (!this.vectors.has(key)) missing.set(key, text);
    }
    const todo = [...missing];
    for (let start = 0; start < todo.length; start += EMBED_SLICE) {
      const slice = todo.slice(start, start + EMBED_SLICE);
      const { vectors } = await embedder.embed(
        slice.map(([, text]) => text),
        { ...options, kind: 'passage', ...(options.onProgress ? { onProgress: (done: number) => options.onProgress!(start + done, todo.length) } : {}) },
      );
      const d = embedder.dim;
      const added = slice.map(([key], i): [string, Float32Array] => [key, l2normalize(vectors.slice(i * d, (i + 1) * d))]);
      for (const [key, v] of added) this.vectors.set(key, v);
      this.added++;
      onVectors?.(added);
    }
    return todo.length;
  }

  /** What a cached search result depends on: the contexts, the vectors made, the units and the variant. */
  version(kind: UnitKind): string {
    return `${this.store.version(kind)}:${this.added}:${this.core.units.count(kind)}:${this.core.variantKey(kind)}:${this.core.embedder?.model ?? ''}`;
  }

  private overlay(kind: UnitKind): Overlay | null {
    if (!isContextUnitKind(kind) || this.store.count(kind) === 0) return null;
    const version = this.version(kind);
    const cached = this.overlays.get(kind);
    if (cached?.version === version) return cached;
    const embedder = this.core.embedder;
    const n = this.core.units.count(kind);
    const ids: number[] = [];
    const found: Float32Array[] = [];
    const mask = new Uint8Array(n);
    let written = 0;
    for (let id = 0; id < n; id++) {
      if (!this.store.has(this.key(kind, id))) continue;
      written++;
      const v = embedder && this.vectors.get(this.vectorKey(embedder.model, kind, id));
      if (!v || v.length !== embedder!.dim) continue;
      ids.push(id);
      found.push(v);
      mask[id] = 1;
    }
    const dim = embedder?.dim ?? 0;
    const rows = new Float32Array(ids.length * dim);
    found.forEach((v, r) => rows.set(v, r * dim));
    const o = { version, written, ids, rows, mask };
    this.overlays.set(kind, o);
    return o;
  }

  /**
   * The top `depth` units for a query vector: units with a contextual vector scored by it, the
   * others by their plain vector (the plain index searched with those units left out).
   */
  search(kind: UnitKind, query: Float32Array, depth: number, allow: Allow | undefined, plain: VectorIndex | undefined): Hit[] {
    const o = this.overlay(kind);
    if (!o || !o.ids.length) return plain ? plain.search(query, depth, allow) : [];
    const d = this.core.embedder!.dim;
    const q = l2normalize(Float32Array.from(query));
    const hits: Hit[] = [];
    o.ids.forEach((id, r) => {
      if (!allow || allow(id)) hits.push({ id, score: dot(q, o.rows.subarray(r * d, (r + 1) * d)) });
    });
    if (plain && plain.size > 0) hits.push(...plain.search(query, depth, (id) => o.mask[id] !== 1 && (!allow || allow(id))));
    return hits.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, depth);
  }

  /**
   * Every unit's vector as contextual retrieval uses it, row-major: the contextual vector where
   * there is one, else the plain row given. Null unless `plain` holds every unit.
   */
  rows(kind: UnitKind, plain: Float32Array | undefined, dim: number): Float32Array | null {
    const n = this.core.units.count(kind);
    if (!plain || plain.length !== n * dim) return null;
    const o = this.overlay(kind);
    if (!o || !o.ids.length) return plain;
    const out = Float32Array.from(plain);
    o.ids.forEach((id, r) => out.set(o.rows.subarray(r * dim, (r + 1) * dim), id * dim));
    return out;
  }

  /** Takes a unit's contextual vector made elsewhere (a bundle's), for the text the unit has now. */
  adoptVector(kind: UnitKind, id: number, vector: Float32Array): void {
    const model = this.core.embedder?.model;
    if (model === undefined || vector.length !== this.core.embedder!.dim) return;
    this.vectors.set(this.vectorKey(model, kind, id), l2normalize(Float32Array.from(vector)));
    this.added++;
  }
}
