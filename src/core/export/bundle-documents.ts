/**
 * The documents of a bundle, as loaders made them, from its documents, sections and pages
 * tables joined by their keys (doc; doc + section; doc + page), whatever order their rows
 * are in. Text and metadata are cleaned as loaders clean them (util/clean-text.ts);
 * metadata nested too deep to store, an `extra` that would override a document's own
 * fields, a repeated document id and keys out of range are each one BundleError.
 */
import type { Document, LanguageInfo } from '../types';
import { cleanJson, cleanText } from '../util/clean-text';
import { canonicalLanguage } from '../util/language-tag';
import { BundleError, type Table } from './format';
import { checkDense, tableInKeyOrder } from './table-order';

const col = <T>(t: Table, name: string) => t.columns[name] as T[];

/** The fields `extra` may carry (tables.ts writes these): anything else in it is ignored, never spread over the document. */
const EXTRA_FIELDS = ['tags', 'warnings', 'context'] as const;

/** How the language was decided, when `extra` says so in the shape the lab writes; anything else is dropped (the language itself stays). */
function languageInfo(v: unknown): LanguageInfo | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (o.source !== 'detected' && o.source !== 'user') return undefined;
  const info: LanguageInfo = { source: o.source };
  if (typeof o.confidence === 'number' && o.confidence >= 0 && o.confidence <= 1) info.confidence = o.confidence;
  if (typeof o.sure === 'boolean') info.sure = o.sure;
  if (Array.isArray(o.alternatives)) info.alternatives = o.alternatives.filter((a): a is string => typeof a === 'string' && canonicalLanguage(a) !== null).slice(0, 8);
  return info;
}

function json(text: unknown, what: string, row: number): unknown {
  try {
    return cleanJson(JSON.parse(String(text)));
  } catch (e) {
    const why = e instanceof RangeError ? (e.message.includes('nested') ? e.message : 'nested too deep') : 'unreadable';
    throw new BundleError(`parquet/documents.parquet is corrupt: document ${row} has ${what} that is ${why}`);
  }
}

export interface BundleDocuments {
  /** The documents table in key order (doc 0, 1, …). */
  docs: Table;
  documents: Document[];
}

export function documentsOf(docsTable: Table, sectionsTable: Table, pagesTable: Table): BundleDocuments {
  const docs = tableInKeyOrder(docsTable, 'parquet/documents.parquet', ['doc']);
  checkDense('parquet/documents.parquet', 'document', col<number>(docs, 'doc'));
  const seen = new Map<string, number>();
  const documents: Document[] = col<number>(docs, 'doc').map((_, i) => {
    const meta = json(col<string>(docs, 'meta')[i], 'metadata', i);
    const extra = json(col<string>(docs, 'extra')[i], 'extra fields', i);
    if (!meta || typeof meta !== 'object' || Array.isArray(meta)) throw new BundleError(`parquet/documents.parquet is corrupt: document ${i}'s metadata is not an object`);
    const text = (v: unknown, field: string) => {
      if (typeof v !== 'string') throw new BundleError(`parquet/documents.parquet is corrupt: document ${i} has no ${field}`);
      return cleanText(v).text;
    };
    const id = text(col(docs, 'id')[i], 'id');
    const first = seen.get(id);
    // Said as it is: the second copy used to fail later as "made by another version".
    if (first !== undefined) throw new BundleError(`parquet/documents.parquet is corrupt: documents ${first} and ${i} have the same id "${id.slice(0, 60)}"`);
    seen.set(id, i);
    const language = text(col(docs, 'language')[i], 'language');
    const kept: Partial<Document> = {};
    if (extra && typeof extra === 'object' && !Array.isArray(extra)) {
      for (const k of EXTRA_FIELDS) if (k in extra) (kept as Record<string, unknown>)[k] = (extra as Record<string, unknown>)[k];
      const info = languageInfo((extra as Record<string, unknown>).languageInfo);
      if (info) kept.languageInfo = info;
    }
    return {
      id,
      title: text(col(docs, 'title')[i], 'title'),
      // A tag Intl refuses would abort every search of the document: canonical, or kept for detection to decide.
      language: canonicalLanguage(language) ?? language,
      text: text(col(docs, 'text')[i], 'text'),
      sections: [],
      pages: [],
      meta: meta as Document['meta'],
      ...kept,
    };
  });
  const sections = tableInKeyOrder(sectionsTable, 'parquet/sections.parquet', ['doc', 'section']);
  for (let i = 0; i < sections.rows; i++) {
    const d = documents[col<number>(sections, 'doc')[i]!];
    if (!d) throw new BundleError(`parquet/sections.parquet is corrupt: section row ${i} names no document`);
    d.sections.push({
      id: col<number>(sections, 'section')[i]!,
      title: cleanText(String(col<string>(sections, 'title')[i] ?? '')).text,
      level: col<number>(sections, 'level')[i]!,
      parent: col<number | null>(sections, 'parent')[i]!,
      start: col<number>(sections, 'char_start')[i]!,
      end: col<number>(sections, 'char_end')[i]!,
    });
  }
  documents.forEach((d, i) => {
    // Section ids are indexes into the document's list: 0, 1, … with nothing missing.
    const ids = d.sections.map((s) => s.id);
    checkDense('parquet/sections.parquet', `document ${i}'s section`, ids);
  });
  const pages = tableInKeyOrder(pagesTable, 'parquet/pages.parquet', ['doc', 'page']);
  for (let i = 0; i < pages.rows; i++) {
    const d = documents[col<number>(pages, 'doc')[i]!];
    if (!d) throw new BundleError(`parquet/pages.parquet is corrupt: page row ${i} names no document`);
    d.pages.push({ number: col<number>(pages, 'page')[i]!, start: col<number>(pages, 'char_start')[i]!, end: col<number>(pages, 'char_end')[i]! });
  }
  return { docs, documents };
}
