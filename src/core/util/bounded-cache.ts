/**
 * A Map that keeps at most `limit` entries, dropping the least recently used: the engine's
 * per-query caches (query vectors, candidate lists) would otherwise grow with every new
 * question for as long as the tab lives. The Map API the engine uses (get, has, set, delete,
 * clear, size, keys), so it replaces a `new Map` as is.
 */
export class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`a cache needs room for at least one entry, not ${limit}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    this.map.delete(key);
    this.map.set(key, value);
    // Map iterates in insertion order: the first key is the least recently used.
    while (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** Least recently used first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}
