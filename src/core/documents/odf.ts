import type { ChildNode, Element } from 'domhandler';
import { LoaderError } from './builder';
import { ZipArchive, findFirst, isElement, textOf } from './zip-xml';

/** Elements whose text is not the document's: comments, deleted text of tracked changes, tables of contents (they repeat the headings). */
const SKIP = new Set(['office:annotation', 'office:annotation-end', 'text:tracked-changes', 'text:table-of-content', 'text:alphabetical-index', 'text:bibliography', 'text:sequence-decls', 'text:variable-decls', 'text:user-field-decls', 'presentation:notes']);

/**
 * Opens an OpenDocument file: a zip whose `mimetype` entry names the kind. A file
 * encrypted with a password keeps its manifest readable and says so there.
 */
export function openOdf(bytes: Uint8Array, fileName: string, kind: string, mime: string): ZipArchive {
  const zip = new ZipArchive(bytes, fileName, kind);
  const type = zip.text('mimetype')?.trim();
  if (type && !type.startsWith(mime)) throw new LoaderError(`a zip archive, but not ${kind} (its type is ${type})`, fileName);
  const manifest = zip.text('META-INF/manifest.xml');
  if (manifest && /<manifest:encryption-data/.test(manifest)) throw new LoaderError('the file is password-protected; remove the password and save it again', fileName);
  if (!zip.has('content.xml')) throw new LoaderError(`a zip archive, but not ${kind} (it has no content.xml)`, fileName);
  return zip;
}

export interface OdfMeta {
  title: string | null;
  author?: string;
  created?: string;
  modified?: string;
  language?: string;
}

export function odfMeta(zip: ZipArchive): OdfMeta {
  const doc = zip.xml('meta.xml');
  const get = (n: string) => {
    const el = doc ? findFirst(doc, n) : null;
    return el ? textOf(el).trim() || undefined : undefined;
  };
  const meta: OdfMeta = { title: get('dc:title') ?? null };
  const author = get('meta:initial-creator') ?? get('dc:creator');
  if (author) meta.author = author;
  const created = get('meta:creation-date');
  const modified = get('dc:date');
  if (created && !Number.isNaN(Date.parse(created))) meta.created = new Date(created).toISOString();
  if (modified && !Number.isNaN(Date.parse(modified))) meta.modified = new Date(modified).toISOString();
  const lang = get('dc:language');
  if (lang) meta.language = lang.split('-')[0]!.toLowerCase();
  return meta;
}

export interface OdfNote {
  label: string;
  text: string;
}

/**
 * Text of an ODF paragraph: text:s (n spaces), tabs and line breaks become spaces; a
 * footnote or endnote leaves its citation "[n]" in the text and is handed to `onNote`.
 */
export function odfInlineText(el: { children: ChildNode[] }, onNote?: (note: OdfNote) => void): string {
  let s = '';
  for (const c of el.children) {
    if (c.type === 'text') s += (c as unknown as { data: string }).data;
    else if (isElement(c)) {
      if (SKIP.has(c.name)) continue;
      if (c.name === 'text:s') s += ' '.repeat(Math.min(100, Number(c.attribs['text:c']) || 1));
      else if (c.name === 'text:tab' || c.name === 'text:line-break') s += ' ';
      else if (c.name === 'text:note') {
        const citation = findFirst(c, 'text:note-citation');
        const body = findFirst(c, 'text:note-body');
        const label = citation ? textOf(citation).trim() : '';
        s += label ? `[${label}]` : '';
        if (body) onNote?.({ label, text: blockText(body) });
      } else s += odfInlineText(c, onNote);
    }
  }
  return s;
}

/** All paragraphs under an element, each on its own, joined by spaces (a note body, a cell). */
export function blockText(el: Element): string {
  return paragraphs(el).join(' ');
}

/** The text:p / text:h paragraphs under an element, in order, as text. */
export function paragraphs(el: { children: ChildNode[] }, onNote?: (note: OdfNote) => void): string[] {
  const out: string[] = [];
  for (const c of el.children) {
    if (!isElement(c) || SKIP.has(c.name)) continue;
    if (c.name === 'text:p' || c.name === 'text:h') out.push(odfInlineText(c, onNote));
    else out.push(...paragraphs(c, onNote));
  }
  return out;
}

/** Rows of an ODF table (table:table-row anywhere under it, header rows included), each a list of cell texts. Repeats are expanded up to `maxColumns`. */
export function odfTableGrid(table: Element, maxRows = Infinity, maxColumns = 1024): string[][] {
  const rows: string[][] = [];
  const visit = (el: Element) => {
    for (const c of el.children) {
      if (!isElement(c)) continue;
      if (c.name === 'table:table-row') {
        const cells: string[] = [];
        let col = 0; // blank cells only move the column: a row's trailing blanks take nothing
        for (const cell of c.children) {
          if (!isElement(cell) || (cell.name !== 'table:table-cell' && cell.name !== 'table:covered-table-cell')) continue;
          const text = paragraphs(cell).join(' ').trim();
          const repeat = Number(cell.attribs['table:number-columns-repeated']) || 1;
          if (text) for (let i = 0; i < repeat && col + i < maxColumns; i++) cells[col + i] = text;
          col += repeat;
        }
        const filled = Array.from(cells, (x) => x ?? '');
        if (!filled.some((x) => x)) continue;
        const repeat = Math.min(Number(c.attribs['table:number-rows-repeated']) || 1, maxRows - rows.length);
        for (let i = 0; i < repeat; i++) rows.push(filled);
        if (rows.length >= maxRows) return;
      } else if (c.name !== 'table:table') visit(c); // a nested table is its own table
    }
  };
  visit(table);
  return rows;
}
