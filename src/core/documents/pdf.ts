import type { OcrSpan } from '../types';
import { DocumentBuilder, LoaderError, collapseSpaces } from './builder';
import { ocrAvailable, type OcrOptions, type OcrPage } from './ocr';
import { ocrPdfPages, pdfCanvasFactory } from './ocr-pdf';
import { dehyphenate } from './text';

/** The slice of pdf.js this loader uses (so Node, the worker and tests share it). */
export type PdfJs = typeof import('pdfjs-dist');

let pdfjsLoader: () => Promise<PdfJs> = async () => (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;

/**
 * Lets an environment supply its own pdf.js build (the web worker passes the modern
 * build, configured with its worker source and font data URL).
 */
export function setPdfJsLoader(loader: () => Promise<PdfJs>): void {
  pdfjsLoader = loader;
}

export interface PdfOptions extends OcrOptions {
  /** Absolute URL of pdf.js's standard font data (browser); not needed for text. */
  standardFontDataUrl?: string;
  /** OCR pages without a text layer (default true). */
  ocr?: boolean;
}

interface Line {
  text: string;
  size: number;
  y: number;
  x: number;
  page: number;
}

interface TextItemLike {
  str: string;
  transform: number[];
  height: number;
  width: number;
  hasEOL?: boolean;
}

/** Groups a page's text items into lines, in the content stream's order. */
function pageLines(items: TextItemLike[], page: number): Line[] {
  const lines: Line[] = [];
  let cur: Line | null = null;
  let lastEnd = 0;
  let breakNext = false;
  for (const it of items) {
    const size = Math.abs(it.height) || Math.hypot(it.transform[2]!, it.transform[3]!);
    const x = it.transform[4]!;
    const y = it.transform[5]!;
    if (!it.str) {
      if (it.hasEOL) breakNext = true;
      continue;
    }
    const sameLine = cur && !breakNext && Math.abs(y - cur.y) <= Math.max(cur.size, size) * 0.5;
    if (cur && sameLine) {
      const gap = x - lastEnd;
      const needsSpace = gap > size * 0.15 && !cur.text.endsWith(' ') && !it.str.startsWith(' ');
      cur.text += (needsSpace ? ' ' : '') + it.str;
      cur.size = Math.max(cur.size, it.str.trim() ? size : 0);
    } else {
      if (cur) lines.push(cur);
      cur = { text: it.str, size: it.str.trim() ? size : 0, y, x, page };
    }
    lastEnd = x + it.width;
    breakNext = Boolean(it.hasEOL);
  }
  if (cur) lines.push(cur);
  return lines
    .map((l) => ({ ...l, text: collapseSpaces(l.text) }))
    .filter((l) => l.text.length > 0);
}

/** The commonest text size, weighted by characters: the body text. */
function bodySize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    const s = Math.round(l.size * 2) / 2;
    weight.set(s, (weight.get(s) ?? 0) + l.text.length);
  }
  let best = 0;
  let bestW = -1;
  for (const [s, w] of weight) if (w > bestW) [best, bestW] = [s, w];
  return best;
}

