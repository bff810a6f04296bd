/**
 * The storage of BM25 postings: a CSR table of (unit, tf) rows, packed into one Uint32 a
 * posting while it fits, and the growable logs the index appends to before compacting.
 */

/** A term-frequency column of a wide table, as narrow as its frequencies allow. */
type TfColumn = Uint8Array | Uint16Array | Uint32Array;

/** Units a packed row can name (24 bits). */
const PACKED_UNITS = 1 << 24;

/**
 * The rows of a CSR postings table. Packed while every unit id is below 2^24 and every tf
 * below 256 (what sentences, leaves and chunks of a few hundred words give): one Uint32 a
 * posting, unit · 256 + tf — 4 bytes instead of an Int32 unit and a tf column (5–8). Else
 * wide: an Int32 unit and a tf column. A table only widens (compact() keeps the wider layout).
 */
export class PostingTable {
  private constructor(
    readonly packed: Uint32Array | null,
    readonly units: Int32Array | null,
    readonly tfs: TfColumn | null,
  ) {}

  /** Room for n rows of units below `unitLimit` with tfs up to maxTf, no narrower than `like`. */
  static sized(n: number, unitLimit: number, maxTf: number, like?: PostingTable): PostingTable {
    if ((!like || like.packed) && unitLimit <= PACKED_UNITS && maxTf <= 0xff) return new PostingTable(new Uint32Array(n), null, null);
    return new PostingTable(null, new Int32Array(n), tfColumn(maxTf, n, like?.tfs ?? undefined));
  }

  get length(): number {
    return this.packed ? this.packed.length : this.units!.length;
  }

  unit(i: number): number {
    return this.packed ? this.packed[i]! >>> 8 : this.units![i]!;
  }

  tf(i: number): number {
    return this.packed ? this.packed[i]! & 0xff : this.tfs![i]!;
  }

  set(i: number, unit: number, tf: number): void {
    if (this.packed) this.packed[i] = unit * 256 + tf;
    else {
      this.units![i] = unit;
      this.tfs![i] = tf;
    }
  }
}

/** The narrowest column of n rows that holds frequencies up to maxTf and is no narrower than `now` (widening only). */
export function tfColumn(maxTf: number, n: number, now?: TfColumn): TfColumn {
  const bytes = Math.max(now?.BYTES_PER_ELEMENT ?? 1, maxTf > 0xffff ? 4 : maxTf > 0xff ? 2 : 1);
  return bytes === 4 ? new Uint32Array(n) : bytes === 2 ? new Uint16Array(n) : new Uint8Array(n);
}

export function emptyLog(): { term: Int32Array; unit: Int32Array; tf: Uint32Array; n: number } {
  return { term: new Int32Array(1024), unit: new Int32Array(1024), tf: new Uint32Array(1024), n: 0 };
}

export function grow<T extends Int32Array | Uint32Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  return out;
}
