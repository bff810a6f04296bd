import { ImportPanel } from './ImportPanel';
import { QuestionSetPanel } from './QuestionSetPanel';
import { QuestionSetTools } from '../questions/QuestionSetTools';
import { Results } from './Results';
import { RunSettings } from './RunSettings';
import './eval.css';

/**
 * The evaluation lab: the corpus's question set (or an imported labelled set), choose what to sweep, run it with progress,
 * then read the recommendation, charts, best-point table, exports and per-question replays.
 */
export function EvalLab() {
  return (
    <section className="eval-lab" aria-label="Evaluation lab">
      <QuestionSetPanel />
      <QuestionSetTools />
      <ImportPanel />
      <RunSettings />
      <Results />
    </section>
  );
}
