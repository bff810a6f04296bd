/**
 * The corpus's question set, held by the lab worker next to the corpus and stored with it.
 *
 * ── For the other engineers (generate dialog, import) ──────────────────────────────────
 * Add questions through the worker RPC `questionsAdd` (src/worker/question-protocol.ts):
 *   worker.request('questionsAdd', { questions: NewQuestion[], run?: GenerationRun })
 * → { set, added: ids, skipped: lines }. Many at once is one request (one store write).
 * Give `source` ({kind: 'generated', model, passage} / {kind: 'imported', file}); ids are
 * optional (one is made when missing or taken). A span outside its document, or whose text
 * differs from the document at that range, skips its question with one line (the others are
 * kept); a span into a document not in the corpus keeps the question with `missingDocs`.
 * `questionsList`, `questionsUpdate` and `questionsDelete` read and change the set; the page's
 * store for it is src/state/question-set.ts (useQuestionSet, refreshQuestions()).
 * ────────────────────────────────────────────────────────────────────────────────────────
 *
 * Questions are never dropped because a document left the corpus: they say which documents
 * are missing (and come back whole when the same document is added again: ids are content hashes).
 */
import { normalNeeds } from '../core/questions/needs';
import type { GenerationRun, LabelledQuestion, QuestionSet } from '../core/questions/types';
import type { Document } from '../core/types';
import type { NewQuestion, QuestionSetState, QuestionsAddResult } from './question-protocol';

const spaces = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Why a question cannot be kept as given, or null; `docs` are the corpus's documents by id. */
export function questionProblem(q: NewQuestion, docs: ReadonlyMap<string, Document>): string | null {
  if (typeof q.question !== 'string' || !q.question.trim()) return 'it has no question text';
  if (!Array.isArray(q.answers)) return 'its answers are not a list';
  if (q.documents !== undefined && (!Array.isArray(q.documents) || q.documents.some((d) => typeof d !== 'string'))) return 'its documents are not a list of document ids';
  if (!q.unanswerable && q.answers.length === 0 && !q.documents?.length) return 'it has neither an answer span, nor relevant documents, nor "unanswerable"';
  if (q.needs !== undefined && q.needs !== 'all') return 'its "needs" is neither "all" nor absent (any one answer)';
  for (const a of q.answers) {
    if (!a || typeof a.doc !== 'string' || !Number.isInteger(a.start) || !Number.isInteger(a.end) || a.start < 0 || a.end <= a.start) {
      return 'an answer span is not a document id with a character range (start < end)';
    }
    const doc = docs.get(a.doc);
    if (!doc) continue; // kept, and says the document is missing
    if (a.end > doc.text.length) return `an answer span (${a.start}–${a.end}) falls outside "${doc.title}" (${doc.text.length} characters)`;
    if (spaces(doc.text.slice(a.start, a.end)) !== spaces(String(a.text ?? ''))) return `an answer span's text differs from "${doc.title}" at ${a.start}–${a.end}`;
  }
  return null;
}

/** The documents a question points into that are not in the corpus (sorted, each once). */
export function missingDocsOf(q: Pick<LabelledQuestion, 'answers' | 'documents'>, docIds: ReadonlySet<string>): string[] {
  return [...new Set([...q.answers.map((a) => a.doc), ...(q.documents ?? [])].filter((d) => !docIds.has(d)))].sort();
}

let counter = 0;
/** A new question id: time and a counter, unique in this worker (and across reloads). */
function newId(): string {
  return `q-${Date.now().toString(36)}-${(counter++).toString(36)}`;
}

/** Where the set is kept (the lab's IndexedDB): a record per question and per run, each written when it changes. */
export interface QuestionStorage {
  put(questions: readonly LabelledQuestion[]): Promise<void>;
  delete(ids: readonly string[]): Promise<void>;
  addRun(run: GenerationRun): Promise<void>;
}

const NOT_STORED: QuestionStorage = { put: async () => undefined, delete: async () => undefined, addRun: async () => undefined };

/** The set, kept in order of addition. `docs()` gives the corpus's documents as they are now. */
export class QuestionBook {
  private questions: LabelledQuestion[] = [];
  private runs: GenerationRun[] = [];

  /** `storage` keeps each question that changes (only those: another tab's questions are never written over). */
  constructor(
    private readonly docs: () => readonly Document[],
    private readonly storage: QuestionStorage = NOT_STORED,
  ) {}

  private docMap(): Map<string, Document> {
    return new Map(this.docs().map((d) => [d.id, d]));
  }

