import { useId } from 'react';
import { useQuestionSet } from '../../state/question-set';
import { useEval } from '../../state/stores';
import type { QuestionSubset } from '../../worker/question-protocol';
import { plural } from '../results/format';
import { useEvalSettings } from './settings';

const SUBSETS: { id: QuestionSubset; label: string }[] = [
  { id: 'all', label: 'all' },
  { id: 'marked', label: 'marked by you' },
  { id: 'generated', label: 'generated' },
];

/** Which questions a run measures, how many, and why it cannot run yet (or null). */
export function useQuestionChoice(): { onSet: boolean; count: number | null; problem: string | null } {
  const imported = useEval((s) => s.set);
  const set = useQuestionSet((s) => s.set);
  const { questionsFrom, subset } = useEvalSettings();
  const onSet = questionsFrom === 'set' || (questionsFrom === 'auto' && !imported);
  if (!onSet) return { onSet, count: imported?.questions ?? null, problem: imported ? null : 'Import a labelled set first.' };
  const chosen = (set?.questions ?? []).filter((q) => subset === 'all' || q.source.kind === subset);
  const scored = chosen.filter((q) => !q.unanswerable && q.answers.length && !q.missingDocs?.length).length;
  if (!set?.questions.length) return { onSet, count: 0, problem: 'Import a labelled set, or mark answers while exploring to make a question set.' };
  if (!scored) return { onSet, count: 0, problem: `No ${subset === 'all' ? '' : `${SUBSETS.find((x) => x.id === subset)!.label} `}questions with answers in the question set.` };
  return { onSet, count: scored, problem: null };
}

/** Step 2's first choice: the imported set, or the corpus's question set (all, marked or generated questions). */
export function QuestionChoice() {
  const imported = useEval((s) => s.set);
  const set = useQuestionSet((s) => s.set);
  const { questionsFrom, subset } = useEvalSettings();
  const subsetId = useId();
  const onSet = questionsFrom === 'set' || (questionsFrom === 'auto' && !imported);
  const n = set?.questions.length ?? 0;
  const unanswerable = set?.questions.filter((q) => q.unanswerable).length ?? 0;
  return (
    <fieldset>
      <legend>Questions</legend>
      <label className="eval-check">
        <input type="radio" name="eval-questions" checked={onSet} onChange={() => useEvalSettings.setState({ questionsFrom: 'set' })} />
        <span>The question set ({plural(n, 'question')})</span>
      </label>
      <label className={`eval-check${imported ? '' : ' disabled'}`}>
        <input type="radio" name="eval-questions" checked={!onSet} disabled={!imported} onChange={() => useEvalSettings.setState({ questionsFrom: 'imported' })} />
        <span>The imported set{imported ? ` (${plural(imported.questions, 'question')})` : ' (none imported)'}</span>
      </label>
      {onSet && (
        <div className="eval-field">
          <label htmlFor={subsetId}>Evaluate</label>
          <select id={subsetId} value={subset} onChange={(e) => useEvalSettings.setState({ subset: e.currentTarget.value as QuestionSubset })}>
            {SUBSETS.map((x) => (
              <option key={x.id} value={x.id}>
                {x.label} questions
              </option>
            ))}
          </select>
        </div>
      )}
      {onSet && unanswerable > 0 && <p className="eval-hint">{plural(unanswerable, 'unanswerable question')}: kept and counted, left out of retrieval metrics (nothing to retrieve).</p>}
    </fieldset>
  );
}
