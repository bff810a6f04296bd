/**
 * LlamaIndex's EmbeddingQAFinetuneDataset JSON: `queries` {id: question}, `corpus` {node id:
 * text}, `relevant_docs` {id: [node ids]}, `mode: "text"`. A node is a question's passage (or
 * the paragraph around a marked answer), named "<document id>:<start>-<end>" so it maps back.
 */
import type { Document } from '../../types';
import type { GoldSpan, LabelledQuestion, QuestionSet } from '../types';
import { clip, contextsOf, findAnywhere, uniqueIds, type ImportResult } from './resolve';
import type { ExportResult } from './squad';

const nodeId = (s: GoldSpan) => `${s.doc}:${s.start}-${s.end}`;

export function exportLlamaIndex(set: QuestionSet, docs: readonly Document[]): ExportResult {
  const notes: string[] = [];
  const queries: Record<string, string> = {};
  const corpus: Record<string, string> = {};
  const relevant: Record<string, string[]> = {};
  for (const q of set.questions) {
    const contexts = q.unanswerable ? [] : contextsOf(q, docs);
    if (!contexts.length) {
      notes.push(`question ${q.id}: ${q.unanswerable ? 'unanswerable' : 'no passage in the current documents'}; the dataset needs a relevant node, left out`);
      continue;
    }
    queries[q.id] = q.question;
    relevant[q.id] = contexts.map(nodeId);
    for (const c of contexts) corpus[nodeId(c)] = c.text;
  }
  return { text: JSON.stringify({ queries, corpus, relevant_docs: relevant, mode: 'text' }, null, 1) + '\n', notes };
}

/** The dataset onto `docs`: a node named "<doc>:<start>-<end>" whose text is still there, else its text found. The node is the gold span. */
export function importLlamaIndex(text: string, docs: readonly Document[], fileName: string): ImportResult {
  const skipped: string[] = [];
  let json: { queries?: unknown; corpus?: unknown; relevant_docs?: unknown };
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { set: { questions: [] }, skipped: [`${fileName}: not valid JSON (${(e as Error).message})`] };
  }
  const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
  const queries = obj(json?.queries);
  const corpus = obj(json?.corpus) ?? {};
  const relevant = obj(json?.relevant_docs) ?? {};
  if (!queries) return { set: { questions: [] }, skipped: [`${fileName}: not an EmbeddingQAFinetuneDataset (expected "queries", "corpus", "relevant_docs")`] };
  const questions: LabelledQuestion[] = [];
  for (const [id, question] of Object.entries(queries)) {
    if (typeof question !== 'string' || !question.trim()) {
      skipped.push(`query ${id}: no text`);
      continue;
    }
    const nodes = Array.isArray(relevant[id]) ? (relevant[id] as unknown[]).map(String) : [];
    const answers: GoldSpan[] = [];
    for (const node of nodes) {
      const t = corpus[node];
      if (typeof t !== 'string') {
        skipped.push(`query ${id}: node ${clip(node, 40)} is not in "corpus"`);
        continue;
      }
      const m = /^(.*):(\d+)-(\d+)$/.exec(node);
      const doc = m ? docs.find((d) => d.id === m[1]) : undefined;
      const span = doc && doc.text.slice(Number(m![2]), Number(m![3])) === t ? { doc: doc.id, start: Number(m![2]), end: Number(m![3]), text: t } : findAnywhere(docs, t, doc);
      if (span) answers.push(span);
      else skipped.push(`query ${id}: the text of node ${clip(node, 40)} is not in the documents`);
    }
    if (!answers.length) {
      skipped.push(`query ${id}: ${nodes.length ? 'none of its relevant nodes is in the documents' : 'no relevant node'}; not imported`);
      continue;
    }
    questions.push({ id, question: question.trim(), answers, source: { kind: 'imported', file: fileName } });
  }
  uniqueIds(questions, skipped);
  return { set: { questions }, skipped };
}
