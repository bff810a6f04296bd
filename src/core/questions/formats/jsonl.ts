/**
 * The lab's own format: JSONL, one LabelledQuestion a line (`id`, `question`, `answers:
 * [{doc, start, end, text}]` or `unanswerable: true`, `needs: "all"` when every answer is
 * needed, `source: {kind, model, passage}`, `type`, and the optional fields of types.ts). Lines are checked with a zod schema; each bad line is
 * listed with its number and the field at fault.
 */
import { z } from 'zod';
import type { Document } from '../../types';
import { answerParts } from '../needs';
import type { LabelledQuestion, QuestionSet } from '../types';
import { clip, resolveSpan, uniqueIds, type ImportResult } from './resolve';

const span = z.object({ doc: z.string(), start: z.number().int().nonnegative().optional(), end: z.number().int().nonnegative().optional(), text: z.string().optional() });
const line = z.object({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  question: z.string().trim().min(1, 'is empty'),
  answers: z.array(span).default([]),
  unanswerable: z.boolean().optional(),
  documents: z.array(z.string()).optional(),
  // "all": every answer is needed; "any" (the default when absent): any one is enough.
  needs: z.enum(['all', 'any']).optional(),
  source: z
    .object({ kind: z.enum(['marked', 'generated', 'imported']), model: z.string().optional(), passage: z.array(span).optional(), file: z.string().optional() })
    .optional(),
  type: z.enum(['specific', 'abstract', 'multi-passage']).optional(),
  copyShare: z.number().min(0).max(1).optional(),
  updated: z.string().optional(),
  missingDocs: z.array(z.string()).optional(),
});

/** Fields in a fixed order, so exports compare line by line. */
function ordered(q: LabelledQuestion): Record<string, unknown> {
  return {
    id: q.id,
    question: q.question,
    answers: q.answers.map(({ doc, start, end, text }) => ({ doc, start, end, text })),
    ...(q.unanswerable ? { unanswerable: true } : {}),
    ...(q.documents?.length ? { documents: q.documents } : {}),
    ...(q.needs === 'all' ? { needs: 'all' } : {}),
    source: q.source,
    ...(q.type ? { type: q.type } : {}),
    ...(q.copyShare !== undefined ? { copyShare: q.copyShare } : {}),
    ...(q.updated ? { updated: q.updated } : {}),
    ...(q.missingDocs?.length ? { missingDocs: q.missingDocs } : {}),
  };
}

export function exportJsonl(set: QuestionSet): string {
  return set.questions.map((q) => JSON.stringify(ordered(q))).join('\n') + (set.questions.length ? '\n' : '');
}

/**
 * Reads JSONL questions onto `docs`. Sources are kept (a marked question stays marked); a line
 * without one is "imported" from `fileName`. A question whose document is gone is kept with
 * `missingDocs`; a span no longer in its document is left out with a line saying so.
 */
export function importJsonl(text: string, docs: readonly Document[], fileName: string): ImportResult {
  const skipped: string[] = [];
  const questions: LabelledQuestion[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const n = i + 1;
    if (!raw.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      skipped.push(`line ${n}: not valid JSON`);
      return;
    }
    const parsed = line.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      skipped.push(`line ${n}: "${issue.path.join('.') || 'line'}" ${issue.message}`);
      return;
    }
    const row = parsed.data;
    // A passage no longer in the documents is dropped from the source (it is only provenance).
    const passage = row.source?.passage?.map((p) => resolveSpan(docs, p)).flatMap((r) => ('span' in r ? [r.span] : []));
    // Where the document of an answer is gone, the document its (long, distinctive) passage is in is the place to look.
    const passageDoc = passage?.length ? docs.find((d) => d.id === passage[0]!.doc) : undefined;
    const q: LabelledQuestion = {
      id: row.id ?? `line-${n}`,
      question: row.question,
      answers: [],
      source: row.source
        ? { kind: row.source.kind, ...(row.source.model ? { model: row.source.model } : {}), ...(passage?.length ? { passage } : {}), ...(row.source.file ? { file: row.source.file } : {}) }
        : { kind: 'imported', file: fileName },
      ...(row.type ? { type: row.type } : {}),
      ...(row.copyShare !== undefined ? { copyShare: row.copyShare } : {}),
      ...(row.updated ? { updated: row.updated } : {}),
    };
    const missing = new Set(row.missingDocs ?? []);
    let problems = 0;
    for (const a of row.answers) {
      const r = resolveSpan(docs, a, passageDoc);
      if ('span' in r) {
        q.answers.push(r.span);
        if (r.note) skipped.push(`line ${n}: answer "${clip(r.span.text, 40)}": ${r.note}`);
      } else if ('missingDoc' in r) {
        missing.add(r.missingDoc);
        // A question that needs every answer keeps each one: the span stays as given, so the question
        // comes back whole when its document is added again (without offsets it cannot, and is not imported).
        if (row.needs === 'all') {
          if (a.start !== undefined && a.end !== undefined && a.start < a.end && a.text) q.answers.push({ doc: a.doc, start: a.start, end: a.end, text: a.text });
          else problems++;
        }
      } else {
        problems++;
        skipped.push(`line ${n}: answer ${r.problem}; left out`);
      }
    }
    for (const d of row.documents ?? []) {
      if (docs.some((x) => x.id === d)) (q.documents ??= []).push(d);
      else missing.add(d);
    }
    if (missing.size) {
      q.missingDocs = [...missing];
      skipped.push(`line ${n}: no document ${q.missingDocs.map((d) => `"${clip(d, 40)}"`).join(', ')} among the current ones; kept, marked as missing its document`);
    }
    if (row.unanswerable) q.unanswerable = true;
    if (!q.unanswerable && !q.answers.length && !q.documents?.length && !missing.size) {
      skipped.push(`line ${n}: ${problems ? 'none of its answers is in the documents' : 'no answers and not marked unanswerable'}; not imported`);
      return;
    }
    if (row.needs === 'all' && !q.unanswerable) {
      // Without one of the answers it needs, the question would be found too easily.
      if (problems) {
        skipped.push(`line ${n}: it needs all its answers and ${problems === 1 ? 'one is' : `${problems} are`} not in the documents; not imported`);
        return;
      }
      // Counted from the line: an answer into a missing document is still one of its parts.
      if (answerParts(row) > 1) q.needs = 'all';
    }
    questions.push(q);
  });
  uniqueIds(questions, skipped);
  return { set: { questions }, skipped };
}
