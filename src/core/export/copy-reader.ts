/**
 * Splits a psql script into plain SQL and `COPY … FROM stdin;` blocks (their data ends
 * at a line holding only `\.`), so a database without psql's stdin (PGlite) can load the
 * very file `psql -f` loads: SQL goes to exec, each block's rows to COPY FROM a blob.
 */
export type ScriptPart = { kind: 'sql'; sql: string } | { kind: 'copy'; statement: string; data: string };

const COPY_FROM_STDIN = /^COPY\s+(.+?)\s+FROM\s+stdin\s*;\s*$/i;

export function splitCopyScript(script: string): ScriptPart[] {
  const parts: ScriptPart[] = [];
  const lines = script.split('\n');
  let sql: string[] = [];
  const flush = () => {
    const s = sql.join('\n').trim();
    if (s) parts.push({ kind: 'sql', sql: s });
    sql = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const m = COPY_FROM_STDIN.exec(lines[i]!);
    if (!m) {
      sql.push(lines[i]!);
      continue;
    }
    flush();
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '\\.') end++;
    if (end >= lines.length) throw new Error(`COPY block at line ${i + 1} has no terminating \\. line`);
    const rows = lines.slice(start, end);
    parts.push({ kind: 'copy', statement: `COPY ${m[1]}`, data: rows.length ? rows.join('\n') + '\n' : '' });
    i = end;
  }
  flush();
  return parts;
}

/** A COPY block's rows as UTF-8 bytes (a view into the script). */
export type ScriptBytesPart = { kind: 'sql'; sql: string } | { kind: 'copy'; statement: string; data: Uint8Array };

const NL = 0x0a;
const decoder = new TextDecoder();

/** Whether the line bytes[start, end) is exactly `\.`. */
const isEndOfCopy = (bytes: Uint8Array, start: number, end: number) => end - start === 2 && bytes[start] === 0x5c && bytes[start + 1] === 0x2e;

/**
 * splitCopyScript over the script's UTF-8 bytes: the rows of a COPY block stay bytes
 * (a data.sql of 100k sentences is longer than a JavaScript string can be); only the
 * plain SQL between blocks is decoded.
 */
export function splitCopyBytes(script: Uint8Array): ScriptBytesPart[] {
  const parts: ScriptBytesPart[] = [];
  let sqlStart = 0;
  const flush = (end: number) => {
    const s = decoder.decode(script.subarray(sqlStart, end)).trim();
    if (s) parts.push({ kind: 'sql', sql: s });
  };
  let line = 0;
  let lineNo = 1;
  while (line < script.length) {
    let end = script.indexOf(NL, line);
    if (end < 0) end = script.length;
    // A COPY statement line is short: decode only lines that start with COPY.
    const m = end - line < 4096 && (script[line] === 0x43 || script[line] === 0x63) ? COPY_FROM_STDIN.exec(decoder.decode(script.subarray(line, end))) : null;
    if (!m) {
      line = end + 1;
      lineNo++;
      continue;
    }
    flush(line);
    const dataStart = Math.min(end + 1, script.length);
    let row = dataStart;
    let rowEnd = -1;
    let rows = 0;
    while (row < script.length) {
      rowEnd = script.indexOf(NL, row);
      if (rowEnd < 0) rowEnd = script.length;
      if (isEndOfCopy(script, row, rowEnd)) break;
      row = rowEnd + 1;
      rows++;
    }
    if (row >= script.length) throw new Error(`COPY block at line ${lineNo} has no terminating \\. line`);
    parts.push({ kind: 'copy', statement: `COPY ${m[1]}`, data: script.subarray(dataStart, row) });
    line = rowEnd + 1;
    sqlStart = line;
    lineNo += rows + 2;
  }
  flush(script.length);
  return parts;
}

/** A COPY block's rows in pieces of at most about `maxBytes`, cut after a row. */
export function copyPieces(data: Uint8Array, maxBytes: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  while (start < data.length) {
    if (data.length - start <= maxBytes) {
      out.push(data.subarray(start));
      break;
    }
    // The last row end within the limit; a single longer row goes whole.
    let cut = data.lastIndexOf(NL, start + maxBytes - 1);
    if (cut < start) cut = data.indexOf(NL, start + maxBytes);
    if (cut < 0) cut = data.length - 1;
    out.push(data.subarray(start, cut + 1));
    start = cut + 1;
  }
  return out;
}
