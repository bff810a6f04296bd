import type { Document, Sentence } from '../types';
import { commonSection, sectionPath } from './corpus';

/** Metadata a header can carry besides title and section. */
export type HeaderField = 'fileName' | 'page' | 'date' | 'author' | 'language' | 'tags';

export interface HeaderParams {
  enabled: boolean;
  title: boolean;
  section: boolean;
  fields: HeaderField[];
}

export const DEFAULT_HEADERS: HeaderParams = { enabled: false, title: true, section: true, fields: [] };

/** A stable key of what changes the embedded text (vector caches are keyed by it). */
export function headerKey(p: HeaderParams): string {
  return p.enabled ? `h:${p.title ? 't' : ''}${p.section ? 's' : ''}:${[...p.fields].sort().join(',')}` : 'none';
}

/**
 * A contextual chunk header in dsRAG's wording: the document title, the section path
 * of the excerpt, and chosen metadata. It is embedded with the chunk
 * (`header + "\n\n" + text`) and handed over with it.
 */
export function chunkHeader(doc: Document, first: Sentence, last: Sentence, p: HeaderParams): string {
  if (!p.enabled) return '';
  const parts: string[] = [];
  // A title and summary written by an LLM or the user win over the loader's title (dsRAG's get_chunk_header).
  const title = doc.context?.title?.trim() || doc.title;
  const summary = doc.context?.summary?.trim();
  if (p.title && title) parts.push(`Document context: the following excerpt is from a document titled '${title}'.${summary ? ` ${summary}` : ''}`);
  if (p.section) {
    const path = sectionPath(doc, commonSection(doc, first.section, last.section)).filter((t) => t !== doc.title);
    if (path.length) parts.push(`Section context: this excerpt is from the section titled '${path.join(' > ')}'.`);
  }
  const meta: string[] = [];
  for (const f of p.fields) {
    if (f === 'fileName') meta.push(`file: ${doc.meta.fileName}`);
    else if (f === 'page' && first.page !== undefined) meta.push(first.page === last.page ? `page ${first.page}` : `pages ${first.page}–${last.page}`);
    else if (f === 'date' && (doc.meta.created || doc.meta.modified)) meta.push(`date: ${(doc.meta.created ?? doc.meta.modified)!.slice(0, 10)}`);
    else if (f === 'author' && doc.meta.author) meta.push(`author: ${doc.meta.author}`);
    else if (f === 'language') meta.push(`language: ${doc.language}`);
    else if (f === 'tags' && doc.tags?.length) meta.push(`tags: ${doc.tags.join(', ')}`);
  }
  if (meta.length) parts.push(`Metadata: ${meta.join('; ')}.`);
  return parts.join('\n\n');
}

/** The text that is embedded for a unit: header and text, or the text alone. */
export function embeddedText(header: string, text: string): string {
  return header ? `${header}\n\n${text}` : text;
}
