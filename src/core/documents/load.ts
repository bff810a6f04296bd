import type { Document, DocumentFormat, DocumentMeta, OcrSpan } from '../types';
import { DocumentBuilder, LoaderError, contentId } from './builder';
import { decodeText } from './decode';
import { parseHtml } from './html';
import { OFFICE_FORMATS, loadOffice } from './load-office';
import { parseMarkdown } from './markdown';
import { EXTENSIONS, UNSUPPORTED_TYPE } from './formats';
import { imageType } from './ocr';

export { DOCUMENT_EXTENSIONS, UNSUPPORTED_TYPE } from './formats';
import { parsePdf, type PdfOptions } from './pdf';
import { parsePlainText } from './text';
import { DEFAULT_MAX_BYTES, sizeProblem } from './size-check';

/** A dropped or read file, as bytes (the same shape in the browser, a worker and Node). */
export interface InputFile {
  name: string;
  bytes: Uint8Array;
  /** Milliseconds since the epoch (File.lastModified, fs mtime). */
  lastModified?: number;
  /** Overrides language detection. */
  language?: string;
  tags?: string[];
}

export interface LoadOptions extends PdfOptions {
  /** Largest accepted file, in bytes. */
  maxBytes?: number;
}

export { DEFAULT_MAX_BYTES, sizeProblem } from './size-check';

/** The format from the file's first bytes, then its extension. */
export function detectFormat(name: string, bytes: Uint8Array): DocumentFormat | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (head.startsWith('%PDF-')) return 'pdf';
  const ext = /\.([^.\\/]+)$/.exec(name)?.[1]?.toLowerCase();
  const byExt = ext ? EXTENSIONS[ext] : undefined;
  // An image is known by its bytes, unless its name says another format (then that loader says what is wrong).
  if (imageType(bytes) && (!byExt || byExt === 'image')) return 'image';
  if (byExt) return byExt;
  if (/^\s*(<!doctype html|<html[\s>])/i.test(head)) return 'html';
  return null;
}

/**
 * Loads one file into a Document, or throws a LoaderError whose message names the
 * file and says exactly what is wrong with it. Callers load files one by one, so one
 * bad file never costs the others.
 */
export async function loadDocument(file: InputFile, options: LoadOptions = {}): Promise<Document> {
  const max = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (file.bytes.length === 0) throw new LoaderError('the file is empty', file.name);
  const tooLarge = sizeProblem(file.name, file.bytes.length, max);
  if (tooLarge) throw new LoaderError(tooLarge.slice(file.name.length + 2), file.name);
  const format = detectFormat(file.name, file.bytes);
  if (!format) throw new LoaderError(UNSUPPORTED_TYPE, file.name);
  const meta: DocumentMeta = { fileName: file.name, size: file.bytes.length, format };
  if (file.lastModified) meta.modified = new Date(file.lastModified).toISOString();
  const b = new DocumentBuilder();
  let title: string | null = null;
  let language = file.language;
  const ocrOptions = { ...options, ...(file.language ? { language: file.language } : {}) };
  let ocr: { spans: OcrSpan[]; pages: Map<number, number> } | null = null;

  if (OFFICE_FORMATS.has(format)) {
    const r = await loadOffice(format, file.name, file.bytes, b, meta, ocrOptions);
    title = r.title;
    language ??= r.language;
    if (r.ocr) ocr = { spans: r.ocr, pages: new Map([[1, r.ocrConfidence ?? 0]]) };
  } else if (format === 'pdf') {
    const r = await parsePdf(file.bytes, file.name, b, ocrOptions);
    title = r.title;
    if (r.ocr && r.ocrSpans) ocr = { spans: r.ocrSpans, pages: new Map([...r.ocr].map(([p, o]) => [p, o.confidence])) };
    meta.pageCount = r.pageCount;
    if (r.author) meta.author = r.author;
    if (r.created) meta.created = r.created;
    if (r.modified) meta.modified = r.modified;
  } else {
    const decoded = decodeText(file.bytes);
    if (!decoded) throw new LoaderError(`this looks like a binary file, not ${format === 'txt' ? 'text' : format.toUpperCase()}`, file.name);
    if (decoded.encoding !== 'utf-8') (meta.extra ??= {}).encoding = decoded.encoding;
    if (format === 'md') {
      title = parseMarkdown(decoded.text, b);
    } else if (format === 'html') {
      const info = parseHtml(decoded.text, b);
      title = info.title;
      language ??= info.language ?? undefined;
      if (info.author) meta.author = info.author;
      if (info.date && !Number.isNaN(Date.parse(info.date))) meta.created = new Date(info.date).toISOString();
      if (info.description) (meta.extra ??= {}).description = info.description;
    } else {
      parsePlainText(decoded.text, b);
    }
  }
  if (b.length === 0) throw new LoaderError('no text found in the file', file.name);
  const doc = b.build({ id: contentId(file.bytes), title, language, meta, ...(file.tags ? { tags: file.tags } : {}) });
  if (doc.pages.length && !doc.meta.pageCount) doc.meta.pageCount = doc.pages.length;
  if (ocr) {
    doc.ocr = ocr.spans;
    for (const p of doc.pages) {
      const confidence = ocr.pages.get(p.number);
      if (confidence !== undefined) p.ocrConfidence = Math.round(confidence * 10) / 10;
    }
  }
  return doc;
}

/** Builds a Document from text typed or pasted by the user. */
export function documentFromText(text: string, name = 'Pasted text', format: 'txt' | 'md' = 'txt', language?: string): Document {
  const b = new DocumentBuilder();
  const title = format === 'md' ? parseMarkdown(text, b) : (parsePlainText(text, b), null);
  if (b.length === 0) throw new LoaderError('no text to index', name);
  return b.build({ id: contentId(text), title: title ?? name, language, meta: { fileName: name, size: text.length, format } });
}
