import type { DocumentFormat } from '../types';

/** File extensions and the format each is read as (no loader imported: the page's file picker reads this too). */
export const EXTENSIONS: Record<string, DocumentFormat> = {
  txt: 'txt', text: 'txt', md: 'md', markdown: 'md', mdx: 'md', htm: 'html', html: 'html', xhtml: 'html', pdf: 'pdf',
  docx: 'docx', odt: 'odt', pptx: 'pptx', odp: 'odp', xlsx: 'xlsx', ods: 'ods', csv: 'csv', tsv: 'tsv', tab: 'tsv', epub: 'epub',
  png: 'image', jpg: 'image', jpeg: 'image', webp: 'image', tif: 'image', tiff: 'image',
};

/** The extensions the loaders read (the page's file picker accepts these). */
export const DOCUMENT_EXTENSIONS = Object.keys(EXTENSIONS);

/** Said when a file's type is not one of them. */
export const UNSUPPORTED_TYPE =
  'unsupported file type (use .pdf, .docx, .odt, .pptx, .odp, .xlsx, .ods, .csv, .tsv, .epub, .md, .txt, .html, or an image: .png, .jpg, .webp, .tiff)';

