import { Parser } from 'htmlparser2';
import type { Sheet } from './table-rows';

/** Elements inside a cell whose text is not the cell's value (comments). */
const SKIP = new Set(['office:annotation']);

/**
 * The sheets of an OpenDocument spreadsheet's content.xml, streamed (a DOM of a large sheet
 * is several times slower and larger than reading cells as they pass). A cell's value is its
 * displayed text (text:p; formulas' results included); repeated cells and rows are expanded
 * only when they hold text (a sheet's trailing 16,000 blank columns and million blank rows
 * take nothing), up to `maxColumns`; empty rows are skipped.
 */
export function odsSheets(xml: string, maxColumns = 1024): Sheet[] {
  const sheets: Sheet[] = [];
  let sheet: Sheet | null = null;
  let depth = 0; // nested tables (inside a cell's frame) are read as the cell's text
  let row: string[] | null = null;
  let col = 0; // the next cell's column: blank cells only move it, so trailing blanks take nothing
  let rowRepeat = 1;
  let cell: { repeat: number; paras: string[] } | null = null;
  let para: string | null = null;
  let skip = 0;
  const parser = new Parser(
    {
      onopentag(name, a) {
        if (skip || SKIP.has(name)) {
          skip++;
          return;
        }
        if (name === 'table:table') {
          if (depth++ === 0) sheet = { name: a['table:name'] ?? `Sheet ${sheets.length + 1}`, rows: [] };
        } else if (depth !== 1) {
          if (para !== null && name === 'text:s') para += ' '.repeat(Math.min(100, Number(a['text:c']) || 1));
        } else if (name === 'table:table-row') {
          row = [];
          col = 0;
          rowRepeat = Number(a['table:number-rows-repeated']) || 1;
        } else if (row && (name === 'table:table-cell' || name === 'table:covered-table-cell')) {
          cell = { repeat: Number(a['table:number-columns-repeated']) || 1, paras: [] };
        } else if (cell && (name === 'text:p' || name === 'text:h')) para = '';
        else if (para !== null && name === 'text:s') para += ' '.repeat(Math.min(100, Number(a['text:c']) || 1));
        else if (para !== null && (name === 'text:tab' || name === 'text:line-break')) para += ' ';
      },
      ontext(t) {
        if (!skip && para !== null) para += t;
      },
      onclosetag(name) {
        if (skip) {
          skip--;
          return;
        }
        if (name === 'table:table') {
          if (--depth === 0 && sheet) sheets.push(sheet);
        } else if ((name === 'text:p' || name === 'text:h') && cell && para !== null && depth === 1) {
          cell.paras.push(para);
          para = null;
        } else if (depth !== 1) return;
        else if ((name === 'table:table-cell' || name === 'table:covered-table-cell') && row && cell) {
          const text = cell.paras.join(' ').trim();
          if (text) for (let i = 0; i < cell.repeat && col + i < maxColumns; i++) row[col + i] = text;
          col += cell.repeat;
          cell = null;
        } else if (name === 'table:table-row' && row && sheet) {
          const filled = Array.from(row, (x) => x ?? '');
          if (filled.some((x) => x)) for (let i = 0; i < Math.min(rowRepeat, 100_000); i++) sheet.rows.push(filled);
          row = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return sheets;
}
