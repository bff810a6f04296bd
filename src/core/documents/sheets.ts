import Papa from 'papaparse';
import { LoaderError, type DocumentBuilder } from './builder';
import type { OfficeInfo } from './docx';
import { odfMeta, openOdf } from './odf';
import { odsSheets } from './ods-sheet';
import { tableSentences, type Sheet } from './table-rows';
import { worksheetRows } from './xlsx-sheet';
import { ZipArchive, childElements, coreProperties, findAll, findFirst, relationships, textOf } from './zip-xml';

export type { Sheet } from './table-rows';

/**
 * One section per sheet (titled by its name; a lone CSV sheet has none), each row one
 * sentence carrying its column headers, so a row is retrieved whole and reads on its
 * own; empty rows and columns skipped (table-rows.ts). Returns the rows written.
 */
export function writeSheets(sheets: Sheet[], b: DocumentBuilder, sectionPerSheet = true): number {
  let written = 0;
  for (const s of sheets) {
    const t = tableSentences(s.rows);
    if (!t.rows.length && !t.caption) continue;
    if (sectionPerSheet) b.heading(1, s.name);
    if (t.caption) b.block(t.caption);
    for (const row of t.rows) b.block(row);
    written += t.rows.length;
  }
  return written;
}

/** Built-in number formats that are dates (ECMA-376 §18.8.30). */
const DATE_FORMATS = new Set([14, 15, 16, 17, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** For each cell style index, whether it shows a date (built-in date formats, or custom ones with day/month/year codes). */
function dateStyles(zip: ZipArchive): boolean[] {
  const styles = zip.xml('xl/styles.xml');
  if (!styles) return [];
  const custom = new Map<number, boolean>();
  for (const f of findAll(styles, 'numFmt')) {
    const code = (f.attribs.formatCode ?? '').replace(/"[^"]*"|\[[^\]]*\]/g, '');
    custom.set(Number(f.attribs.numFmtId), /[dy]/i.test(code) || /m.*[dy]|[dy].*m/i.test(code));
  }
  const xfs = findFirst(styles, 'cellXfs');
  return (xfs ? childElements(xfs, 'xf') : []).map((xf) => {
    const id = Number(xf.attribs.numFmtId);
    return DATE_FORMATS.has(id) || custom.get(id) === true;
  });
}

/**
 * Excel (.xlsx): sheets in the workbook's order, shared and inline strings, booleans,
 * formulas by their cached values (the <v> Excel saved), dates from date-formatted cells.
 */
export function readXlsx(bytes: Uint8Array, fileName: string): { sheets: Sheet[]; info: OfficeInfo } {
  const zip = new ZipArchive(bytes, fileName, 'an Excel workbook (.xlsx)');
  const wb = zip.requireXml('xl/workbook.xml');
  const rels = relationships(zip, 'xl/workbook.xml');
  const sstXml = zip.xml('xl/sharedStrings.xml');
  // A shared string's text: its own <t> or its runs' <t>, not phonetic guides (rPh).
  const shared = sstXml ? findAll(sstXml, 'si').map((si) => childElements(si).map((c) => (c.name === 't' ? textOf(c) : c.name === 'r' ? childElements(c, 't').map(textOf).join('') : '')).join('')) : [];
  const dates = dateStyles(zip);
  const sheets: Sheet[] = [];
  for (const s of findAll(wb, 'sheet')) {
    const path = rels.get(s.attribs['r:id'] ?? '')?.target;
    const xml = path ? zip.text(path) : null;
    if (xml === null) continue;
    sheets.push({ name: s.attribs.name ?? `Sheet ${sheets.length + 1}`, rows: worksheetRows(xml, shared, dates) });
  }
  const props = coreProperties(zip);
  return { sheets, info: { title: props.title, ...(props.author ? { author: props.author } : {}) } };
}

/** OpenDocument spreadsheet (.ods): each table:table a sheet; cells by their displayed text (formulas' results included). */
export function readOds(bytes: Uint8Array, fileName: string): { sheets: Sheet[]; info: OfficeInfo & { language?: string } } {
  const zip = openOdf(bytes, fileName, 'an OpenDocument spreadsheet (.ods)', 'application/vnd.oasis.opendocument.spreadsheet');
  const content = zip.text('content.xml')!; // openOdf checked it is there
  const sheets = odsSheets(content);
  const { language, ...meta } = odfMeta(zip);
  return { sheets, info: { ...meta, ...(language ? { language } : {}) } };
}

/** CSV or TSV text with papaparse (quoted fields, embedded newlines; CSV's delimiter detected: comma, semicolon, tab, pipe). */
export function readDelimited(text: string, fileName: string, tab: boolean): Sheet {
  const r = Papa.parse<string[]>(text, { delimiter: tab ? '\t' : '', skipEmptyLines: 'greedy' });
  const fatal = r.errors.find((e) => e.type === 'Quotes');
  if (fatal && r.data.length === 0) throw new LoaderError(`not readable as ${tab ? 'TSV' : 'CSV'} (${fatal.message} at row ${fatal.row})`, fileName);
  return { name: fileName, rows: r.data };
}
