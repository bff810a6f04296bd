import * as voy from 'voy-search/voy_search_bg.js';
import { FlatIndex } from './flat-index';
import type { Allow, Hit, VectorIndex } from './vector-index';

/** voy pads or truncates every vector to this many dimensions, silently. */
export const VOY_MAX_DIM = 768;
/** voy cannot take very large batches in one call; add in slices of this many. */
const ADD_BATCH = 5000;

let wasmSource: (() => Promise<BufferSource>) | null = null;
let ready: Promise<void> | null = null;
let wasmMemory: WebAssembly.Memory | null = null;

/**
 * Where voy's .wasm comes from: the browser passes a fetch of Vite's asset URL, Node a
 * file read. Loading it by hand (instead of voy's bundler entry) keeps one code path
 * for the worker, tests and the CLI.
 */
export function setVoyWasmSource(source: () => Promise<BufferSource>): void {
  wasmSource = source;
  ready = null;
}

async function initVoy(): Promise<void> {
  if (!wasmSource) throw new Error('voy-search: no wasm source configured (call setVoyWasmSource first)');
  const bytes = await wasmSource();
  const { instance } = await WebAssembly.instantiate(bytes, { './voy_search_bg.js': voy as unknown as WebAssembly.ModuleImports });
  voy.__wbg_set_wasm(instance.exports);
  wasmMemory = (instance.exports.memory as WebAssembly.Memory | undefined) ?? null;
}

/**
 * voy-search (a k-d tree in WASM) behind the VectorIndex interface, with guards for its
 * known traps: vectors wider than 768 are refused (voy would truncate them), identical
 * vectors are stored once and expanded on the way out (voy collapses identical items and
 * crashes on 32+ of them — repeated PDF headers do that), adds are sliced, and scores
 * are recomputed as exact cosines (voy returns none). Filters over-fetch, then fall back
 * to an exact scan of the allowed set.
 */
export class VoyIndex implements VectorIndex {
  private readonly exact: FlatIndex;
  private index: voy.Voy | null = null;
  /** For each distinct vector kept in voy: the ids that share it. */
  private readonly groups: number[][] = [];
  private readonly byHash = new Map<string, number>();

  private constructor(readonly dim: number) {
    this.exact = new FlatIndex(dim);
  }

  static async create(dim: number): Promise<VoyIndex> {
    if (dim > VOY_MAX_DIM) throw new Error(`voy-search supports at most ${VOY_MAX_DIM} dimensions; this model has ${dim}. Use the exact index.`);
    ready ??= initVoy();
    await ready;
    return new VoyIndex(dim);
  }

  get size(): number {
    return this.exact.size;
  }

  add(vectors: Float32Array): void {
    if (vectors.length % this.dim !== 0) throw new Error(`vector data of length ${vectors.length} is not a multiple of the index dimension ${this.dim}`);
    const first = this.exact.size;
    this.exact.add(vectors);
    const fresh: voy.EmbeddedResource[] = [];
    for (let id = first; id < this.exact.size; id++) {
      const v = this.exact.vector(id);
      const key = vectorKey(v);
      const g = this.byHash.get(key);
      if (g !== undefined) {
        this.groups[g]!.push(id);
        continue;
      }
      const group = this.groups.length;
      this.groups.push([id]);
      this.byHash.set(key, group);
      // id, title and url all unique: voy collapses items whose three fields are equal.
      fresh.push({ id: String(group), title: String(group), url: String(group), embeddings: Array.from(v) });
    }
    for (let i = 0; i < fresh.length; i += ADD_BATCH) {
      const slice = { embeddings: fresh.slice(i, i + ADD_BATCH) };
      if (!this.index) this.index = new voy.Voy(slice);
      else this.index.add(slice);
    }
  }

  search(query: Float32Array, k: number, allow?: Allow): Hit[] {
    if (query.length !== this.dim) throw new Error(`query has ${query.length} dimensions; the index has ${this.dim}`);
    if (!this.index || k <= 0) return [];
    const distinct = this.groups.length;
    let fetch = Math.min(distinct, allow ? k * 4 : k);
    for (;;) {
      const res = this.index.search(query, fetch);
      const hits: Hit[] = [];
      for (const n of res.neighbors) {
        for (const id of this.groups[Number(n.id)]!) {
          if (!allow || allow(id)) hits.push({ id, score: this.exact.score(query, id) / norm(query) });
        }
      }
      hits.sort((a, b) => b.score - a.score || a.id - b.id);
      if (hits.length >= k || fetch >= distinct) return hits.slice(0, k);
      if (fetch >= 4 * k * 8) return this.exact.search(query, k, allow); // a very selective filter
      fetch = Math.min(distinct, fetch * 4);
    }
  }

  vector(id: number): Float32Array {
    return this.exact.vector(id);
  }

  /** Our exact copy plus voy's whole wasm memory (shared by every VoyIndex; it never shrinks). */
  memoryBytes(): number {
    return this.exact.memoryBytes() + (wasmMemory?.buffer.byteLength ?? 0);
  }
}

function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s) || 1;
}

function vectorKey(v: Float32Array): string {
  const u = new Uint32Array(v.buffer, v.byteOffset, v.length);
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < u.length; i++) {
    h1 = Math.imul(h1 ^ u[i]!, 0x01000193);
    h2 = Math.imul(h2 ^ u[i]!, 0x85ebca6b);
  }
  return `${h1 >>> 0}:${h2 >>> 0}:${v.length}`;
}
