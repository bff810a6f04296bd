/**
 * SQuAD-format JSON (v2.0 shape): one article per document that has questions, its whole text
 * as one paragraph's context, answers as text + answer_start, unanswerable questions as
 * `is_impossible: true`. The file reads back here and in `eval --data` (readSquad).
 */
import type { Document } from '../../types';
import type { GoldSpan, LabelledQuestion, QuestionSet } from '../types';
import { clip, findDocument, findIn, uniqueIds, type ImportResult } from './resolve';

export interface ExportResult {
  text: string;
  /** What the format cannot carry, one line each (nothing is dropped silently). */
  notes: string[];
}

interface Qa {
  id: string;
  question: string;
  answers: { text: string; answer_start: number }[];
  is_impossible: boolean;
}

/** SQuAD JSON of the set over `docs`. Unanswerable questions go with their passage's document, else the first. */
export function exportSquad(set: QuestionSet, docs: readonly Document[]): ExportResult {
  const notes: string[] = [];
  const byDoc = new Map<string, Qa[]>();
  const add = (doc: string, qa: Qa) => byDoc.set(doc, [...(byDoc.get(doc) ?? []), qa]);
  for (const q of set.questions) {
    if (q.unanswerable) {
      const home = q.source.passage?.[0]?.doc ?? docs[0]?.id;
      if (home) add(home, { id: q.id, question: q.question, answers: [], is_impossible: true });
      continue;
    }
    const spans = q.answers.filter((a) => docs.some((d) => d.id === a.doc));
    if (!spans.length) {
      notes.push(`question ${q.id}: ${q.documents?.length ? 'relevant documents but no answer span' : 'its document is not among the current ones'}; SQuAD needs an answer in a context, left out`);
      continue;
    }
    const home = spans[0]!.doc;
    const elsewhere = spans.filter((a) => a.doc !== home);
    if (elsewhere.length) notes.push(`question ${q.id}: SQuAD keeps one context a question; its answers in other documents are left out`);
    add(home, { id: q.id, question: q.question, answers: spans.filter((a) => a.doc === home).map((a) => ({ text: a.text, answer_start: a.start })), is_impossible: false });
  }
  const data = docs.filter((d) => byDoc.has(d.id)).map((d) => ({ title: d.title, paragraphs: [{ context: d.text, qas: byDoc.get(d.id)! }] }));
  return { text: JSON.stringify({ version: 'v2.0', data }, null, 1) + '\n', notes };
}

/**
 * SQuAD JSON onto `docs`: an article's document by title (or file name), else the document
 * whose text holds its context; answers by offset when the text is there, else by search.
 */
export function importSquad(text: string, docs: readonly Document[], fileName: string): ImportResult {
  const skipped: string[] = [];
  let json: { data?: unknown };
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { set: { questions: [] }, skipped: [`${fileName}: not valid JSON (${(e as Error).message})`] };
  }
  if (!Array.isArray(json?.data)) return { set: { questions: [] }, skipped: [`${fileName}: not a SQuAD-format file (expected {"data": [articles…]})`] };
  const questions: LabelledQuestion[] = [];
  (json.data as { title?: unknown; paragraphs?: unknown }[]).forEach((article, ai) => {
    const title = typeof article?.title === 'string' ? article.title : '';
    if (!Array.isArray(article?.paragraphs)) {
      skipped.push(`article ${ai + 1}: no "paragraphs" list`);
      return;
    }
    (article.paragraphs as { context?: unknown; qas?: unknown }[]).forEach((p, pi) => {
      const where = `article ${ai + 1} paragraph ${pi + 1}`;
      const context = typeof p?.context === 'string' ? p.context : '';
      const named = findDocument(docs, title) ?? findDocument(docs, title.replace(/_/g, ' '));
      let doc = named && (named.text === context || named.text.includes(context)) ? named : undefined;
      doc ??= docs.find((d) => context && d.text.includes(context)) ?? named;
      const offset = doc && context ? doc.text.indexOf(context) : -1;
      for (const qa of Array.isArray(p?.qas) ? (p.qas as Record<string, unknown>[]) : []) {
        const id = String(qa?.id ?? `${ai + 1}-${pi + 1}-${questions.length + 1}`);
        const question = typeof qa?.question === 'string' ? qa.question.trim() : '';
        if (!question) {
          skipped.push(`${where}: question ${id} has no text`);
          continue;
        }
        const source = { kind: 'imported' as const, file: fileName };
        if (qa.is_impossible === true) {
          questions.push({ id, question, answers: [], unanswerable: true, source });
          continue;
        }
        if (!doc) {
          skipped.push(`${where}: question ${id}: no current document titled "${clip(title, 40)}" or holding its context; not imported`);
          continue;
        }
        const answers: GoldSpan[] = [];
        for (const a of Array.isArray(qa.answers) ? (qa.answers as { text?: unknown; answer_start?: unknown }[]) : []) {
          const t = typeof a?.text === 'string' ? a.text : '';
          const s = typeof a?.answer_start === 'number' && offset >= 0 ? offset + a.answer_start : undefined;
          const span = s !== undefined && doc.text.slice(s, s + t.length) === t && t ? { doc: doc.id, start: s, end: s + t.length, text: t } : findIn(doc, t, s);
          if (span && !answers.some((x) => x.start === span.start && x.end === span.end)) answers.push(span);
          else if (!span) skipped.push(`${where}: question ${id}: answer "${clip(t, 40)}" is not in "${doc.title}"; left out`);
        }
        if (!answers.length) {
          skipped.push(`${where}: question ${id}: no answer found in "${doc.title}"; not imported`);
          continue;
        }
        questions.push({ id, question, answers, source });
      }
    });
  });
  uniqueIds(questions, skipped);
  return { set: { questions }, skipped };
}
