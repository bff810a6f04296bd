/**
 * The merge rule of the lab's storage, shared by every tab of a browser profile: what is stored
 * is records — a document, its split, its vectors, a question — each written and deleted on its
 * own, never a list rewritten from a copy in memory. The corpus is whatever document records
 * there are, in the order of their stamps; two tabs' changes therefore merge (one adds a file,
 * the other removes another: both stay done), and a record is only ever replaced by a newer
 * write of the same record. Pure, so the rule is tested on hand-made records.
 */
import type { Document } from '../core/types';

/** A document as stored: its place in the list (an order stamp) and the document. */
export interface StoredDocument {
  order: number;
  doc: Document;
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
