import { TABLES, type Table } from './format';

/** Base64 of bytes without Node's Buffer (the core runs in pages and workers too). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A table as JSON Lines: one object per row; vectors as base64 of their float32 bytes, JSON columns as objects. */
export function writeJsonl(t: Table): Uint8Array {
  const specs = TABLES[t.name];
  const lines: string[] = [];
  for (let i = 0; i < t.rows; i++) {
    const row: Record<string, unknown> = {};
    for (const s of specs) {
      const v = t.columns[s.name]![i];
      if (s.type === 'float32vec') {
        const f = v as Float32Array;
        row[s.name] = toBase64(new Uint8Array(f.buffer, f.byteOffset, f.byteLength));
      } else if (s.type === 'json') row[s.name] = JSON.parse(v as string);
      else row[s.name] = v;
    }
    lines.push(JSON.stringify(row));
  }
  return new TextEncoder().encode(lines.length ? lines.join('\n') + '\n' : '');
}
