import { AnswerResults } from './AnswerResults';
import { AnswerRun } from './AnswerRun';
import { ImportPanel } from './ImportPanel';
import { QuestionSetPanel } from './QuestionSetPanel';
import { QuestionSetTools } from '../questions/QuestionSetTools';
import { Results } from './Results';
import { RunSettings } from './RunSettings';
import './eval.css';

/**
 * The evaluation lab: the corpus's question set (or an imported labelled set), choose what to sweep, run it with progress,
 * then read the recommendation, charts, best-point table, exports and per-question replays; with
 * "Judge by the answer", answer every point's context with the generator and read the same by the answers.
 */
export function EvalLab() {
  return (
    <section className="eval-lab" aria-label="Evaluation lab">
      <QuestionSetPanel />
      <QuestionSetTools />
      <ImportPanel />
      <RunSettings />
      <Results />
      <AnswerRun />
      <AnswerResults />
    </section>
  );
}
