import { Utf8Writer, writeBase64 } from './bytes';
import { TABLES, type ColumnSpec, type Table } from './format';

export { fromBase64, toBase64 } from './bytes';

/** A cell as JSON: what JSON.stringify writes for the value the row object would hold. */
function writeCell(out: Utf8Writer, spec: ColumnSpec, v: unknown): void {
  if (v === null) return out.ascii('null');
  switch (spec.type) {
    case 'float32vec': {
      const f = v as Float32Array;
      out.byte(0x22);
      writeBase64(out, new Uint8Array(f.buffer, f.byteOffset, f.byteLength));
      return out.byte(0x22);
    }
    case 'json':
      return out.text(JSON.stringify(JSON.parse(v as string)));
    case 'int':
    case 'double': {
      const x = v as number;
      if (Number.isInteger(x)) return out.int(x);
      return out.ascii(Number.isFinite(x) ? String(x) : 'null');
    }
    case 'bool':
      return out.ascii(v ? 'true' : 'false');
    default:
      return out.text(JSON.stringify(v));
  }
}

/**
 * A table as JSON Lines: one object per row, keys in column order; vectors as base64 of
 * their float32 bytes, JSON columns as objects — byte for byte what JSON.stringify of
 * the row object writes. Rows go straight to UTF-8 chunks (bytes.ts): a table of any
 * size never becomes one string.
 */
export function writeJsonl(t: Table): Uint8Array {
  const specs = TABLES[t.name];
  const keys = specs.map((s) => `${JSON.stringify(s.name)}:`);
  const cols = specs.map((s) => t.columns[s.name]!);
  const out = new Utf8Writer();
  for (let i = 0; i < t.rows; i++) {
    out.byte(0x7b); // {
    let first = true;
    for (let j = 0; j < specs.length; j++) {
      const v = cols[j]![i];
      // JSON.stringify leaves out a key whose value is undefined.
      if (v === undefined) continue;
      if (!first) out.byte(0x2c); // ,
      first = false;
      out.ascii(keys[j]!);
      writeCell(out, specs[j]!, v);
    }
    out.ascii('}\n');
  }
  return out.bytes();
}
