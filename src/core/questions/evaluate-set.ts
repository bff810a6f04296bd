/**
 * A question set as the evaluation's EvalSet over the current documents, and the line every
 * figure shows about where its questions came from. Questions that cannot be scored
 * (unanswerable, documents missing, spans no longer in their document) are left out of the
 * retrieval metrics and counted, never dropped silently.
 */
import { spanTargets, type EvalQuestion, type EvalSet, type Target } from '../eval/dataset';
import type { Document } from '../types';
import { needsAll } from './needs';
import type { LabelledQuestion, QuestionSet, QuestionSourceKind } from './types';

export interface ToEvalOptions {
  /** Only questions of this source kind. */
  only?: QuestionSourceKind;
  name?: string;
  /** Put the documents in EvalSet.docs (the CLI adds them to its engine); default true. */
  includeDocs?: boolean;
}

export interface LeftOut {
  /** Marked "not answerable from these documents": no retrieval target. */
  unanswerable: number;
  /** A document they point into is not among the current ones. */
  missingDocs: number;
  /** Their span's text is no longer in their document (it was edited). */
  staleSpans: number;
  /** Not of the kind asked for with `only`. */
  otherKind: number;
}

export interface QuestionEvalSet {
  set: EvalSet;
  leftOut: LeftOut;
}

/** The spans of one question as targets (one per part when it needs all), or why it cannot be scored. */
function targetsOf(q: LabelledQuestion, byId: Map<string, Document>): { targets: Target[] } | { missing: string } | { stale: string } {
  const spans: { doc: string; start: number; end: number }[] = [];
  for (const span of q.answers) {
    const d = byId.get(span.doc);
    if (!d) return { missing: span.doc };
    let { start, end } = span;
    if (d.text.slice(start, end) !== span.text) {
      // The document was loaded again and its text moved: find the span's text once more.
      const at = span.text ? d.text.indexOf(span.text) : -1;
      if (at < 0) return { stale: d.title };
      start = at;
      end = at + span.text.length;
    }
    spans.push({ doc: d.id, start, end });
  }
  const targets = spanTargets(spans, needsAll(q) ? 'all' : undefined);
  for (const id of q.documents ?? []) {
    if (!byId.has(id)) return { missing: id };
    if (!targets.some((t) => t.doc === id)) targets.push({ doc: id, grade: 1 });
  }
  return { targets };
}

/** The set as an EvalSet over `docs`, with what was left out and why (also one line each in `skipped`). */
export function toEvalSet(qs: QuestionSet, docs: Document[], options: ToEvalOptions = {}): QuestionEvalSet {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const leftOut: LeftOut = { unanswerable: 0, missingDocs: 0, staleSpans: 0, otherKind: 0 };
  const questions: EvalQuestion[] = [];
  const unanswerable: EvalQuestion[] = [];
  const skipped: string[] = [];
  for (const q of qs.questions) {
    if (options.only && q.source.kind !== options.only) {
      leftOut.otherKind++;
      continue;
    }
    if (q.unanswerable) {
      leftOut.unanswerable++;
      // No retrieval target; an answer run asks it and counts a correct abstention.
      unanswerable.push({ id: q.id, question: q.question, answers: [], targets: [] });
      skipped.push(`question ${q.id}: marked not answerable from these documents (not scored)`);
      continue;
    }
    if (q.missingDocs?.length) {
      leftOut.missingDocs++;
      skipped.push(`question ${q.id}: its document ${q.missingDocs[0]} was removed`);
      continue;
    }
    const r = targetsOf(q, byId);
    if ('missing' in r) {
      leftOut.missingDocs++;
      skipped.push(`question ${q.id}: no document "${r.missing}" among the current documents`);
      continue;
    }
    if ('stale' in r) {
      leftOut.staleSpans++;
      skipped.push(`question ${q.id}: its answer's text is no longer in "${r.stale}"; mark it again`);
      continue;
    }
    if (!r.targets.length) {
      leftOut.unanswerable++;
      skipped.push(`question ${q.id}: no answer span and not marked unanswerable (not scored)`);
      continue;
    }
    // All-of: one string per part (each must be in the context); any-of: alternatives.
    questions.push({ id: q.id, question: q.question, answers: [...new Set(q.answers.map((a) => a.text).filter(Boolean))], targets: r.targets, ...(needsAll(q) ? { needs: 'all' as const } : {}) });
  }
  const set: EvalSet = { name: options.name ?? 'question set', docs: options.includeDocs === false ? [] : docs, questions, ...(unanswerable.length ? { unanswerable } : {}), skipped };
  return { set, leftOut };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Where the questions came from, the line every figure shows: "18 marked by you · 42 generated
 * by Qwen2.5-0.5B, of 60 asked; 11 rejected · 5 imported". With `leftOut`, what was not scored
 * follows ("· not scored: 2 unanswerable, 1 with a missing document").
 */
export function describeSources(qs: QuestionSet, options: { only?: QuestionSourceKind; leftOut?: LeftOut } = {}): string {
  const questions = options.only ? qs.questions.filter((q) => q.source.kind === options.only) : qs.questions;
  const parts: string[] = [];
  const marked = questions.filter((q) => q.source.kind === 'marked').length;
  if (marked) parts.push(`${marked} marked by you`);
  const byModel = new Map<string, number>();
  for (const q of questions) if (q.source.kind === 'generated') byModel.set(q.source.model ?? 'a model', (byModel.get(q.source.model ?? 'a model') ?? 0) + 1);
  for (const [model, n] of byModel) {
    const runs = (qs.runs ?? []).filter((r) => r.model === model);
    const asked = runs.reduce((s, r) => s + r.asked, 0);
    const rejected = runs.reduce((s, r) => s + Object.values(r.rejected).reduce((a, b) => a + (b ?? 0), 0), 0);
    parts.push(runs.length ? `${n} generated by ${model}, of ${asked} asked; ${rejected} rejected` : `${n} generated by ${model}`);
  }
  const imported = new Map<string, number>();
  for (const q of questions) if (q.source.kind === 'imported') imported.set(q.source.file ?? '', (imported.get(q.source.file ?? '') ?? 0) + 1);
  for (const [file, n] of imported) parts.push(`${n} imported${file ? ` from ${file}` : ''}`);
  if (!parts.length) parts.push('no questions');
  const l = options.leftOut;
  if (l) {
    const not = [l.unanswerable ? `${l.unanswerable} unanswerable` : '', l.missingDocs ? plural(l.missingDocs, 'with a missing document', 'with missing documents') : '', l.staleSpans ? plural(l.staleSpans, 'with a moved answer', 'with moved answers') : ''].filter(Boolean);
    if (not.length) parts.push(`not scored: ${not.join(', ')}`);
  }
  return parts.join(' · ');
}
