/**
 * A Ragas test set as JSONL (what `Testset.to_jsonl` / `EvaluationDataset.from_jsonl` read):
 * `user_input` (the question), `reference_contexts` (its passages, or the paragraphs around a
 * marked answer), `reference` (the gold answer text). An unanswerable question has an empty
 * reference and no contexts.
 */
import type { Document } from '../../types';
import { locateAnswer } from '../locate';
import type { GoldSpan, LabelledQuestion, QuestionSet } from '../types';
import { clip, contextsOf, findAnywhere, findDistinct, uniqueIds, type ImportResult } from './resolve';
import type { ExportResult } from './squad';

export function exportRagas(set: QuestionSet, docs: readonly Document[]): ExportResult {
  const notes: string[] = [];
  const lines = set.questions.map((q) => {
    if (q.answers.length === 0 && !q.unanswerable) notes.push(`question ${q.id}: no answer span; exported with an empty reference`);
    return JSON.stringify({ user_input: q.question, reference_contexts: q.unanswerable ? [] : contextsOf(q, docs).map((c) => c.text), reference: q.answers.map((a) => a.text).join(' … ') });
  });
  return { text: lines.length ? `${lines.join('\n')}\n` : '', notes };
}

/**
 * Ragas JSONL (or a JSON array of the same rows) onto `docs`: each reference context is found in
 * the documents, then the reference inside it (fuzzy: Ragas references are often written by a
 * model); when the reference is not found, the context itself is the gold span (said so).
 */
export function importRagas(text: string, docs: readonly Document[], fileName: string): ImportResult {
  const skipped: string[] = [];
  const rows: { n: number; row: unknown }[] = [];
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      (JSON.parse(trimmed) as unknown[]).forEach((row, i) => rows.push({ n: i + 1, row }));
    } catch (e) {
      return { set: { questions: [] }, skipped: [`${fileName}: not valid JSON (${(e as Error).message})`] };
    }
  } else {
    text.split(/\r?\n/).forEach((l, i) => {
      if (!l.trim()) return;
      try {
        rows.push({ n: i + 1, row: JSON.parse(l) });
      } catch {
        skipped.push(`line ${i + 1}: not valid JSON`);
      }
    });
  }
  const questions: LabelledQuestion[] = [];
  for (const { n, row } of rows) {
    const r = (row ?? {}) as { user_input?: unknown; reference_contexts?: unknown; reference?: unknown };
    const question = typeof r.user_input === 'string' ? r.user_input.trim() : '';
    if (!question) {
      skipped.push(`line ${n}: no "user_input"`);
      continue;
    }
    const reference = typeof r.reference === 'string' ? r.reference.trim() : '';
    const contexts = Array.isArray(r.reference_contexts) ? r.reference_contexts.filter((c): c is string => typeof c === 'string' && c.trim() !== '') : [];
    const source = { kind: 'imported' as const, file: fileName };
    const id = `ragas-${n}`;
    if (!reference && !contexts.length) {
      questions.push({ id, question, answers: [], unanswerable: true, source });
      continue;
    }
    const found = contexts.map((c) => findAnywhere(docs, c)).filter((s): s is GoldSpan => s !== null);
    if (found.length < contexts.length) skipped.push(`line ${n}: ${contexts.length - found.length} of ${contexts.length} reference contexts are not in the documents`);
    const answers: GoldSpan[] = [];
    for (const part of reference ? reference.split(' … ') : []) {
      let span: GoldSpan | null = null;
      for (const c of found) {
        const doc = docs.find((d) => d.id === c.doc)!;
        const m = locateAnswer(c.text, part, { language: doc.language }).match;
        if (m) {
          span = { doc: c.doc, start: c.start + m.start, end: c.start + m.end, text: m.text };
          break;
        }
      }
      span ??= findDistinct(docs, part);
      if (span) answers.push(span);
    }
    if (!answers.length && found.length) {
      answers.push(...found);
      skipped.push(`line ${n}: the reference "${clip(reference, 40)}" is not in its contexts; its contexts are the gold spans`);
    }
    if (!answers.length) {
      skipped.push(`line ${n}: neither the reference nor a context is in the documents; not imported`);
      continue;
    }
    questions.push({ id, question, answers, source });
  }
  uniqueIds(questions, skipped);
  return { set: { questions }, skipped };
}
