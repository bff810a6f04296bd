/**
 * Field checks for the dataset readers (SQuAD, BEIR, JSONL/CSV): a wrong type is one
 * FieldError naming the field, which the reader turns into a skipped row; text is cleaned
 * (util/clean-text.ts) as it enters. Hand-written rather than a zod schema per format:
 * each reader skips the one bad row and keeps the rest, and says which field was wrong.
 */
import { clean } from '../util/clean-text';

export class FieldError extends Error {}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** A text field: a string (cleaned); anything else names the field and what it was. */
export function textField(v: unknown, field: string): string {
  if (v === undefined) throw new FieldError(`"${field}" is missing`);
  if (typeof v !== 'string') throw new FieldError(`"${field}" is ${kind(v)}, not text`);
  return clean(v);
}

/** An id: a string or a number (written as text). */
export function idField(v: unknown, field: string): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return textField(v, field);
}

/** A character offset: a whole number ≥ 0, or a string holding one ("26" is 26). */
export function offsetField(v: unknown, field: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new FieldError(`"${field}" is ${typeof v === 'string' ? `"${v.slice(0, 20)}"` : kind(v)}, not a whole number ≥ 0`);
  return n;
}

/** A list field (absent is an empty list). */
export function listField(v: unknown, field: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new FieldError(`"${field}" is ${kind(v)}, not a list`);
  return v;
}

/** Text files arrive with or without a byte-order mark: it is never part of the data. */
export const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
