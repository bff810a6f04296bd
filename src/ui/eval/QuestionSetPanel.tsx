import { useState } from 'react';
import type { LabelledQuestion } from '../../core/questions/types';
import { answerParts, needsAll } from '../../core/questions/needs';
import { deleteQuestions, editQuestion, remark, setNeeds, useQuestionSet } from '../../state/question-set';
import { useCorpus } from '../../state/stores';
import { describeSources } from '../../core/questions/evaluate-set';
import { plural } from '../results/format';

const SHOWN = 50;

function sourceWords(q: LabelledQuestion): string {
  switch (q.source.kind) {
    case 'marked':
      return 'marked by you';
    case 'generated':
      return `generated${q.source.model ? ` by ${q.source.model}` : ''}${q.type ? ` (${q.type})` : ''}`;
    case 'imported':
      return `imported${q.source.file ? ` from ${q.source.file}` : ''}`;
  }
}

/** Documents a question points into that the corpus no longer lists (none while the list is not known yet). */
function missingFrom(q: LabelledQuestion, titles: ReadonlyMap<string, string>): string[] {
  if (!titles.size) return [];
  return [...new Set([...q.answers.map((a) => a.doc), ...(q.documents ?? [])])].filter((d) => !titles.has(d));
}

/** One question: its source and answers (all needed, or any one); opened, it can be edited, re-marked, deleted or said to need all its answers. */
function QuestionItem({ q: stored, titles }: { q: LabelledQuestion; titles: ReadonlyMap<string, string> }) {
  // The worker marks missing documents once its corpus change is stored; the document list says it first.
  const gone = missingFrom(stored, titles);
  const q = gone.length && !stored.missingDocs?.length ? { ...stored, missingDocs: gone } : stored;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(q.question);
  const title = (doc: string) => titles.get(doc) ?? 'a removed document';
  return (
    <li className="qs-item">
      <details>
        <summary>
          {/* The question and its answers are text, never HTML. */}
          <span className="qs-question">{q.question}</span> <span className="qs-source small">· {sourceWords(q)}</span>
          {q.unanswerable && <span className="qs-badge"> · not answerable</span>}
          {needsAll(q) && <span className="qs-badge"> · needs all {answerParts(q)} answers</span>}
          {q.missingDocs?.length ? <span className="qs-missing"> · its document was removed</span> : null}
        </summary>
        {q.missingDocs?.length ? (
          <p className="qs-missing" role="note">
            {q.missingDocs.length === 1 ? 'A document it points into was removed' : `${q.missingDocs.length} documents it points into were removed`}: left out of evaluation until
            you re-mark it (or add the document again).
          </p>
        ) : null}
        {q.unanswerable ? (
          <p className="small">Not answerable from these documents: kept and counted, left out of retrieval metrics.</p>
        ) : !q.answers.length && q.documents?.length ? (
          <p className="small">Relevant documents (no answer span): {q.documents.map(title).join(', ')}.</p>
        ) : (
          <>
            {answerParts(q) > 1 && (
              <p className="small">
                {needsAll(q) ? 'All of these answers are needed: the question counts as found only when every one is in the context.' : 'Any one of these answers is enough.'}
              </p>
            )}
            <ol className="qs-answers" aria-label="Answers">
              {q.answers.map((a, i) => (
                <li key={i}>
                  <span className="small">{title(a.doc)}, characters {a.start.toLocaleString('en')}–{a.end.toLocaleString('en')}:</span> “{a.text}”
                </li>
              ))}
            </ol>
          </>
        )}
        {editing ? (
          <form
            className="qs-edit"
            onSubmit={(e) => {
              e.preventDefault();
              void editQuestion(stored, text).then((ok) => ok && setEditing(false));
            }}
          >
            <label>
              Question <input type="text" value={text} onChange={(e) => setText(e.currentTarget.value)} />
            </label>
            <button type="submit" className="primary">
              Save
            </button>
            <button type="button" onClick={() => (setText(q.question), setEditing(false))}>
              Cancel
            </button>
          </form>
        ) : (
          <div className="qs-actions">
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" onClick={() => remark(stored)}>
              Re-mark
            </button>
            <button type="button" className="danger" onClick={() => void deleteQuestions([stored.id])}>
              Delete
            </button>
            {!q.unanswerable && answerParts(q) > 1 && (
              <label>
                <input type="checkbox" checked={stored.needs === 'all'} onChange={(e) => void setNeeds(stored, e.currentTarget.checked ? 'all' : 'any')} /> All answers needed
              </label>
            )}
          </div>
        )}
      </details>
    </li>
  );
}

/** The corpus's question set: every question with its source and answers; the evaluation can run on it. */
export function QuestionSetPanel() {
  const set = useQuestionSet((s) => s.set);
  const error = useQuestionSet((s) => s.error);
  const docs = useCorpus((s) => s.status?.docs);
  const [all, setAll] = useState(false);
  const titles = new Map((docs ?? []).map((d) => [d.id, d.title]));
  const questions = set?.questions ?? [];
  const missing = questions.filter((q) => q.missingDocs?.length || missingFrom(q, titles).length).length;
  const shown = all ? questions : questions.slice(0, SHOWN);
  return (
    <section className="eval-step" aria-labelledby="eval-qs-title">
      <h2 id="eval-qs-title">Question set</h2>
      {!questions.length ? (
        <p className="eval-hint">
          No questions yet. In <em>Explore a question</em>, ask a question, then press <em>Mark answer</em> on a block that answers it (or select the words in the
          document view), or say it is not answerable from these documents. The set is kept with the corpus in this browser.
        </p>
      ) : (
        <>
          <p role="note" aria-label="Question set sources">
            {plural(questions.length, 'question')}: {describeSources(set!)}
            {missing > 0 ? ` · ${plural(missing, 'question')} into removed documents` : ''}
          </p>
          <ul className="qs-list" aria-label="Questions of the set">
            {shown.map((q) => (
              <QuestionItem key={`${q.id}|${q.updated ?? ''}`} q={q} titles={titles} />
            ))}
          </ul>
          {questions.length > shown.length && (
            <button type="button" className="link" onClick={() => setAll(true)}>
              Show all {questions.length.toLocaleString('en')} questions
            </button>
          )}
        </>
      )}
      {error && (
        <p className="eval-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
