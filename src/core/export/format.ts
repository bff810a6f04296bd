/**
 * The bundle's layout: file names and the columns of every table. The writer (Parquet,
 * JSONL, SQL), the reader (import) and the validator all read these, so a column is
 * named in one place only.
 */

export const BUNDLE_FORMAT = 'rag-lab-bundle';
export const BUNDLE_VERSION = 1;

/** A file of a bundle: its path inside the bundle folder and its bytes. */
export interface BundleFile {
  name: string;
  bytes: Uint8Array;
}

/** One error per fault, worded for the user (import and verify show it as is). */
export class BundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleError';
  }
}

export type ColumnType = 'int' | 'double' | 'string' | 'bool' | 'json' | 'int[]' | 'float32vec';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  nullable?: boolean;
}

export const TABLE_NAMES = [
  'documents',
  'sections',
  'pages',
  'sentences',
  'units',
  'headers',
  'vectors',
  'postings',
  'unit_lengths',
  'bm25_stats',
] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/**
 * Every table and its columns. Ids are 0-based and global per kind: `sentence` is the
 * lab's sentence index, a leaf's `id` its leaf index, a parent's `id` its chunk-tree node
 * id, a chunk's `id` its naive-chunk index. Sentence ranges are [start, end).
 */
export const TABLES: Record<TableName, ColumnSpec[]> = {
  documents: [
    { name: 'doc', type: 'int' },
    { name: 'id', type: 'string' },
    { name: 'title', type: 'string' },
    { name: 'language', type: 'string' },
    { name: 'sent_start', type: 'int' },
    { name: 'sent_end', type: 'int' },
    { name: 'meta', type: 'json' },
    /** tags, warnings and the title/summary written for headers, when present. */
    { name: 'extra', type: 'json' },
    { name: 'text', type: 'string' },
  ],
  sections: [
    { name: 'doc', type: 'int' },
    { name: 'section', type: 'int' },
    { name: 'parent', type: 'int', nullable: true },
    { name: 'level', type: 'int' },
    { name: 'title', type: 'string' },
    { name: 'char_start', type: 'int' },
    { name: 'char_end', type: 'int' },
    /** Section ids from the document's root (0) down to this one. */
    { name: 'ancestors', type: 'int[]' },
  ],
  pages: [
    { name: 'doc', type: 'int' },
    { name: 'page', type: 'int' },
    { name: 'char_start', type: 'int' },
    { name: 'char_end', type: 'int' },
  ],
  sentences: [
    { name: 'sentence', type: 'int' },
    { name: 'doc', type: 'int' },
    { name: 'section', type: 'int' },
    { name: 'section_path', type: 'string' },
    { name: 'page', type: 'int', nullable: true },
    { name: 'char_start', type: 'int' },
    { name: 'char_end', type: 'int' },
    { name: 'tokens', type: 'int' },
    /** Tokens of all sentences before this one: a block's cost is a difference of two. */
    { name: 'tokens_before', type: 'int' },
    /** The run of sentences a section-bounded window stays in (sections at ≤ the section level). */
    { name: 'bound_start', type: 'int' },
    { name: 'bound_end', type: 'int' },
    { name: 'part_index', type: 'int', nullable: true },
    { name: 'part_of', type: 'int', nullable: true },
    /** Passes the exported configuration's metadata filters. */
    { name: 'allowed', type: 'bool' },
    { name: 'text', type: 'string' },
  ],
  units: [
    { name: 'kind', type: 'string' },
    { name: 'id', type: 'int' },
    /** Chunk-tree node id (leaves and parents); null for naive chunks. */
    { name: 'node', type: 'int', nullable: true },
    /** The parent's node id; null at the top level and for naive chunks. */
    { name: 'parent', type: 'int', nullable: true },
    { name: 'level', type: 'int', nullable: true },
    { name: 'children', type: 'int', nullable: true },
    { name: 'doc', type: 'int' },
    { name: 'sent_start', type: 'int' },
    { name: 'sent_end', type: 'int' },
    { name: 'char_start', type: 'int' },
    { name: 'char_end', type: 'int' },
    { name: 'tokens', type: 'int' },
    { name: 'allowed', type: 'bool' },
  ],
  headers: [
    { name: 'doc', type: 'int' },
    /** The deepest section holding a block's first and last sentence (0 when sections are not in headers). */
    { name: 'section', type: 'int' },
    /** Pages of the block's first and last sentence, when headers carry pages. */
    { name: 'page_first', type: 'int', nullable: true },
    { name: 'page_last', type: 'int', nullable: true },
    { name: 'tokens', type: 'int' },
    { name: 'header', type: 'string' },
  ],
  vectors: [
    { name: 'kind', type: 'string' },
    { name: 'unit', type: 'int' },
    { name: 'embedding', type: 'float32vec' },
  ],
  postings: [
    { name: 'kind', type: 'string' },
    { name: 'term', type: 'string' },
    { name: 'unit', type: 'int' },
    { name: 'tf', type: 'int' },
  ],
  unit_lengths: [
    { name: 'kind', type: 'string' },
    { name: 'unit', type: 'int' },
    { name: 'length', type: 'int' },
  ],
  bm25_stats: [
    { name: 'kind', type: 'string' },
    { name: 'units', type: 'int' },
    { name: 'avg_length', type: 'double' },
    { name: 'k1', type: 'double' },
    { name: 'b', type: 'double' },
    { name: 'delta', type: 'double' },
  ],
};

/**
 * A table held column-wise: one array per column, all of the table's row count. Large
 * integer columns may be typed arrays (off the JS heap: at 100k sentences the postings
 * alone are millions of rows); readers only index them.
 */
export type Columns = Record<string, ArrayLike<unknown>>;

export interface Table {
  name: TableName;
  columns: Columns;
  rows: number;
}

export const parquetPath = (t: TableName) => `parquet/${t}.parquet`;
export const jsonlPath = (t: TableName) => `jsonl/${t}.jsonl`;
export const SQL_FILES = ['postgres/schema.sql', 'postgres/data.sql', 'postgres/functions.sql'] as const;
export const MANIFEST = 'manifest.json';
export const GOLDEN = 'golden.json';
