import { DocumentBuilder } from '../documents/builder';
import type { Document } from '../types';
import { clean } from '../util/clean-text';
import { DatasetError, type EvalQuestion, type EvalSet } from './dataset';
import { FieldError, idField, stripBom, textField } from './fields';

export interface BeirFiles {
  corpus: string;
  queries: string;
  /** TSV with a header: query-id, corpus-id, score. */
  qrels: string;
}

/** JSONL rows with their line numbers (a byte-order mark is not part of the first line). */
function parseJsonl(text: string, what: string, skipped: string[]): { line: number; row: Record<string, unknown> }[] {
  const rows: { line: number; row: Record<string, unknown> }[] = [];
  stripBom(text).split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const row: unknown = JSON.parse(line);
      if (row && typeof row === 'object' && !Array.isArray(row)) rows.push({ line: i + 1, row: row as Record<string, unknown> });
      else skipped.push(`${what} line ${i + 1}: not a JSON object`);
    } catch {
      skipped.push(`${what} line ${i + 1}: not valid JSON`);
    }
  });
  return rows;
}

/**
 * A BEIR folder (corpus.jsonl, queries.jsonl, qrels/*.tsv): each corpus entry becomes a
 * document (title as its heading, text below it), each query with qrels a question
 * whose targets are its relevant documents with their grades. Bad lines are skipped
 * and reported by line number.
 */
export function readBeir(files: BeirFiles, options: { name?: string; language?: string; limitQueries?: number } = {}): EvalSet {
  const skipped: string[] = [];
  const qrels = new Map<string, Map<string, number>>();
  stripBom(files.qrels).split('\n').forEach((line, i) => {
    const cols = clean(line.trim()).split(/\t/);
    if (!line.trim() || (i === 0 && /query/i.test(cols[0] ?? ''))) return;
    const [q, d, s] = cols;
    const grade = Number(s);
    if (!q || !d || !Number.isFinite(grade)) {
      skipped.push(`qrels line ${i + 1}: expected query-id, corpus-id, score`);
      return;
    }
    if (grade <= 0) return;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, grade);
  });
  if (!qrels.size) throw new DatasetError('the qrels file has no relevance judgements');
  const docs: Document[] = [];
  const docLine = new Map<string, number>();
  for (const { line, row } of parseJsonl(files.corpus, 'corpus', skipped)) {
    let id: string;
    let text: string;
    let title: string;
    try {
      id = idField(row._id, '_id');
      text = textField(row.text, 'text');
      title = row.title === undefined || row.title === null ? '' : textField(row.title, 'title');
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      skipped.push(`corpus line ${line}: ${e.message}`);
      continue;
    }
    if (!id) {
      skipped.push(`corpus line ${line}: empty "_id"`);
      continue;
    }
    // A second document with the same id would be dropped by the corpus without a word: said here.
    const first = docLine.get(id);
    if (first !== undefined) {
      skipped.push(`corpus line ${line}: duplicate _id "${id.slice(0, 60)}" (line ${first} kept)`);
      continue;
    }
    const b = new DocumentBuilder();
    if (title.trim()) b.heading(1, title);
    b.block(text);
    if (b.length === 0) continue;
    docLine.set(id, line);
    docs.push(b.build({ id, title: title || id, language: options.language, meta: { fileName: id, size: text.length, format: 'txt' } }));
  }
  if (!docs.length) throw new DatasetError('the corpus file has no usable documents');
  const known = new Set(docs.map((d) => d.id));
  const questions: EvalQuestion[] = [];
  const queryLine = new Map<string, number>();
  for (const { line, row } of parseJsonl(files.queries, 'queries', skipped)) {
    let id: string;
    let text: string;
    try {
      id = idField(row._id, '_id');
      text = textField(row.text, 'text');
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      skipped.push(`queries line ${line}: ${e.message}`);
      continue;
    }
    const rel = qrels.get(id);
    if (!rel) continue;
    // Evaluated once: a repeated query id would count its question twice.
    const first = queryLine.get(id);
    if (first !== undefined) {
      skipped.push(`queries line ${line}: duplicate _id "${id.slice(0, 60)}" (line ${first} kept)`);
      continue;
    }
    queryLine.set(id, line);
    const targets = [...rel].filter(([d]) => known.has(d)).map(([doc, grade]) => ({ doc, grade }));
    if (!targets.length) {
      skipped.push(`query ${id}: none of its relevant documents is in the corpus`);
      continue;
    }
    questions.push({ id, question: text, answers: [], targets });
    if (options.limitQueries && questions.length >= options.limitQueries) break;
  }
  if (!questions.length) throw new DatasetError('no query has relevance judgements in the qrels file');
  return { name: options.name ?? 'beir', docs, questions, skipped };
}
