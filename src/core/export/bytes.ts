/**
 * Large bundle files (SQL, JSONL) are text of hundreds of MB at 100k sentences: more than
 * V8's longest string (~512 M characters). They are written as UTF-8 straight into byte
 * chunks of CHUNK_BYTES, and the file's bytes are the chunks joined: no string is ever
 * longer than one cell.
 */
export const CHUNK_BYTES = 1 << 22;

const encoder = new TextEncoder();

/** Joins byte chunks into one array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * UTF-8 written straight into byte chunks: text, ASCII, integers and raw bytes. The
 * hot cells (vector values, base64, ids) go in as bytes without ever being a string,
 * which at 100k sentences saves tens of millions of short-lived strings.
 */
export class Utf8Writer {
  private readonly parts: Uint8Array[] = [];
  private buf: Uint8Array;
  private pos = 0;

  constructor(private readonly chunkBytes = CHUNK_BYTES) {
    this.buf = new Uint8Array(chunkBytes);
  }

  /** Makes room for n more bytes in the current chunk. */
  room(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) {
      if (this.pos) this.parts.push(this.buf.subarray(0, this.pos));
      this.buf = new Uint8Array(Math.max(this.chunkBytes, n));
      this.pos = 0;
    }
    return this.buf;
  }

  /** Bytes written into the array `room` returned. */
  advance(n: number): void {
    this.pos += n;
  }

  get offset(): number {
    return this.pos;
  }

  byte(b: number): void {
    this.room(1)[this.pos++] = b;
  }

  /** Text known to be ASCII (keywords, numbers as text, base64). */
  ascii(s: string): void {
    const n = s.length;
    const buf = this.room(n);
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any text as UTF-8. */
  text(s: string): void {
    const n = s.length;
    if (n < 64) {
      // Short text: ASCII by hand, the rest by the encoder.
      const buf = this.room(n * 3);
      let p = this.pos;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          this.pos = p;
          this.pos += encoder.encodeInto(s.slice(i), buf.subarray(p)).written;
          return;
        }
        buf[p++] = c;
      }
      this.pos = p;
      return;
    }
    const buf = this.room(n * 3);
    this.pos += encoder.encodeInto(s, buf.subarray(this.pos)).written;
  }

  /** An integer in decimal. */
  int(v: number): void {
    if (!Number.isSafeInteger(v) || v < 0 || v > 0xffffffff) {
      this.ascii(String(v));
      return;
    }
    const buf = this.room(10);
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    let x = v;
    do {
      buf[--p] = 48 + (x % 10);
      x = Math.floor(x / 10);
    } while (x > 0);
  }

  /** The encoded chunks. */
  chunks(): Uint8Array[] {
    if (this.pos) {
      this.parts.push(this.buf.subarray(0, this.pos));
      this.buf = new Uint8Array(0);
      this.pos = 0;
    }
    return this.parts;
  }

  /** Everything written, as one array. */
  bytes(): Uint8Array {
    return concatBytes(this.chunks());
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Two base64 characters per 12 bits. */
const B64_PAIRS = Array.from({ length: 4096 }, (_, i) => B64[i >> 6]! + B64[i & 63]!);

const B64_CODES = Uint8Array.from(B64, (c) => c.charCodeAt(0));

/** Standard base64 of bytes (as btoa), written as ASCII bytes. */
export function writeBase64(out: Utf8Writer, bytes: Uint8Array): void {
  const n = bytes.length;
  const buf = out.room(Math.ceil(n / 3) * 4);
  let p = out.offset;
  const full = n - (n % 3);
  for (let i = 0; i < full; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    buf[p++] = B64_CODES[v >> 18]!;
    buf[p++] = B64_CODES[(v >> 12) & 63]!;
    buf[p++] = B64_CODES[(v >> 6) & 63]!;
    buf[p++] = B64_CODES[v & 63]!;
  }
  if (n - full) {
    const v = (bytes[full]! << 16) | (n - full === 2 ? bytes[full + 1]! << 8 : 0);
    buf[p++] = B64_CODES[v >> 18]!;
    buf[p++] = B64_CODES[(v >> 12) & 63]!;
    buf[p++] = n - full === 2 ? B64_CODES[(v >> 6) & 63]! : 61;
    buf[p++] = 61;
  }
  out.advance(p - out.offset);
}

/** Standard base64 with padding (as btoa) without Node's Buffer: the core runs in pages and workers too. */
export function toBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const full = n - (n % 3);
  const out: string[] = [];
  for (let i = 0; i < full; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out.push(B64_PAIRS[v >> 12]! + B64_PAIRS[v & 4095]!);
  }
  if (n - full === 1) {
    const v = bytes[full]! << 16;
    out.push(B64_PAIRS[v >> 12]! + '==');
  } else if (n - full === 2) {
    const v = (bytes[full]! << 16) | (bytes[full + 1]! << 8);
    out.push(B64_PAIRS[v >> 12]! + B64[(v >> 6) & 63]! + '=');
  }
  return out.join('');
}

export function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
