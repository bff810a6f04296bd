/**
 * Simple labelled sets a user writes by hand: JSONL or CSV rows of `question, answer`
 * (answer text) or `question, document` (the gold document's file name or title),
 * judged against the current corpus. Bad rows are reported by line; the rest is used.
 */
import Papa from 'papaparse';
import type { Document } from '../types';
import { clean } from '../util/clean-text';
import { DatasetError, type EvalQuestion, type EvalSet, type Target } from './dataset';
import { stripBom } from './fields';

interface RawRow {
  line: number;
  question?: unknown;
  answer?: unknown;
  document?: unknown;
}

function parseJsonl(text: string, skipped: string[]): RawRow[] {
  const rows: RawRow[] = [];
  stripBom(text).split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const o = JSON.parse(line) as Record<string, unknown> | null;
      if (!o || typeof o !== 'object' || Array.isArray(o)) {
        skipped.push(`line ${i + 1}: not a JSON object`);
        return;
      }
      rows.push({ line: i + 1, question: o.question ?? o.query, answer: o.answer ?? o.answers, document: o.document ?? o.doc ?? o.gold_document });
    } catch {
      skipped.push(`line ${i + 1}: not valid JSON`);
    }
  });
  return rows;
}

function parseCsv(text: string, skipped: string[]): RawRow[] {
  const parsed = Papa.parse<Record<string, string>>(stripBom(text), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim().toLowerCase() });
  for (const e of parsed.errors) skipped.push(`line ${(e.row ?? 0) + 2}: ${e.message}`);
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('question') && !fields.includes('query')) throw new DatasetError('the CSV needs a header row with a "question" column, and "answer" or "document"');
  return parsed.data.map((r, i) => ({ line: i + 2, question: r.question ?? r.query, answer: r.answer, document: r.document ?? r.doc }));
}

/** Every occurrence of `needle` in `text`, case-insensitive. */
function occurrences(text: string, needle: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const hay = text.toLowerCase();
  const n = needle.toLowerCase();
  for (let i = hay.indexOf(n); i >= 0; i = hay.indexOf(n, i + 1)) out.push({ start: i, end: i + n.length });
  return out;
}

/**
 * Reads a JSONL or CSV labelled set against `docs` (the current corpus). An answer is
 * judged found where its text occurs; a gold document is matched by file name or title.
 */
export function readSimpleSet(text: string, fileName: string, docs: Document[]): EvalSet {
  const skipped: string[] = [];
  const isJsonl = /\.jsonl?$/i.test(fileName) || text.trimStart().startsWith('{');
  const rows = isJsonl ? parseJsonl(text, skipped) : parseCsv(text, skipped);
  if (!docs.length) throw new DatasetError('this set has only questions: add the documents it is about first');
  const questions: EvalQuestion[] = [];
  for (const r of rows) {
    if (r.question !== undefined && r.question !== null && typeof r.question !== 'string') {
      skipped.push(`line ${r.line}: "question" is ${typeof r.question}, not text`);
      continue;
    }
    const question = typeof r.question === 'string' ? clean(r.question).trim() : '';
    if (!question) {
      skipped.push(`line ${r.line}: no question`);
      continue;
    }
    const rawAnswers = Array.isArray(r.answer) ? r.answer : r.answer === undefined || r.answer === null ? [] : [r.answer];
    const badAnswer = rawAnswers.find((a) => typeof a !== 'string');
    if (badAnswer !== undefined) {
      skipped.push(`line ${r.line}: "answer" holds ${badAnswer === null ? 'null' : typeof badAnswer}, not text`);
      continue;
    }
    const answers = (rawAnswers as string[]).map((a) => clean(a).trim()).filter((a) => a !== '');
    const docName = typeof r.document === 'string' ? clean(r.document).trim() : '';
    const targets: Target[] = [];
    if (answers.length) {
      for (const d of docs) {
        const spans = answers.flatMap((a) => occurrences(d.text, a));
        if (spans.length) targets.push({ doc: d.id, grade: 1, spans });
      }
      if (!targets.length) {
        skipped.push(`line ${r.line}: the answer "${answers[0]!.slice(0, 60)}" does not occur in any document`);
        continue;
      }
    } else if (docName) {
      const key = docName.toLowerCase();
      const d = docs.find((x) => x.meta.fileName.toLowerCase() === key || x.title.toLowerCase() === key || x.id === docName);
      if (!d) {
        skipped.push(`line ${r.line}: no document named "${docName.slice(0, 60)}" in the corpus`);
        continue;
      }
      targets.push({ doc: d.id, grade: 1 });
    } else {
      skipped.push(`line ${r.line}: needs an answer or a document`);
      continue;
    }
    questions.push({ id: `line-${r.line}`, question, answers: answers.length ? answers : [], targets });
  }
  if (!questions.length) throw new DatasetError(`no usable row (${skipped.slice(0, 3).join('; ')})`);
  return { name: fileName, docs: [], questions, skipped };
}
