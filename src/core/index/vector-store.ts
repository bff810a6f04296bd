import { flattenRows, type VectorIndex } from './vector-index';

/** One set of vectors, as saved and restored: its variant key, dimension and rows (row-major). */
export interface VectorSet {
  key: string;
  dim: number;
  data: Float32Array;
}

/**
 * Every vector set an engine has computed, one vector index per variant key (unit kind ×
 * header variant × model). Sets are appended to while embedding, copied out as plain rows
 * for saving, and rebuilt from rows when restored or carried into another engine.
 */
export class VectorStore {
  private readonly sets = new Map<string, VectorIndex>();

  constructor(private readonly makeIndex: (dim: number) => VectorIndex | Promise<VectorIndex>) {}

  get(key: string): VectorIndex | undefined {
    return this.sets.get(key);
  }

  /** Vectors held for a key (0 when none). */
  size(key: string): number {
    return this.sets.get(key)?.size ?? 0;
  }

  keys(): string[] {
    return [...this.sets.keys()];
  }

  /** The index of a key, created empty when there is none yet. */
  async ensure(key: string, dim: number): Promise<VectorIndex> {
    let idx = this.sets.get(key);
    if (!idx) this.sets.set(key, (idx = await this.makeIndex(dim)));
    return idx;
  }

  /** Replaces a key's vectors by these rows. */
  async put(set: VectorSet): Promise<void> {
    const idx = await this.makeIndex(set.dim);
    await idx.add(set.data);
    this.sets.set(set.key, idx);
  }

  /** Copies of the sets (all, or the keys given), each as rows; with `ranges`, only those id ranges of each key. */
  snapshot(keys: Iterable<string> = this.sets.keys(), ranges?: (key: string, idx: VectorIndex) => [number, number][]): VectorSet[] {
    const out: VectorSet[] = [];
    for (const key of keys) {
      const idx = this.sets.get(key);
      if (idx) out.push({ key, dim: idx.dim, data: flattenRows(idx, ranges?.(key, idx)) });
    }
    return out;
  }
}
