/**
 * BEIR: `queries.jsonl` ({_id, text}), qrels TSV (query-id, corpus-id, score) over the lab's
 * document ids, and `corpus.jsonl` ({_id, title, text}) of the lab's documents. Document-level:
 * a question's relevant documents are those its answers lie in. Three strings; the page zips them.
 */
import type { Document } from '../../types';
import type { LabelledQuestion, QuestionSet } from '../types';
import { clip, findDocument, uniqueIds, type ImportResult } from './resolve';
import type { ExportResult } from './squad';

export interface BeirExport {
  corpus: string;
  queries: string;
  qrels: string;
  notes: string[];
}

const relevantDocs = (q: LabelledQuestion) => [...new Set([...q.answers.map((a) => a.doc), ...(q.documents ?? [])])];

export function exportBeir(set: QuestionSet, docs: readonly Document[]): BeirExport {
  const notes: string[] = [];
  const known = new Set(docs.map((d) => d.id));
  const queries: string[] = [];
  const qrels = ['query-id\tcorpus-id\tscore'];
  for (const q of set.questions) {
    const rel = relevantDocs(q).filter((d) => known.has(d));
    if (q.unanswerable || !rel.length) {
      notes.push(`question ${q.id}: ${q.unanswerable ? 'unanswerable' : 'its document is not among the current ones'}; BEIR has no relevant document for it, left out`);
      continue;
    }
    queries.push(JSON.stringify({ _id: q.id, text: q.question }));
    for (const d of rel) qrels.push(`${q.id}\t${d}\t1`);
  }
  const corpus = docs.map((d) => JSON.stringify({ _id: d.id, title: d.title, text: d.text }));
  const lines = (a: string[]) => (a.length ? `${a.join('\n')}\n` : '');
  return { corpus: lines(corpus), queries: lines(queries), qrels: lines(qrels), notes };
}

/**
 * BEIR files onto `docs`: a corpus id that is a current document's id is taken as is; else its
 * corpus entry's title (or its text) finds the document. Questions get `documents`, not spans.
 */
export function importBeir(files: { queries: string; qrels: string; corpus?: string }, docs: readonly Document[], fileName: string): ImportResult {
  const skipped: string[] = [];
  const corpus = new Map<string, { title?: string; text?: string }>();
  (files.corpus ?? '').split(/\r?\n/).forEach((l, i) => {
    if (!l.trim()) return;
    try {
      const o = JSON.parse(l) as { _id?: unknown; title?: unknown; text?: unknown };
      corpus.set(String(o._id), { title: typeof o.title === 'string' ? o.title : undefined, text: typeof o.text === 'string' ? o.text : undefined });
    } catch {
      skipped.push(`corpus line ${i + 1}: not valid JSON`);
    }
  });
  const mapDoc = (id: string): Document | undefined => {
    const direct = docs.find((d) => d.id === id);
    if (direct) return direct;
    const entry = corpus.get(id);
    return findDocument(docs, entry?.title) ?? (entry?.text ? docs.find((d) => d.text === entry.text || d.text.includes(entry.text!)) : undefined);
  };
  const rel = new Map<string, Set<string>>();
  const missing = new Map<string, Set<string>>();
  files.qrels.split(/\r?\n/).forEach((l, i) => {
    const cols = l.trim().split('\t');
    if (!l.trim() || (i === 0 && /query/i.test(cols[0] ?? ''))) return;
    const [q, d, s] = cols.length >= 3 ? cols : l.trim().split(/\s+/);
    if (!q || !d || !Number.isFinite(Number(s))) {
      skipped.push(`qrels line ${i + 1}: expected query-id, corpus-id, score`);
      return;
    }
    if (Number(s) <= 0) return;
    const doc = mapDoc(d);
    const into = doc ? rel : missing;
    if (!into.has(q)) into.set(q, new Set());
    into.get(q)!.add(doc ? doc.id : d);
  });
  const questions: LabelledQuestion[] = [];
  files.queries.split(/\r?\n/).forEach((l, i) => {
    if (!l.trim()) return;
    let o: { _id?: unknown; text?: unknown };
    try {
      o = JSON.parse(l);
    } catch {
      skipped.push(`queries line ${i + 1}: not valid JSON`);
      return;
    }
    const id = String(o._id ?? '');
    const text = typeof o.text === 'string' ? o.text.trim() : '';
    if (!id || !text) {
      skipped.push(`queries line ${i + 1}: needs "_id" and "text"`);
      return;
    }
    const found = [...(rel.get(id) ?? [])];
    const lost = [...(missing.get(id) ?? [])];
    if (!found.length && !lost.length) {
      skipped.push(`queries line ${i + 1}: query ${id} has no relevance judgement in the qrels; not imported`);
      return;
    }
    const q: LabelledQuestion = { id, question: text, answers: [], source: { kind: 'imported', file: fileName }, ...(found.length ? { documents: found } : {}) };
    if (lost.length) {
      q.missingDocs = lost;
      skipped.push(`queries line ${i + 1}: query ${id}: no current document for ${lost.map((d) => `"${clip(d, 40)}"`).join(', ')}; kept, marked as missing it`);
    }
    questions.push(q);
  });
  uniqueIds(questions, skipped);
  return { set: { questions }, skipped };
}

export type { ExportResult };
