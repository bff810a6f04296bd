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
