import { GenerateDialog } from './GenerateDialog';
import { QuestionSetFiles } from './QuestionSetFiles';
import './questions.css';

/** Beside the question set in the Evaluate tab: generate questions with a model, and export or import the set. */
export function QuestionSetTools() {
  return (
    <section className="panel q-tools" aria-label="Make and move question sets">
      <GenerateDialog />
      <QuestionSetFiles />
    </section>
  );
}
