/**
 * Mapping an imported question back onto the CURRENT documents: a document by id, else by
 * title or file name, else by finding the reference text; a span by its offsets when its text
 * is still there, else by finding its text. Shared by every format's import.
 */
import type { Document } from '../../types';
import { locateAnswer } from '../locate';
import type { GoldSpan, LabelledQuestion, QuestionSet } from '../types';

export interface ImportResult {
  set: QuestionSet;
  /** Every line or entry not imported as it was, one line each ("line 4: …"). */
  skipped: string[];
}

const stem = (name: string) => name.toLowerCase().replace(/\.[a-z0-9]{1,5}$/i, '');

/** The document an imported reference names: by id, else title or file name (case-insensitive, extension optional). */
export function findDocument(docs: readonly Document[], ref: string | undefined): Document | undefined {
  if (!ref) return undefined;
  const byId = docs.find((d) => d.id === ref);
  if (byId) return byId;
  const key = ref.trim().toLowerCase();
  return (
    docs.find((d) => d.title.toLowerCase() === key || d.meta.fileName.toLowerCase() === key) ??
    docs.find((d) => stem(d.meta.fileName) === stem(key) || d.title.toLowerCase() === stem(key))
  );
}

/** `text` in `doc` (exact, else after normalising spaces and case), near `hint` when it occurs more than once. */
export function findIn(doc: Document, text: string, hint?: number): GoldSpan | null {
  if (!text.trim()) return null;
  let at = doc.text.indexOf(text);
  if (at >= 0) {
    if (hint !== undefined) {
      // The occurrence closest to where the offsets said.
      for (let i = at; i >= 0; i = doc.text.indexOf(text, i + 1)) if (Math.abs(i - hint) < Math.abs(at - hint)) at = i;
    }
    return { doc: doc.id, start: at, end: at + text.length, text };
  }
  const m = locateAnswer(doc.text, text, { threshold: 1.01, language: doc.language }).match;
  return m ? { doc: doc.id, start: m.start, end: m.end, text: m.text } : null;
}

/** `text` in the first document holding it (`prefer` first). */
export function findAnywhere(docs: readonly Document[], text: string, prefer?: Document): GoldSpan | null {
  for (const d of prefer ? [prefer, ...docs.filter((x) => x !== prefer)] : docs) {
    const s = findIn(d, text);
    if (s) return s;
  }
  return null;
}

/**
 * Shortest text trusted to name its document when the document itself is not found: a short
 * answer ("1889", "the river") occurs in many documents and would be pinned on the wrong one.
 */
export const DISTINCT_TEXT_CHARS = 25;

/** `text` where it occurs exactly once in all of `docs` and is long enough to be distinctive; else null. */
export function findDistinct(docs: readonly Document[], text: string): GoldSpan | null {
  if (text.trim().length < DISTINCT_TEXT_CHARS) return null;
  let found: GoldSpan | null = null;
  for (const d of docs) {
    const at = d.text.indexOf(text);
    if (at < 0) continue;
    if (found || d.text.indexOf(text, at + 1) >= 0) return null;
    found = { doc: d.id, start: at, end: at + text.length, text };
  }
  return found;
}

export type SpanOutcome = { span: GoldSpan; note?: string } | { missingDoc: string } | { problem: string };

/**
 * An imported span on the current documents: its document by reference, its offsets when the
 * text is there, else its text found in that document. When the document is not found: in
 * `prefer` (the document its passage was found in), else where the text is distinctive (see
 * findDistinct). `missingDoc` when none holds it, `problem` when the document is there but the
 * span is not.
 */
export function resolveSpan(docs: readonly Document[], ref: { doc?: string; start?: number; end?: number; text?: string }, prefer?: Document): SpanOutcome {
  const doc = findDocument(docs, ref.doc);
  const text = ref.text ?? '';
  const { start, end } = ref;
  if (doc && typeof start === 'number' && typeof end === 'number') {
    if (start >= 0 && end <= doc.text.length && start < end && (text === '' || doc.text.slice(start, end) === text)) {
      return { span: { doc: doc.id, start, end, text: doc.text.slice(start, end) } };
    }
  }
  if (doc) {
    const found = findIn(doc, text, start);
    if (found) return { span: found, ...(typeof start === 'number' && start !== found.start ? { note: `moved to ${found.start}–${found.end}, where its text is` } : {}) };
    const where = typeof start === 'number' && typeof end === 'number' ? `span ${start}–${end}` : 'its span';
    return { problem: `${where} ${typeof end === 'number' && end > doc.text.length ? `is outside "${doc.title}" (${doc.text.length} characters)` : `does not hold "${clip(text)}" in "${doc.title}"`}, and the text is not found there` };
  }
  const elsewhere = (prefer && text ? findIn(prefer, text, start) : null) ?? findDistinct(docs, text);
  if (elsewhere) {
    const title = docs.find((d) => d.id === elsewhere.doc)!.title;
    return ref.doc ? { span: elsewhere, note: `document "${clip(ref.doc)}" not found; its text is in "${title}"` } : { span: elsewhere };
  }
  return { missingDoc: ref.doc ?? '(no document named)' };
}

export const clip = (s: string, n = 60) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** Unique ids: a repeated id gets "-2", "-3", … and a line saying so. */
export function uniqueIds(questions: LabelledQuestion[], skipped: string[]): void {
  const seen = new Set<string>();
  for (const q of questions) {
    let id = q.id;
    for (let k = 2; seen.has(id); k++) id = `${q.id}-${k}`;
    if (id !== q.id) skipped.push(`question ${q.id}: the id was used before; imported as ${id}`);
    q.id = id;
    seen.add(id);
  }
}

/** The paragraph (text between blank lines) around a span: the context exports give with a marked answer. */
export function paragraphAround(doc: Document, start: number, end: number): GoldSpan {
  const before = doc.text.lastIndexOf('\n\n', start);
  const after = doc.text.indexOf('\n\n', end);
  const s = before < 0 ? 0 : before + 2;
  const e = after < 0 ? doc.text.length : after;
  return { doc: doc.id, start: s, end: e, text: doc.text.slice(s, e) };
}

/** The contexts a question is known by: its passages when generated, else the paragraphs of its answers. */
export function contextsOf(q: LabelledQuestion, docs: readonly Document[]): GoldSpan[] {
  if (q.source.passage?.length) return q.source.passage;
  const out: GoldSpan[] = [];
  for (const a of q.answers) {
    const d = docs.find((x) => x.id === a.doc);
    if (!d) continue;
    const p = paragraphAround(d, a.start, a.end);
    if (!out.some((o) => o.doc === p.doc && o.start === p.start)) out.push(p);
  }
  return out;
}
