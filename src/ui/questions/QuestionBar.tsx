import { useState } from 'react';
import { answersInWords } from '../../state/question-marks';
import { answerParts } from '../../core/questions/needs';
import { markUnanswerable, questionFor, setNeeds, useQuestionSet } from '../../state/question-set';
import { useView } from '../../state/stores';
import './questions.css';

/**
 * Under the question: whether it is in the corpus's question set and with which answers,
 * how to mark them, whether it needs all of them, and "Not answerable from these documents".
 */
export function QuestionBar({ hasBlocks }: { hasBlocks: boolean }) {
  const query = useView((s) => s.view.query.trim());
  const set = useQuestionSet((s) => s.set);
  const error = useQuestionSet((s) => s.error);
  const [busy, setBusy] = useState(false);
  if (!query || !set) return null;
  const q = questionFor(query);
  const total = set.questions.length;
  let state: string;
  if (!q) state = hasBlocks ? 'Not in your question set yet: mark the sentences that answer it (Mark answer on a block), or say it cannot be answered.' : 'Not in your question set yet.';
  else if (q.unanswerable) state = 'In your question set as not answerable from these documents.';
  else state = `In your question set with ${q.answers.length === 1 ? '1 answer' : `${q.answers.length} answers`} marked: “${answersInWords(q, 80)}”.`;
  const parts = q && !q.unanswerable ? answerParts(q) : 0;
  return (
    <>
      <div className="question-bar" role="group" aria-label="Marking answers">
        <span className="state">
          {state} <strong>{total === 1 ? '1 question' : `${total.toLocaleString('en')} questions`}</strong> in the set (Evaluate tab).
        </span>
        {q && parts > 1 && (
          <label className="needs-all">
            <input
              type="checkbox"
              checked={q.needs === 'all'}
              disabled={busy}
              onChange={(e) => {
                setBusy(true);
                void setNeeds(q, e.currentTarget.checked ? 'all' : 'any').finally(() => setBusy(false));
              }}
            />
            All {parts} answers needed (not any one)
          </label>
        )}
        {!q?.unanswerable && (
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void markUnanswerable(query).finally(() => setBusy(false));
            }}
          >
            Not answerable from these documents
          </button>
        )}
      </div>
      {error && (
        <p className="results-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
