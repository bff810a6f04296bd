/**
 * The page's side of the corpus's question set (held and stored by the worker: see
 * src/worker/question-set.ts): the store the Evaluate tab and the marking controls read,
 * and the actions that mark answers, say "not answerable", edit, delete and re-mark.
 */
import { create } from 'zustand';
import type { GoldSpan, LabelledQuestion } from '../core/questions/types';
import type { QuestionSetState } from '../worker/question-protocol';
import { labWorker, search, setQuery } from './controller';
import { showMap } from './map';
import { errorText } from './messages';
import { answersAfterMarking, findQuestion, needsAfterMarking, type MarkRegion } from './question-marks';
import { useCorpus, useTab } from './stores';

interface QuestionSetStore {
  set: QuestionSetState | null;
  /** The last thing that went wrong (one line), until the next change. */
  error: string | null;
  /** Lines about questions an add skipped. */
  notes: string[];
}

export const useQuestionSet = create<QuestionSetStore>(() => ({ set: null, error: null, notes: [] }));

function client() {
  const w = labWorker();
  if (!w) throw new Error('the lab has not started');
  return w;
}

async function apply(run: () => Promise<QuestionSetState>): Promise<boolean> {
  try {
    const set = await run();
    useQuestionSet.setState({ set, error: null });
    return true;
  } catch (e) {
    useQuestionSet.setState({ error: errorText(e) });
    return false;
  }
}

/** The set as the worker holds it now. */
export function refreshQuestions(): Promise<boolean> {
  return apply(() => client().request('questionsList', {}).promise);
}

// The worker keeps each question's missing documents up to date with the corpus: read the set
// again when the lab starts (or restarts after a crash) and whenever the document list changes.
let docsKey: string | null = null;
useCorpus.subscribe((s) => {
  if (!s.status) return;
  // Another tab's changes read (lab.followed moves): its questions may have changed too.
  const key = `${s.status.lab?.followed ?? 0}:${s.status.docs.map((d) => d.id).join('|')}`;
  if (key === docsKey) return;
  docsKey = key;
  void refreshQuestions();
});

/** The set's question asked with these words, if any. */
export function questionFor(text: string): LabelledQuestion | null {
  return findQuestion(useQuestionSet.getState().set?.questions ?? [], text);
}

/**
 * The user marked, inside `region` (a block, or a selection in the document view), the spans
 * that answer `question`: they replace the answers there; a new question joins the set as marked.
 * `needs`: 'all' when the user said the marks are needed together with the answers marked
 * elsewhere ("also needed"), 'any' when any one answer is enough; absent keeps the question's rule.
 */
export async function markAnswer(question: string, region: MarkRegion, chosen: GoldSpan[], text: string, from: number, needs?: 'all' | 'any'): Promise<boolean> {
  const asked = question.trim();
  if (!asked) return false;
  const existing = questionFor(asked);
  const answers = answersAfterMarking(existing?.answers ?? [], region, chosen, text, from);
  if (!answers.length) {
    // Nothing left ticked: not saved (an empty answer would mean nothing to the evaluation).
    if (existing && !existing.unanswerable) useQuestionSet.setState({ error: 'Nothing is marked now: tick at least one sentence, choose "Not answerable from these documents", or delete the question in the Evaluate tab.' });
    return false;
  }
  const rule = needsAfterMarking(existing?.unanswerable ? null : existing, answers, existing?.documents, needs);
  if (existing) {
    const { unanswerable: _u, needs: _n, ...rest } = existing;
    return apply(() => client().request('questionsUpdate', { question: { ...rest, answers, ...rule } }).promise);
  }
  return addMarked({ question: asked, answers, ...rule, source: { kind: 'marked' } });
}

/** Says whether a question needs every answer ('all') or any one of them ('any'). */
export function setNeeds(q: LabelledQuestion, needs: 'all' | 'any'): Promise<boolean> {
  const { needs: _n, ...rest } = q;
  return apply(() => client().request('questionsUpdate', { question: { ...rest, ...(needs === 'all' ? { needs } : {}) } }).promise);
}

/** "Not answerable from these documents": the question is kept with no answers (left out of retrieval metrics). */
export async function markUnanswerable(question: string): Promise<boolean> {
  const asked = question.trim();
  if (!asked) return false;
  const existing = questionFor(asked);
  if (existing) {
    const { needs: _n, ...rest } = existing;
    return apply(() => client().request('questionsUpdate', { question: { ...rest, answers: [], unanswerable: true } }).promise);
  }
  return addMarked({ question: asked, answers: [], unanswerable: true, source: { kind: 'marked' } });
}

async function addMarked(q: Omit<LabelledQuestion, 'id'>): Promise<boolean> {
  try {
    const r = await client().request('questionsAdd', { questions: [q] }).promise;
    useQuestionSet.setState({ set: r.set, error: r.skipped[0] ?? null });
    return r.added.length > 0;
  } catch (e) {
    useQuestionSet.setState({ error: errorText(e) });
    return false;
  }
}

/** Saves a question's new wording (its answers stay). */
export function editQuestion(q: LabelledQuestion, text: string): Promise<boolean> {
  if (!text.trim()) {
    useQuestionSet.setState({ error: 'A question needs words: type it, or delete the question.' });
    return Promise.resolve(false);
  }
  return apply(() => client().request('questionsUpdate', { question: { ...q, question: text.trim() } }).promise);
}

export function deleteQuestions(ids: string[]): Promise<boolean> {
  return apply(() => client().request('questionsDelete', { ids }).promise);
}

/** Re-mark: the explore view with the question asked, to mark its answers again on the blocks. */
export function remark(q: LabelledQuestion): void {
  setQuery(q.question);
  showMap(false);
  useTab.setState({ tab: 'explore' });
  void search();
}
