import { Utf8Writer } from './bytes';
import { writeFloat32 } from './float-text';
import { TABLES, type ColumnSpec, type Table, type TableName } from './format';
import type { Manifest } from './manifest';
import { BLOCKS_SQL } from './sql-blocks';
import { RANKING_SQL } from './sql-ranking';

/**
 * PostgreSQL + pgvector: the schema, the data as COPY blocks that `psql -f` loads as
 * they are (PGlite loads them through copy-reader.ts), and SQL functions that reproduce
 * the lab's retrieval from these tables alone. Everything lives in the schema `raglab`.
 */

const SQL_TYPES: Record<ColumnSpec['type'], string> = {
  int: 'integer',
  double: 'double precision',
  string: 'text',
  bool: 'boolean',
  json: 'jsonb',
  'int[]': 'integer[]',
  float32vec: 'vector',
};

const KEYS: Partial<Record<TableName, string>> = {
  documents: 'doc',
  sections: 'doc, section',
  pages: 'doc, page',
  sentences: 'sentence',
  units: 'kind, id',
  vectors: 'kind, unit',
  postings: 'kind, term, unit',
  unit_lengths: 'kind, unit',
  bm25_stats: 'kind',
};

export function schemaSql(dims: number | null): string {
  const lines = [
    '-- RAG Context Lab bundle: tables. Load with: psql -v ON_ERROR_STOP=1 -f schema.sql -f data.sql -f functions.sql',
    '-- Needs PostgreSQL 13+ and pgvector 0.5+ (a single server, a managed service, or Citus).',
    'CREATE EXTENSION IF NOT EXISTS vector;',
    'CREATE SCHEMA IF NOT EXISTS raglab;',
    "CREATE TABLE raglab.config (key text PRIMARY KEY, value jsonb NOT NULL);",
  ];
  for (const [name, specs] of Object.entries(TABLES) as [TableName, ColumnSpec[]][]) {
    const cols = specs.map((s) => {
      const type = s.type === 'float32vec' ? (dims ? `vector(${dims})` : 'vector') : SQL_TYPES[s.type];
      return `  ${quoteIdent(s.name)} ${type}${s.nullable ? '' : ' NOT NULL'}`;
    });
    const key = KEYS[name];
    lines.push(`CREATE TABLE raglab.${name} (\n${cols.join(',\n')}${key ? `,\n  PRIMARY KEY (${key})` : ''}\n);`);
  }
  lines.push('CREATE INDEX ON raglab.headers (doc, section);');
  lines.push('CREATE INDEX ON raglab.units (node);');
  return lines.join('\n') + '\n';
}

function quoteIdent(s: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(s) && !['text', 'section', 'level', 'id'].includes(s) ? s : `"${s}"`;
}

/** COPY text format: backslash escapes for the four characters that would break a row. */
function copyText(s: string): string {
  return s.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

/** COPY text of a cell, written as bytes. */
function writeCopyValue(out: Utf8Writer, spec: ColumnSpec, v: unknown): void {
  if (v === null || v === undefined) return out.ascii('\\N');
  switch (spec.type) {
    case 'bool':
      return out.byte(v ? 0x74 : 0x66); // t, f
    case 'int[]':
      return out.ascii(`{${(v as number[]).join(',')}}`);
    case 'float32vec': {
      // The shortest text that pgvector's strtof reads back to the same float32.
      const f = v as Float32Array;
      out.byte(0x5b); // [
      for (let i = 0; i < f.length; i++) {
        if (i) out.byte(0x2c); // ,
        writeFloat32(out, f[i]!);
      }
      return out.byte(0x5d); // ]
    }
    case 'int':
    case 'double':
      // String(x) is the shortest text that reads back to the same double.
      return Number.isInteger(v) ? out.int(v as number) : out.ascii(String(v));
    default:
      return out.text(copyText(String(v)));
  }
}

/**
 * The data: config rows, then one COPY … FROM stdin block per table, each ending in \.
 * Written row by row as bytes (bytes.ts): at 100k sentences it is far longer than a string can be.
 */
export function dataSql(tables: Table[], manifest: Omit<Manifest, 'files'>): Uint8Array {
  const out = new Utf8Writer();
  out.ascii('-- RAG Context Lab bundle: data (COPY blocks; psql -f loads them as they are)\n');
  const config: [string, unknown][] = [
    ['strategy', manifest.strategy],
    ['params', manifest.params],
    ['structure', manifest.structure],
    ['embedding', manifest.embedding],
    ['lab', manifest.lab],
  ];
  out.ascii('COPY raglab.config (key, value) FROM stdin;\n');
  for (const [k, v] of config) out.text(`${k}\t${copyText(JSON.stringify(v))}\n`);
  out.ascii('\\.\n');
  for (const t of tables) {
    const specs = TABLES[t.name];
    out.ascii(`COPY raglab.${t.name} (${specs.map((s) => quoteIdent(s.name)).join(', ')}) FROM stdin;\n`);
    const cols = specs.map((s) => t.columns[s.name]!);
    for (let i = 0; i < t.rows; i++) {
      for (let j = 0; j < specs.length; j++) {
        if (j) out.byte(0x09); // tab
        writeCopyValue(out, specs[j]!, cols[j]![i]);
      }
      out.byte(0x0a);
    }
    out.ascii('\\.\n');
  }
  out.ascii('ANALYZE;\n');
  return out.bytes();
}

/**
 * The lab's retrieval in SQL, from the tables alone. Each function mirrors one step of
 * the lab (src/core/retrieve, src/core/index) including its float steps and tie order,
 * so ranked ids, block ranges and scores agree (the golden run checks it).
 */
export const FUNCTIONS_SQL = RANKING_SQL + BLOCKS_SQL;

export function functionsSql(): string {
  return FUNCTIONS_SQL;
}