/** Running headers and footers (same text, digits aside, on many pages) are dropped. */
function repeatedMargins(pages: Line[][]): Set<string> {
  const key = (l: Line) => l.text.replace(/\d+/g, '#').toLowerCase();
  const counts = new Map<string, number>();
  for (const lines of pages) {
    const edge = new Set([...lines.slice(0, 2), ...lines.slice(-2)].map(key));
    for (const k of edge) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const min = Math.max(3, Math.ceil(pages.length * 0.5));
  return new Set([...counts].filter(([, n]) => n >= min).map(([k]) => k));
}

function pdfDate(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(raw);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00'] = m;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

/** Titles that tools write by default and that say nothing about the document. */
function meaningfulTitle(t: unknown): string | null {
  if (typeof t !== 'string') return null;
  const s = collapseSpaces(t);
  if (s.length < 3 || /^(untitled|microsoft word|document\d*|title|slide \d+)/i.test(s) || /\.(docx?|pdf|tex|indd)$/i.test(s)) return null;
  return s;
}

export interface PdfResult {
  title: string | null;
  author?: string;
  created?: string;
  modified?: string;
  pageCount: number;
  /** Pages read by OCR: number → the page's paragraphs and confidence. */
  ocr?: Map<number, OcrPage>;
  /** The paragraphs OCR read, as text ranges with their confidence. */
  ocrSpans?: OcrSpan[];
}

/**
 * PDF with pdf.js: text per page (lines grouped by position, soft wraps joined and
 * de-hyphenated), running headers/footers dropped, headings inferred from text heights
 * (lines clearly larger than the body text, levels by size), page ranges kept so every
 * sentence knows its page. Title: the PDF's metadata, else the largest text on page 1.
 */
export async function parsePdf(bytes: Uint8Array, fileName: string, b: DocumentBuilder, options: PdfOptions = {}): Promise<PdfResult> {
  const pdfjs = await pdfjsLoader();
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(bytes), // a plain copy: pdf.js detaches what it is given and refuses Buffers
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      stopAtErrors: false,
      verbosity: 0,
      ...(options.standardFontDataUrl ? { standardFontDataUrl: options.standardFontDataUrl } : {}),
      ...(pdfCanvasFactory() ? { CanvasFactory: pdfCanvasFactory() } : {}),
    }).promise;
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') throw new LoaderError('the PDF is password-protected; remove the password and drop it again', fileName);
    throw new LoaderError(`not a readable PDF (${(e as Error).message || name})`, fileName);
  }
  try {
    const pages: Line[][] = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      pages.push(pageLines(content.items.filter((i) => 'str' in i) as TextItemLike[], p));
      page.cleanup();
    }
    const empty = pages.flatMap((lines, i) => (lines.length ? [] : [i + 1]));
    // Pages without a text layer (scanned) are rendered and read by OCR; pages with text keep it.
    const ocr = empty.length && options.ocr !== false && ocrAvailable() ? await ocrPdfPages(doc, empty, fileName, options) : new Map<number, OcrPage>();
    const all = pages.flat();
    if (all.length === 0 && ![...ocr.values()].some((o) => o.paragraphs.length)) {
      throw new LoaderError(ocr.size ? 'no text found, not even by OCR' : 'no text found — it looks scanned, and OCR is not supported here', fileName);
    }
    const drop = repeatedMargins(pages);
    const body = bodySize(all);
    const headingSizes = [...new Set(all.filter((l) => isHeadingLine(l, body)).map((l) => Math.round(l.size * 2) / 2))].sort((a, b2) => b2 - a);
    const levelOf = (size: number) => Math.min(6, headingSizes.indexOf(Math.round(size * 2) / 2) + 1);

    const spans: OcrSpan[] = [];
    pages.forEach((lines, p) => {
      const pageNo = p + 1;
      b.beginPage();
      const read = ocr.get(pageNo);
      if (read) {
        for (const para of read.paragraphs) {
          const span = b.block(para.text);
          if (span) spans.push({ ...span, confidence: para.confidence });
        }
        b.endPage(pageNo);
        return;
      }
      let para: string[] = [];
      let prev: Line | null = null;
      const flush = () => {
        if (para.length) b.block(dehyphenate(para).join(' '));
        para = [];
      };
      for (const l of lines) {
        if (drop.has(l.text.replace(/\d+/g, '#').toLowerCase()) && (lines.indexOf(l) < 2 || lines.indexOf(l) >= lines.length - 2)) continue;
        if (isHeadingLine(l, body)) {
          flush();
          // Consecutive lines of one heading size continue the same heading.
          if (prev && isHeadingLine(prev, body) && Math.abs(prev.size - l.size) < 0.5 && Math.abs(prev.y - l.y) < l.size * 2.2) {
            b.extendHeading(l.text);
          } else {
            b.heading(levelOf(l.size), l.text);
          }
        } else {
          const gap = prev ? Math.abs(prev.y - l.y) : 0;
          const bullet = /^([•●▪■◦\-–*]|\(?\d{1,2}[.)]\s|\(?[a-z][.)]\s)/.test(l.text);
          // A sentence cut by a column or page break continues: no final punctuation, lower-case next line.
          const continues = para.length > 0 && !/[.!?:;。！？]["')\]]?$/.test(para[para.length - 1]!) && /^\p{Ll}/u.test(l.text);
          const newPara = prev && !continues && (isHeadingLine(prev, body) || gap > Math.max(prev.size, l.size) * 1.9 || bullet);
          if (newPara) flush();
          para.push(l.text);
        }
        prev = l;
      }
      flush();
      b.endPage(pageNo); // pages without text get an empty range, so page numbers stay 1…n
    });
    const unread = empty.filter((p) => !ocr.get(p)?.paragraphs.length);
    if (unread.length) b.warnings.push(`${unread.length === 1 ? 'page' : 'pages'} ${unread.join(', ')} ${unread.length === 1 ? 'has' : 'have'} no text${ocr.size ? ', not even by OCR' : ' layer (scanned?)'}`);
    if (ocr.size) b.warnings.push(`${ocr.size === 1 ? 'page' : 'pages'} ${[...ocr.keys()].join(', ')} read by OCR`);
    const meta = await doc.getMetadata().catch(() => null);
    const info = (meta?.info ?? {}) as Record<string, unknown>;
    const xmpTitle = meta?.metadata?.get('dc:title');
    const firstPage = pages.find((p) => p.length);
    const largest = firstPage?.reduce((a, l) => (l.size > a.size ? l : a), firstPage[0]!);
    const largestText = firstPage && largest ? firstPage.filter((l) => Math.abs(l.size - largest.size) < 0.5 && Math.abs(l.y - largest.y) < largest.size * 3).map((l) => l.text).join(' ') : null;
    const result: PdfResult = {
      title: meaningfulTitle(info.Title) ?? meaningfulTitle(xmpTitle) ?? meaningfulTitle(largestText),
      pageCount: doc.numPages,
      ...(ocr.size ? { ocr, ocrSpans: spans } : {}),
    };
    if (typeof info.Author === 'string' && info.Author.trim()) result.author = info.Author.trim();
    const created = pdfDate(info.CreationDate);
    const modified = pdfDate(info.ModDate);
    if (created) result.created = created;
    if (modified) result.modified = modified;
    return result;
  } finally {
    await doc.destroy();
  }
}

function isHeadingLine(l: Line, body: number): boolean {
  return l.size >= body * 1.15 && l.text.length <= 150 && /\p{L}/u.test(l.text);
}
