/**
 * Normalised vector rows stored compactly, for the large indexes where float32 rows would be
 * most of the engine's memory: float16 (2 bytes a dimension, relative error ≤ 2⁻¹¹ per
 * component) or int8 with one float scale per row (1 byte a dimension + 4 per row). Rows are
 * decoded on demand; `dot` scores a query against one row without decoding it.
 */
export type CompactKind = 'float16' | 'int8';

export interface CompactRows {
  readonly kind: CompactKind;
  readonly dim: number;
  readonly size: number;
  /** Room for `rows` rows in all (a bulk add then grows once). */
  reserve(rows: number): void;
  /** Appends one row (already normalised). */
  push(row: Float32Array): void;
  /** Σ q_j · row_j of one stored row. */
  dot(q: Float32Array, id: number): number;
  /** One row decoded (into `out` when given, else a new array). */
  decode(id: number, out?: Float32Array): Float32Array;
  bytes(): number;
}

export function compactRows(kind: CompactKind, dim: number, capacity: number): CompactRows {
  return kind === 'int8' ? new Int8Rows(dim, capacity) : new HalfRows(dim, capacity);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The IEEE 754 binary16 bits of x (round to nearest, ties to even; overflow to ±∞). */
export function toHalf(x: number): number {
  f32[0] = x;
  const b = u32[0]!;
  const sign = (b >>> 16) & 0x8000;
  const exp = (b >>> 23) & 0xff;
  let mant = b & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 112; // rebias 127 → 15
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  // A carry out of the mantissa correctly bumps the exponent (up to ∞).
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

/** The value of binary16 bits h. */
export function fromHalf(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

let halfTable: Float32Array | null = null;
/** All 65,536 binary16 values as float32 (256 KB, made once): decoding is one lookup. */
function halves(): Float32Array {
  if (!halfTable) {
    halfTable = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) halfTable[h] = fromHalf(h);
  }
  return halfTable;
}

class HalfRows implements CompactRows {
  readonly kind = 'float16';
  private data: Uint16Array;
  private count = 0;
  private readonly table = halves();

  constructor(
    readonly dim: number,
    capacity: number,
  ) {
    this.data = new Uint16Array(Math.max(1, capacity) * dim);
  }

  get size(): number {
    return this.count;
  }

  reserve(rows: number): void {
    if (rows * this.dim > this.data.length) this.data = grown(this.data, rows * this.dim);
  }

  push(row: Float32Array): void {
    const d = this.dim;
    if ((this.count + 1) * d > this.data.length) this.data = grown(this.data, Math.ceil(this.data.length * 1.5) + d);
    const o = this.count++ * d;
    for (let j = 0; j < d; j++) this.data[o + j] = toHalf(row[j]!);
  }

  dot(q: Float32Array, id: number): number {
    const { dim: d, data, table } = this;
    const o = id * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += q[j]! * table[data[o + j]!]!;
    return s;
  }

  decode(id: number, out = new Float32Array(this.dim)): Float32Array {
    const o = id * this.dim;
    for (let j = 0; j < this.dim; j++) out[j] = this.table[this.data[o + j]!]!;
    return out;
  }

  bytes(): number {
    return this.data.byteLength;
  }
}

class Int8Rows implements CompactRows {
  readonly kind = 'int8';
  private data: Int8Array;
  private scale: Float32Array;
  private count = 0;

  constructor(
    readonly dim: number,
    capacity: number,
  ) {
    this.data = new Int8Array(Math.max(1, capacity) * dim);
    this.scale = new Float32Array(Math.max(1, capacity));
  }

  get size(): number {
    return this.count;
  }

  reserve(rows: number): void {
    if (rows > this.scale.length) {
      this.data = grown(this.data, rows * this.dim);
      this.scale = grown(this.scale, rows);
    }
  }

  push(row: Float32Array): void {
    const d = this.dim;
    if (this.count + 1 > this.scale.length) {
      const cap = Math.ceil(this.scale.length * 1.5) + 1;
      this.data = grown(this.data, cap * d);
      this.scale = grown(this.scale, cap);
    }
    let max = 0;
    for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(row[j]!));
    const sc = max / 127 || 1;
    const o = this.count * d;
    for (let j = 0; j < d; j++) this.data[o + j] = Math.round(row[j]! / sc);
    this.scale[this.count++] = sc;
  }

  dot(q: Float32Array, id: number): number {
    const { dim: d, data } = this;
    const o = id * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += q[j]! * data[o + j]!;
    return s * this.scale[id]!;
  }

  decode(id: number, out = new Float32Array(this.dim)): Float32Array {
    const o = id * this.dim;
    const sc = this.scale[id]!;
    for (let j = 0; j < this.dim; j++) out[j] = this.data[o + j]! * sc;
    return out;
  }

  bytes(): number {
    return this.data.byteLength + this.scale.byteLength;
  }
}

function grown<T extends Uint16Array | Int8Array | Float32Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  return out;
}
