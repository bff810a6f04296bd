import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { BundleError, TABLES, type ColumnSpec, type Columns, type Table, type TableName } from './format';

/**
 * Tables as Parquet with hyparquet-writer (one file per table, snappy) and back with
 * hyparquet. Vectors are FIXED_LEN_BYTE_ARRAY cells of dims×4 little-endian float32
 * bytes; int arrays and JSON are UTF-8 text (JSON).
 */

type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

function schemaOf(spec: ColumnSpec, vectorBytes: number): SchemaElement {
  const repetition_type = spec.nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (spec.type) {
    case 'int':
      return { name: spec.name, type: 'INT32', repetition_type };
    case 'double':
      return { name: spec.name, type: 'DOUBLE', repetition_type };
    case 'bool':
      return { name: spec.name, type: 'BOOLEAN', repetition_type };
    case 'float32vec':
      return { name: spec.name, type: 'FIXED_LEN_BYTE_ARRAY', type_length: vectorBytes, repetition_type };
    default:
      return { name: spec.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type };
  }
}

function cell(spec: ColumnSpec, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (spec.type === 'int[]') return JSON.stringify(v);
  if (spec.type === 'float32vec') {
    const f = v as Float32Array;
    return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
  }
  return v;
}

export function writeParquet(t: Table): Uint8Array {
  const specs = TABLES[t.name];
  const vec = specs.find((s) => s.type === 'float32vec');
  const first = vec ? (t.columns[vec.name]?.[0] as Float32Array | undefined) : undefined;
  const vectorBytes = Math.max(4, (first?.length ?? 1) * 4);
  const buf = parquetWriteBuffer({
    columnData: specs.map((s) => ({ name: s.name, data: (t.columns[s.name] ?? []).map((v) => cell(s, v)) })),
    schema: [{ name: 'root', num_children: specs.length }, ...specs.map((s) => schemaOf(s, vectorBytes))],
    createdBy: 'rag-context-lab (hyparquet-writer)',
  });
  return new Uint8Array(buf);
}

/**
 * Reads a table, checking that every column the lab needs is there. Throws a BundleError
 * naming the file and the fault (truncated or corrupt file, missing column).
 */
export async function readParquet(name: TableName, path: string, bytes: Uint8Array, expectedBytes?: number): Promise<Table> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let present: Set<string>;
  try {
    present = new Set(parquetMetadata(file).schema.map((s) => s.name));
  } catch (e) {
    if (expectedBytes !== undefined && bytes.length < expectedBytes) throw new BundleError(`${path} is truncated (${bytes.length} of ${expectedBytes} bytes)`);
    throw new BundleError(`${path} is corrupt: not a readable Parquet file (${(e as Error).message})`);
  }
  const specs = TABLES[name];
  for (const s of specs) if (!present.has(s.name)) throw new BundleError(`${path} has no column "${s.name}" (a ${name} table needs ${specs.map((x) => x.name).join(', ')})`);
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({ file, columns: specs.map((s) => s.name) });
  } catch (e) {
    throw new BundleError(`${path} is corrupt: ${(e as Error).message}`);
  }
  const columns: Columns = Object.fromEntries(specs.map((s) => [s.name, new Array(rows.length)]));
  for (const s of specs) {
    const col = columns[s.name]!;
    rows.forEach((r, i) => {
      const v = r[s.name];
      if (v === null || v === undefined) col[i] = null;
      else if (s.type === 'int[]') col[i] = JSON.parse(v as string);
      else if (s.type === 'float32vec') {
        const b = v as Uint8Array;
        col[i] = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
      } else if (s.type === 'int') col[i] = Number(v);
      else col[i] = v;
    });
  }
  return { name, columns, rows: rows.length };
}
