import { Parser } from 'htmlparser2';

/** Column index of a cell reference ("AB12" → 27). */
export function columnOf(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/** An Excel serial day (1900 system) as an ISO date (with the time when it has one). */
export function serialDate(v: number): string {
  const iso = new Date(Math.round((v - 25569) * 86400000)).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 16).replace('T', ' ');
}

/**
 * The rows of one worksheet's XML, streamed (a sheet of 100,000 rows is a 20 MB document:
 * a DOM of it is several times slower and larger than reading cells as they pass). Values:
 * shared and inline strings, booleans, errors as shown, formulas by their cached <v>, and
 * numbers in date-formatted cells (`dateStyles[s]`) as ISO dates. Empty rows are skipped.
 */
export function worksheetRows(xml: string, shared: readonly string[], dateStyles: readonly boolean[]): string[][] {
  const rows: string[][] = [];
  let cells: string[] | null = null;
  let cell: { col: number; type: string; style: number } | null = null;
  let text = '';
  let inValue = false; // inside <v>, or <t> of an inline string (not <f>, the formula)
  let inPhonetic = false;
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (name === 'row') cells = [];
        else if (name === 'c' && cells) {
          cell = { col: a.r ? columnOf(a.r) : cells.length, type: a.t ?? 'n', style: Number(a.s ?? 0) };
          text = '';
        } else if (cell && (name === 'v' || (name === 't' && cell.type === 'inlineStr' && !inPhonetic))) inValue = true;
        else if (name === 'rPh') inPhonetic = true;
      },
      ontext(t) {
        if (inValue) text += t;
      },
      onclosetag(name) {
        if (name === 'v' || name === 't') inValue = false;
        else if (name === 'rPh') inPhonetic = false;
        else if (name === 'c' && cell && cells) {
          const v = value(cell.type, text, cell.style, shared, dateStyles);
          if (v && cell.col >= 0 && cell.col < 16384) cells[cell.col] = v;
          cell = null;
        } else if (name === 'row' && cells) {
          if (cells.length) rows.push(Array.from(cells, (x) => x ?? ''));
          cells = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return rows;
}

function value(type: string, raw: string, style: number, shared: readonly string[], dateStyles: readonly boolean[]): string {
  if (type === 's') return shared[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : '';
  if (type === 'n' && raw && dateStyles[style] && Number.isFinite(Number(raw))) return serialDate(Number(raw));
  return raw; // strings (inline, formula results), numbers as saved, errors (#N/A) as shown
}
