import { visible } from './terminal';

/** Renders rows as an aligned plain-text table (numbers right-aligned; control characters in text shown as escapes). */
export function renderTable(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? formatNumber(c) : visible(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const numeric = headers.map((_, i) => rows.every((r) => typeof r[i] === 'number'));
  const line = (r: string[]) => r.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(1) : n.toFixed(3);
}