  /** The stored set back (a reload), its missing documents checked against the corpus. */
  restore(saved: QuestionSet | null | undefined): void {
    this.questions = Array.isArray(saved?.questions) ? saved.questions.filter((q) => q && typeof q.id === 'string' && Array.isArray(q.answers)) : [];
    this.runs = Array.isArray(saved?.runs) ? saved.runs : [];
    this.reconcile();
  }

  /** After the corpus changed: missing documents rechecked, and the questions that changed stored. */
  async corpusChanged(): Promise<void> {
    const changed = this.reconcile();
    if (changed.length) await this.storage.put(changed);
  }

  /** Rechecks every question's missing documents against the corpus; returns the questions that changed. */
  reconcile(): LabelledQuestion[] {
    const ids = new Set(this.docs().map((d) => d.id));
    const changed: LabelledQuestion[] = [];
    this.questions = this.questions.map((q) => {
      const missing = missingDocsOf(q, ids);
      if (JSON.stringify(missing) === JSON.stringify(q.missingDocs ?? [])) return q;
      const { missingDocs: _old, ...rest } = q;
      const next = missing.length ? { ...rest, missingDocs: missing } : rest;
      changed.push(next);
      return next;
    });
    return changed;
  }

  state(): QuestionSetState {
    return { questions: this.questions.map((q) => ({ ...q })), runs: [...this.runs] };
  }

  get all(): readonly LabelledQuestion[] {
    return this.questions;
  }

  async add(list: readonly NewQuestion[], run?: GenerationRun): Promise<QuestionsAddResult> {
    const docs = this.docMap();
    const ids = new Set(this.questions.map((q) => q.id));
    const added: string[] = [];
    const skipped: string[] = [];
    const now = new Date().toISOString();
    list.forEach((q, i) => {
      const problem = questionProblem(q, docs);
      const label = typeof q.question === 'string' && q.question.trim() ? `"${spaces(q.question).slice(0, 80)}"` : `question ${i + 1}`;
      if (problem) {
        skipped.push(`${label} was not added: ${problem}.`);
        return;
      }
      let id = typeof q.id === 'string' && q.id ? q.id : newId();
      while (ids.has(id)) id = newId();
      ids.add(id);
      const clean = this.clean({ ...q, id, updated: q.updated ?? now }, docs);
      this.questions.push(clean);
      added.push(id);
    });
    if (added.length) await this.storage.put(this.questions.slice(-added.length));
    if (run) {
      this.runs.push(run);
      await this.storage.addRun(run);
    }
    return { set: this.state(), added, skipped };
  }

  /** Replaces the question with this id; a problem with it is thrown as one line (the set unchanged). */
  async update(q: LabelledQuestion): Promise<QuestionSetState> {
    const at = this.questions.findIndex((x) => x.id === q.id);
    if (at < 0) throw new Error('that question is no longer in the set');
    const docs = this.docMap();
    const problem = questionProblem(q, docs);
    if (problem) throw new Error(`The question was not saved: ${problem}.`);
    this.questions[at] = this.clean({ ...q, updated: new Date().toISOString() }, docs);
    await this.storage.put([this.questions[at]!]);
    return this.state();
  }

  async delete(ids: readonly string[]): Promise<QuestionSetState> {
    const gone = new Set(ids);
    this.questions = this.questions.filter((q) => !gone.has(q.id));
    await this.storage.delete([...gone]);
    return this.state();
  }

  /** The set as it is (questions and runs). */
  saved(): QuestionSet {
    return { questions: this.questions, runs: this.runs };
  }

  /** Trimmed text, spans' text taken from their documents, unanswerable with no spans, "needs all" only with two parts or more, missing documents set. */
  private clean(q: LabelledQuestion, docs: ReadonlyMap<string, Document>): LabelledQuestion {
    const { missingDocs: _m, unanswerable, documents, needs, ...rest } = q;
    const answers = unanswerable ? [] : q.answers.map((a) => ({ doc: a.doc, start: a.start, end: a.end, text: docs.get(a.doc)?.text.slice(a.start, a.end) ?? a.text }));
    const relevant = !unanswerable && documents?.length ? { documents: [...new Set(documents)] } : {};
    const rule = normalNeeds({ answers, ...relevant, ...(needs ? { needs } : {}), ...(unanswerable ? { unanswerable } : {}) });
    const missing = missingDocsOf({ answers, ...relevant }, new Set(docs.keys()));
    return { ...rest, question: q.question.trim(), answers, ...relevant, ...rule, ...(unanswerable ? { unanswerable: true } : {}), ...(missing.length ? { missingDocs: missing } : {}) };
  }
}
