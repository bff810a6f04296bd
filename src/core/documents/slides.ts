import type { Element } from 'domhandler';
import { LoaderError, collapseSpaces, type DocumentBuilder } from './builder';
import type { OfficeInfo } from './docx';
import { odfInlineText, odfMeta, odfTableGrid, openOdf, paragraphs } from './odf';
import { tableSentences } from './table-rows';
import { ZipArchive, childElements, coreProperties, findAll, findFirst, relationships, textOf } from './zip-xml';

/** One slide's content, in reading order. */
export interface Slide {
  title: string;
  /** Paragraphs, and tables as grids, in order. */
  body: (string | string[][])[];
  notes: string[];
}

/**
 * Writes slides: one level-1 section per slide titled by its title (or "Slide n"), its
 * text in order, tables one sentence per row, speaker notes marked "Speaker notes:";
 * each slide is a page whose number is the slide's, so a block cites "slide 7".
 */
export function writeSlides(slides: Slide[], b: DocumentBuilder): void {
  slides.forEach((s, i) => {
    const number = i + 1;
    b.beginPage();
    b.heading(1, collapseSpaces(s.title) || `Slide ${number}`);
    for (const part of s.body) {
      if (typeof part === 'string') b.block(part);
      else {
        const t = tableSentences(part);
        if (t.caption) b.block(t.caption);
        for (const row of t.rows) b.block(row);
      }
    }
    const notes = s.notes.map(collapseSpaces).filter((n) => n);
    if (notes.length) b.block(`Speaker notes: ${notes.join(' ')}`);
    b.endPage(number);
  });
}

const TITLE_TYPES = new Set(['title', 'ctrTitle']);

/** A DrawingML text body's paragraphs (a:p), runs joined, line breaks as spaces. */
function drawingParagraphs(el: Element): string[] {
  return findAll(el, 'a:p').map((p) => findAll(p, (n) => n === 'a:t' || n === 'a:br').map((r) => (r.name === 'a:br' ? ' ' : textOf(r))).join(''));
}

function placeholderType(sp: Element): string | null {
  const ph = findFirst(sp, 'p:ph');
  return ph ? (ph.attribs.type ?? 'body') : null;
}

/**
 * PowerPoint (.pptx): slides in the order of presentation.xml's slide list; a slide's
 * shapes in the order of its shape tree (PowerPoint's reading order), its title from the
 * title placeholder; tables (a:tbl) one sentence per row; notes from the notes slide's body.
 */
export function parsePptx(bytes: Uint8Array, fileName: string, b: DocumentBuilder): OfficeInfo {
  const zip = new ZipArchive(bytes, fileName, 'a PowerPoint presentation (.pptx)');
  const pres = zip.requireXml('ppt/presentation.xml');
  const rels = relationships(zip, 'ppt/presentation.xml');
  const slides: Slide[] = [];
  for (const id of findAll(pres, 'p:sldId')) {
    const path = rels.get(id.attribs['r:id'] ?? '')?.target;
    const xml = path ? zip.xml(path) : null;
    if (!path || !xml) continue;
    const slide: Slide = { title: '', body: [], notes: [] };
    const tree = findFirst(xml, 'p:spTree');
    for (const shape of tree ? findAll(tree, (n) => n === 'p:sp' || n === 'p:graphicFrame') : []) {
      if (shape.name === 'p:graphicFrame') {
        const tbl = findFirst(shape, 'a:tbl');
        if (tbl) slide.body.push(childElements(tbl, 'a:tr').map((tr) => childElements(tr, 'a:tc').map((tc) => drawingParagraphs(tc).join(' '))));
        continue;
      }
      const type = placeholderType(shape);
      if (type === 'sldNum' || type === 'dt' || type === 'ftr') continue;
      const paras = drawingParagraphs(shape).filter((p) => p.trim());
      if (type && TITLE_TYPES.has(type) && !slide.title) slide.title = paras.join(' ');
      else slide.body.push(...paras);
    }
    const notesPath = [...relationships(zip, path).values()].find((r) => r.type.endsWith('/notesSlide'))?.target;
    const notesXml = notesPath ? zip.xml(notesPath) : null;
    if (notesXml) for (const sp of findAll(notesXml, 'p:sp')) if (placeholderType(sp) === 'body') slide.notes.push(...drawingParagraphs(sp));
    slides.push(slide);
  }
  if (!slides.length) throw new LoaderError('the presentation has no slides', fileName);
  writeSlides(slides, b);
  const props = coreProperties(zip);
  return { title: props.title ?? slides.find((s) => s.title.trim())?.title ?? null, ...(props.author ? { author: props.author } : {}) };
}

/** OpenDocument presentation (.odp): each draw:page a slide, its title frame's text as title, notes from presentation:notes. */
export function parseOdp(bytes: Uint8Array, fileName: string, b: DocumentBuilder): OfficeInfo & { language?: string } {
  const zip = openOdf(bytes, fileName, 'an OpenDocument presentation (.odp)', 'application/vnd.oasis.opendocument.presentation');
  const content = zip.requireXml('content.xml');
  const slides: Slide[] = [];
  for (const page of findAll(content, 'draw:page')) {
    const slide: Slide = { title: '', body: [], notes: [] };
    for (const el of page.children) {
      if (el.type !== 'tag') continue;
      if (el.name === 'presentation:notes') {
        for (const f of findAll(el, 'draw:frame')) if (f.attribs['presentation:class'] === 'notes') slide.notes.push(...paragraphs(f));
        continue;
      }
      const cls = el.attribs['presentation:class'];
      if (cls === 'page-number' || cls === 'date-time' || cls === 'footer') continue;
      const table = findFirst(el, 'table:table');
      if (table) {
        slide.body.push(odfTableGrid(table));
        continue;
      }
      const paras = findAll(el, (n) => n === 'text:p' || n === 'text:h').map((p) => odfInlineText(p)).filter((p) => p.trim());
      if ((cls === 'title' || cls === 'subtitle-title') && !slide.title) slide.title = paras.join(' ');
      else slide.body.push(...paras);
    }
    slides.push(slide);
  }
  if (!slides.length) throw new LoaderError('the presentation has no slides', fileName);
  writeSlides(slides, b);
  const { language, ...meta } = odfMeta(zip);
  return { ...meta, title: meta.title ?? slides.find((s) => s.title.trim())?.title ?? null, ...(language ? { language } : {}) };
}
