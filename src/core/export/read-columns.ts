import { parquetRead, type parquetMetadata } from 'hyparquet';
import { BundleError, type ColumnSpec, type TableName } from './format';
import { openParquet } from './parquet';

/**
 * Some columns of a bundle table, read for an import: required integers as Int32Array,
 * vectors as one Float32Array of rows × dims, the rest as plain arrays (nulls as null).
 * Unlike readParquet (which builds every cell of every column, a Float32Array per vector),
 * only what the import uses is decoded, straight into its final arrays: at 100k sentences
 * that is millions of postings and 140k vectors. Faults are readParquet's messages.
 */
export interface ColumnTable {
  rows: number;
  ints: Record<string, Int32Array>;
  values: Record<string, unknown[]>;
  /** The float32vec column, rows × dims (dims from the first vector; 0 when there are no rows). */
  vectors: { data: Float32Array; dims: number; badRow: number; badLength: number } | null;
}

/** A Parquet table opened for reading: its metadata read and every column the lab needs found, nothing decoded yet. */
export interface OpenTable {
  rows: number;
  read(columns: readonly string[]): Promise<ColumnTable>;
}

export async function readColumns(name: TableName, path: string, bytes: Uint8Array, columns: readonly string[], expectedBytes?: number): Promise<ColumnTable> {
  return openTable(name, path, bytes, expectedBytes).read(columns);
}

/** Opens a table: a file that is no Parquet, or lacks a column of the table, is a BundleError here. */
export function openTable(name: TableName, path: string, bytes: Uint8Array, expectedBytes?: number): OpenTable {
  const { file, metadata, specs, rows } = openParquet(name, path, bytes, expectedBytes);
  const specOf = new Map<string, ColumnSpec>(specs.map((s) => [s.name, s]));
  return { rows, read: (columns) => decode(name, path, file, metadata, specOf, rows, columns) };
}

async function decode(name: TableName, path: string, file: ArrayBuffer, metadata: ReturnType<typeof parquetMetadata>, specOf: Map<string, ColumnSpec>, rows: number, columns: readonly string[]): Promise<ColumnTable> {
  const out: ColumnTable = { rows, ints: {}, values: {}, vectors: null };
  const vecSpec = columns.map((c) => specOf.get(c)).find((s) => s?.type === 'float32vec');
  const vecSchema = vecSpec ? metadata.schema.find((s) => s.name === vecSpec.name) : undefined;
  const vecBytes = Number(vecSchema?.type_length ?? 0);
  const dims = Math.floor(vecBytes / 4);
  let vecView: Uint8Array | null = null;
  for (const c of columns) {
    const s = specOf.get(c);
    if (!s) throw new Error(`${name} has no column ${c}`);
    if (s.type === 'float32vec') {
      const data = new Float32Array(rows * dims);
      out.vectors = { data, dims, badRow: -1, badLength: 0 };
      vecView = new Uint8Array(data.buffer);
    } else if (s.type === 'int' && !s.nullable) out.ints[c] = new Int32Array(rows);
    else out.values[c] = new Array(rows);
  }
  try {
    await parquetRead({
      file,
      metadata,
      columns: [...columns],
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        const n = rowEnd - rowStart;
        const ints = out.ints[columnName];
        if (ints) {
          for (let i = 0; i < n; i++) ints[rowStart + i] = Number(columnData[i]);
          return;
        }
        if (out.vectors && columnName === vecSpec?.name) {
          const v = out.vectors;
          for (let i = 0; i < n; i++) {
            const cell = columnData[i] as Uint8Array | null | undefined;
            if (!cell || cell.length !== dims * 4) {
              if (v.badRow < 0) {
                v.badRow = rowStart + i;
                v.badLength = cell ? cell.length / 4 : 0;
              }
              continue;
            }
            vecView!.set(cell, (rowStart + i) * dims * 4);
          }
          return;
        }
        const col = out.values[columnName];
        const spec = specOf.get(columnName);
        if (!col || !spec) return;
        for (let i = 0; i < n; i++) {
          const x = columnData[i];
          col[rowStart + i] = x === null || x === undefined ? null : spec.type === 'int' ? Number(x) : spec.type === 'int[]' ? JSON.parse(x as string) : x;
        }
      },
    });
  } catch (e) {
    throw new BundleError(`${path} is corrupt: ${(e as Error).message}`);
  }
  return out;
}
