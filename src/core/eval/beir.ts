import { DocumentBuilder } from '../documents/builder';
import type { Document } from '../types';
import { DatasetError, type EvalQuestion, type EvalSet } from './dataset';

export interface BeirFiles {
  corpus: string;
  queries: string;
  /** TSV with a header: query-id, corpus-id, score. */
  qrels: string;
}

function parseJsonl(text: string, what: string, skipped: string[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      rows.push(JSON.parse(line));
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
  files.qrels.split('\n').forEach((line, i) => {
    const cols = line.trim().split(/\t/);
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
  for (const row of parseJsonl(files.corpus, 'corpus', skipped)) {
    const id = typeof row._id === 'number' ? String(row._id) : row._id;
    const text = row.text;
    if (typeof id !== 'string' || !id || typeof text !== 'string') {
      skipped.push(`corpus entry ${String(id)}: needs "_id" and "text"`);
      continue;
    }
    const b = new DocumentBuilder();
    const title = typeof row.title === 'string' ? row.title : '';
    if (title.trim()) b.heading(1, title);
    b.block(text);
    if (b.length === 0) continue;
    docs.push(b.build({ id, title: title || id, language: options.language, meta: { fileName: id, size: text.length, format: 'txt' } }));
  }
  if (!docs.length) throw new DatasetError('the corpus file has no usable documents');
  const known = new Set(docs.map((d) => d.id));
  const questions: EvalQuestion[] = [];
  for (const row of parseJsonl(files.queries, 'queries', skipped)) {
    const id = String(row._id ?? '');
    const rel = qrels.get(id);
    if (!rel || typeof row.text !== 'string') continue;
    const targets = [...rel].filter(([d]) => known.has(d)).map(([doc, grade]) => ({ doc, grade }));
    if (!targets.length) {
      skipped.push(`query ${id}: none of its relevant documents is in the corpus`);
      continue;
    }
    questions.push({ id, question: row.text, answers: [], targets });
    if (options.limitQueries && questions.length >= options.limitQueries) break;
  }
  if (!questions.length) throw new DatasetError('no query has relevance judgements in the qrels file');
  return { name: options.name ?? 'beir', docs, questions, skipped };
}
