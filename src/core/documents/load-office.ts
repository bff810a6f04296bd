import type { DocumentFormat, DocumentMeta, OcrSpan } from '../types';
import { LoaderError, stripExtension, type DocumentBuilder } from './builder';
import { decodeText } from './decode';
import { parseDocx, type OfficeInfo } from './docx';
import { parseEpub } from './epub';
import { parseImage } from './image';
import type { OcrOptions } from './ocr';
import { parseOdt } from './odt';
import { readDelimited, readOds, readXlsx, writeSheets } from './sheets';
import { parseOdp, parsePptx } from './slides';

/** Formats read by the loaders of office files, e-books, tables and images (the others are in load.ts). */
export const OFFICE_FORMATS = new Set<DocumentFormat>(['docx', 'odt', 'pptx', 'odp', 'xlsx', 'ods', 'csv', 'tsv', 'epub', 'image']);

export interface OfficeResult {
  title: string | null;
  language?: string;
  ocr?: OcrSpan[];
  ocrConfidence?: number;
}

/** Loads one office file, e-book, table or image into `b`; fills `meta` with what the file tells. */
export async function loadOffice(format: DocumentFormat, name: string, bytes: Uint8Array, b: DocumentBuilder, meta: DocumentMeta, options: OcrOptions): Promise<OfficeResult> {
  const withInfo = (info: OfficeInfo & { language?: string }): OfficeResult => {
    if (info.author) meta.author = info.author;
    if (info.created && !Number.isNaN(Date.parse(info.created))) meta.created = new Date(info.created).toISOString();
    if (info.modified && !Number.isNaN(Date.parse(info.modified))) meta.modified = new Date(info.modified).toISOString();
    return { title: info.title, ...(info.language ? { language: info.language } : {}) };
  };
  switch (format) {
    case 'docx':
      return withInfo(await parseDocx(bytes, name, b));
    case 'odt':
      return withInfo(parseOdt(bytes, name, b));
    case 'pptx':
    case 'odp':
      return withInfo(format === 'pptx' ? parsePptx(bytes, name, b) : parseOdp(bytes, name, b));
    case 'xlsx':
    case 'ods': {
      const { sheets, info } = format === 'xlsx' ? readXlsx(bytes, name) : readOds(bytes, name);
      const rows = writeSheets(sheets, b);
      (meta.extra ??= {}).rows = String(rows);
      meta.extra.sheets = String(sheets.length);
      // A sheet's name is no title for the whole workbook: its properties', else the file's name.
      return withInfo({ ...info, title: info.title ?? stripExtension(name) });
    }
    case 'csv':
    case 'tsv': {
      const decoded = decodeText(bytes);
      if (!decoded) throw new LoaderError(`this looks like a binary file, not ${format.toUpperCase()}`, name);
      const rows = writeSheets([readDelimited(decoded.text, name, format === 'tsv')], b, false);
      (meta.extra ??= {}).rows = String(rows);
      return { title: null };
    }
    case 'epub':
      return withInfo(parseEpub(bytes, name, b));
    case 'image': {
      const r = await parseImage(bytes, name, b, options);
      return { title: null, ocr: r.spans, ocrConfidence: r.confidence };
    }
    default:
      throw new LoaderError(`no loader for ${format}`, name);
  }
}
