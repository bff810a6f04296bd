import { parquetMetadata, parquetRead } from 'hyparquet';
import { ByteWriter, parquetWrite } from 'hyparquet-writer';
import { BundleError, TABLES, type ColumnSpec, type Table, type TableName } from './format';

/**
 * Tables as Parquet with hyparquet-writer (one file per table, snappy) and back with
 * hyparquet. Vectors are FIXED_LEN_BYTE_ARRAY cells of dims×4 little-endian float32
 * bytes, PLAIN and uncompressed: float bits do not compress (snappy saved < 0.1 % and
 * made reading 5× slower), and min/max statistics of vectors mean nothing. Int arrays
 * and JSON are UTF-8 text (JSON).
 */

type SchemaElement = NonNullable<Parameters<typeof parquetWrite>[0]['schema']>[number];

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
  // The writer's buffer doubles (copying) as it fills: a vector table starts at about its size.
  const writer = new ByteWriter(vec ? Math.ceil(t.rows * vectorBytes * 1.01) + (1 << 20) : 1 << 16);
  parquetWrite({
    writer,
    columnData: specs.map((s) => ({
      name: s.name,
      // Only int arrays and vectors change form; other columns go as they are (no copy).
      data: (s.type === 'int[]' || s.type === 'float32vec' ? Array.from(t.columns[s.name] ?? [], (v) => cell(s, v)) : (t.columns[s.name] ?? [])) as unknown[],
      ...(s.type === 'float32vec' ? { encoding: 'PLAIN' as const, codec: 'UNCOMPRESSED' as const, statistics: false } : {}),
    })),
    schema: [{ name: 'root', num_children: specs.length }, ...specs.map((s) => schemaOf(s, vectorBytes))],
    createdBy: 'rag-context-lab (hyparquet-writer)',
  });
  const bytes = writer.getBytes();
  // A view when it fills most of the buffer, else a copy of its own size.
  return bytes.length >= 0.9 * bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** A bundle table's Parquet file opened: its metadata read and every column the lab needs present, nothing decoded yet. */
export interface OpenedParquet {
  file: ArrayBuffer;
  metadata: ReturnType<typeof parquetMetadata>;
  specs: readonly ColumnSpec[];
  rows: number;
}

/** Opens a table's file; no Parquet, a truncated file or a missing column is a BundleError naming the file. */
export function openParquet(name: TableName, path: string, bytes: Uint8Array, expectedBytes?: number): OpenedParquet {
  // The whole buffer when it is one (no copy of a 100 MB vector table), else the view's bytes.
  const file = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  let metadata: ReturnType<typeof parquetMetadata>;
  try {
    metadata = parquetMetadata(file);
  } catch (e) {
    if (expectedBytes !== undefined && bytes.length < expectedBytes) throw new BundleError(`${path} is truncated (${bytes.length} of ${expectedBytes} bytes)`);
    throw new BundleError(`${path} is corrupt: not a readable Parquet file (${(e as Error).message})`);
  }
  const present = new Set(metadata.schema.map((s) => s.name));
  const specs = TABLES[name];
  for (const s of specs) if (!present.has(s.name)) throw new BundleError(`${path} has no column "${s.name}" (a ${name} table needs ${specs.map((x) => x.name).join(', ')})`);
  const rows = Number(metadata.num_rows);
  checkDeclaredRows(path, rows, metadata.row_groups.map((g) => Number(g.num_rows)), bytes.length);
  return { file, metadata, specs, rows };
}

/**
 * The most rows a bundle table can hold per byte of its file. Every table has a column whose
 * values change from row to row (ids, offsets), which no encoding stores in less than a bit;
 * 8 rows a byte is far above any real table, and refuses a footer that declares 2^40 rows, or
 * 30 million in a 1.5 KB file, before arrays of that length are made (they exhausted the heap).
 */
export const MAX_ROWS_PER_BYTE = 8;

/** Refuses a row count the file's bytes cannot hold, or row groups that do not add up to it. */
export function checkDeclaredRows(path: string, rows: number, groupRows: number[], bytes: number): void {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new BundleError(`${path} is corrupt: its footer declares ${rows} rows`);
  if (rows > bytes * MAX_ROWS_PER_BYTE) throw new BundleError(`${path} is corrupt: its footer declares ${rows} rows, more than its ${bytes} bytes can hold`);
  const sum = groupRows.reduce((a, b) => a + b, 0);
  if (sum !== rows) throw new BundleError(`${path} is corrupt: its row groups hold ${sum} rows, its footer declares ${rows}`);
}

/**
 * Reads a table, checking that every column the lab needs is there. Throws a BundleError
 * naming the file and the fault (truncated or corrupt file, missing column).
 */
export async function readParquet(name: TableName, path: string, bytes: Uint8Array, expectedBytes?: number): Promise<Table> {
  const { file, metadata, specs, rows } = openParquet(name, path, bytes, expectedBytes);
  const columns: Record<string, unknown[]> = Object.fromEntries(specs.map((s) => [s.name, new Array(rows).fill(null)]));
  const specOf = new Map(specs.map((s) => [s.name, s]));
  try {
    // Column by column (no row objects): a chunk is one column of one row group.
    await parquetRead({
      file,
      metadata,
      columns: specs.map((s) => s.name),
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        const spec = specOf.get(columnName);
        const col = columns[columnName];
        if (!spec || !col) return;
        for (let i = 0; i < rowEnd - rowStart; i++) col[rowStart + i] = value(spec, columnData[i]);
      },
    });
  } catch (e) {
    throw new BundleError(`${path} is corrupt: ${(e as Error).message}`);
  }
  return { name, columns, rows };
}

/** A cell as the tables hold it. */
function value(spec: ColumnSpec, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (spec.type) {
    case 'int[]':
      return JSON.parse(v as string);
    case 'float32vec': {
      const b = v as Uint8Array;
      return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
    }
    case 'int':
      return Number(v);
    default:
      return v;
  }
}
