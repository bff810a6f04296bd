/**
 * The merge rule of the lab's storage, shared by every tab of a browser profile: what is stored
 * is records — a document, its split, its vectors, a question — each written and deleted on its
 * own, never a list rewritten from a copy in memory. The corpus is whatever document records
 * there are, in the order of their stamps; two tabs' changes therefore merge (one adds a file,
 * the other removes another: both stay done), and a record is only ever replaced by a newer
 * write of the same record. Pure, so the rule is tested on hand-made records.
 */
import type { Document } from '../core/types';

/**
 * A document as stored: its place in the list (an order stamp) and the document. Written since
 * issue 42 with its text apart, as a Blob (`doc.text` then empty): Chromium writes a long text
 * several times faster as a Blob than as a string (468 texts, 8.9 MB with curly quotes, in a
 * worker: 1.6–2.5 s as strings, ~0.45 s as slices of one Blob). Records with the text in `doc`
 * (short texts, and every record written before) are read as they are.
 */
export interface StoredDocument {
  order: number;
  doc: Document;
  text?: Blob;
}

/** Below this many characters a text stays a string: each Blob costs the browser a round trip (~0.7 ms), more than writing a short string. */
const BLOB_TEXT_CHARS = 2048;

/** A text UTF-8 can carry exactly (no lone surrogate, which a Blob would hold as U+FFFD). */
function wellFormed(text: string): boolean {
  const s = text as string & { isWellFormed?: () => boolean };
  return s.isWellFormed ? s.isWellFormed() : !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/**
 * The records to store for documents, each with its stamp: their long texts as slices of one
 * Blob of their UTF-8 (468 Blobs made one by one took ~0.5 s; one Blob and 468 slices of it,
 * ~0.3 s), the rest as it is. A short text, or one UTF-8 cannot hold exactly, stays in `doc`.
 */
export function storedDocuments(entries: readonly { order: number; doc: Document }[]): StoredDocument[] {
  const encoder = new TextEncoder();
  const bytes = entries.map(({ doc }) => (doc.text.length >= BLOB_TEXT_CHARS && wellFormed(doc.text) ? encoder.encode(doc.text) : null));
  const all = new Blob(bytes.filter((b): b is Uint8Array<ArrayBuffer> => b !== null));
  let at = 0;
  return entries.map(({ order, doc }, i) => {
    const b = bytes[i];
    if (!b) return { order, doc };
    at += b.length;
    return { order, doc: { ...doc, text: '' }, text: all.slice(at - b.length, at) };
  });
}

/**
 * The record with its document's text back in `doc`; null when its text cannot be read (the
 * document is then left out, as a record without one is).
 */
export async function readStoredDocument(r: StoredDocument): Promise<StoredDocument | null> {
  if (!r || !(r.text instanceof Blob) || !r.doc) return r;
  try {
    return { order: r.order, doc: { ...r.doc, text: await r.text.text() } };
  } catch {
    return null;
  }
}

/** A question or a generation run as stored, with its place in the set. */
export interface StoredRecord<T> {
  order: number;
  value: T;
}

/** Records in list order: by stamp, then by id (two writers' equal stamps stay in one order everywhere). */
export function inOrder<T>(records: readonly T[], order: (r: T) => number, id: (r: T) => string): T[] {
  return [...records].sort((a, b) => order(a) - order(b) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/** The corpus the records make: their documents in list order (records without a document are left out). */
export function documentList(records: readonly StoredDocument[]): Document[] {
  return inOrder(
    records.filter((r) => r && typeof r.order === 'number' && r.doc && typeof r.doc.id === 'string'),
    (r) => r.order,
    (r) => r.doc.id,
  ).map((r) => r.doc);
}

/**
 * Order stamps: milliseconds of the clock, but always above every stamp seen (stored, or given
 * before), so a record added now sorts after everything already in the list, whichever tab wrote it.
 */
export class OrderStamps {
  private last = 0;

  /** A stamp read from storage: later ones are made above it. */
  saw(order: number): void {
    if (Number.isFinite(order) && order > this.last) this.last = order;
  }

  next(now = Date.now()): number {
    this.last = Math.max(now, this.last + 1);
    return this.last;
  }
}
