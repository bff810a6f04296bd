import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { LoaderError, type DocumentBuilder } from './builder';
import { OfficeWriter } from './office-writer';
import { ZipArchive, childElements, coreProperties, findAll, isElement } from './zip-xml';

export interface OfficeInfo {
  title: string | null;
  author?: string;
  created?: string;
  modified?: string;
}

const NOTE_ID = /^(footnote|endnote)-(\d+)$/;
const NOTE_REF = /^#(footnote|endnote)-(\d+)$/;

/**
 * Word (.docx) through mammoth, which turns the document into clean semantic HTML
 * (headings from the Heading n styles, lists, tables, footnotes and endnotes as a list at
 * the end). That HTML is walked here rather than handed to the HTML loader, because a
 * table must become one sentence per row and each note must move to the end of the
 * section that cites it. The zip is checked (format, bomb limits) before mammoth sees it.
 */
export async function parseDocx(bytes: Uint8Array, fileName: string, b: DocumentBuilder): Promise<OfficeInfo> {
  const zip = new ZipArchive(bytes, fileName, 'a Word document (.docx)');
  if (!zip.has('word/document.xml')) throw new LoaderError('a zip archive, but not a Word document (it has no word/document.xml)', fileName);
  // Every part mammoth may read passes the size limits first.
  zip.checkAll(zip.names);
  const props = coreProperties(zip);
  const mammoth = (await import('mammoth')).default;
  let html: string;
  try {
    const copy = bytes.slice().buffer;
    // Node's build reads `buffer`, the browser build `arrayBuffer`.
    const input = { buffer: copy, arrayBuffer: copy } as unknown as Parameters<typeof mammoth.convertToHtml>[0];
    // Images are not read (mammoth would inline each as a base64 data URI): their text is not the document's.
    const convertImage = mammoth.images.imgElement(async () => ({ src: '' }));
    html = (await mammoth.convertToHtml(input, { ignoreEmptyParagraphs: true, convertImage })).value;
  } catch (e) {
    throw new LoaderError(`corrupt Word document (${(e as Error).message})`, fileName);
  }
  const root = parseDocument(html, { decodeEntities: true });
  const notes = new Map<string, { label: string; text: string }>();
  for (const li of findAll(root, 'li')) {
    const m = NOTE_ID.exec(li.attribs.id ?? '');
    if (m) notes.set(li.attribs.id!, { label: m[2]!, text: inlineText(li, true) });
  }
  const w = new OfficeWriter(b, notes);
  walk(root.children, w);
  w.finish();
  const info: OfficeInfo = { title: props.title };
  if (props.author) info.author = props.author;
  if (props.created) info.created = props.created;
  if (props.modified) info.modified = props.modified;
  return info;
}

function walk(nodes: ChildNode[], w: OfficeWriter): void {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    const h = /^h([1-6])$/.exec(n.name);
    if (h) w.heading(Number(h[1]), inlineText(n));
    else if (n.name === 'table') w.table(tableGrid(n));
    else if (n.name === 'ul' || n.name === 'ol') {
      for (const li of childElements(n, 'li')) {
        if (NOTE_ID.test(li.attribs.id ?? '')) continue; // the notes list: written where cited
        const nested = li.children.filter((c) => isElement(c) && (c.name === 'ul' || c.name === 'ol' || c.name === 'table'));
        w.paragraph(inlineText({ children: li.children.filter((c) => !nested.includes(c)) }), noteRefs(li));
        walk(nested, w);
      }
    } else if (n.name === 'p' || n.name === 'blockquote' || n.name === 'pre') w.paragraph(inlineText(n), noteRefs(n));
    else walk(n.children, w);
  }
}

/** Rows of cells; a merged cell (colspan) repeats its text in every column it covers. */
function tableGrid(table: Element): string[][] {
  return findAll(table, 'tr').map((tr) =>
    childElements(tr).flatMap((cell) => Array.from({ length: Math.max(1, Number(cell.attribs.colspan) || 1) }, () => inlineText(cell))),
  );
}

function noteRefs(el: Element): string[] {
  return findAll(el, 'a')
    .map((a) => NOTE_REF.exec(a.attribs.href ?? ''))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}-${m[2]}`);
}

/** Text of inline content: <br> and block children separate words; a note's back-link (↑) is dropped. */
function inlineText(el: { children: ChildNode[] }, dropBackLinks = false): string {
  let s = '';
  for (const c of el.children) {
    if (c.type === 'text') s += (c as unknown as { data: string }).data;
    else if (isElement(c)) {
      if (c.name === 'br') s += ' ';
      else if (dropBackLinks && c.name === 'a' && /^#(footnote|endnote)-ref-/.test(c.attribs.href ?? '')) continue;
      else if (c.name === 'p' || c.name === 'li' || c.name === 'td' || c.name === 'th') s += ' ' + inlineText(c, dropBackLinks) + ' ';
      else s += inlineText(c, dropBackLinks);
    }
  }
  return s;
}
