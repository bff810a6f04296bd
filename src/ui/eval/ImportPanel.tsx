import { useId, useState, type ChangeEvent } from 'react';
import { importEvalSet } from '../../state/controller';
import { useEval } from '../../state/stores';
import { plural } from '../results/format';

const FORMAT_NAMES = { squad: 'SQuAD', beir: 'BEIR', simple: 'questions (JSONL/CSV)', questions: 'the question set' } as const;
const SKIPPED_SHOWN = 10;

/** Step 1: choose a labelled set; shows what was imported and what was skipped. */
export function ImportPanel() {
  const set = useEval((s) => s.set);
  const importError = useEval((s) => s.importError);
  const running = useEval((s) => s.running);
  const [reading, setReading] = useState(false);
  const hintId = useId();
  const onChange = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const files = [...(input.files ?? [])];
    if (!files.length) return;
    setReading(true);
    try {
      await importEvalSet(files);
    } catch (err) {
      useEval.setState({ importError: (err as Error).message });
    } finally {
      setReading(false);
      // Choosing the same file again imports it again.
      input.value = '';
    }
  };
  return (
    <section className="eval-step" aria-labelledby="eval-import-title">
      <h2 id="eval-import-title">1 · Import</h2>
      <div className="eval-import">
        <label className="eval-file button">
          Choose files…
          <input
            type="file"
            aria-label="Labelled set"
            aria-describedby={hintId}
            multiple
            accept=".json,.jsonl,.csv,.tsv,application/json,text/csv"
            disabled={reading || running}
            onChange={(e) => void onChange(e)}
          />
        </label>
        {reading && <span className="small">Reading the set…</span>}
      </div>
      <p id={hintId} className="eval-hint">
        A SQuAD-format <code>.json</code> (SQuAD, XQuAD, FaQuAD) brings its own articles, which replace the corpus. A <code>.jsonl</code> or <code>.csv</code> with{' '}
        <code>question,answer</code> or <code>question,document</code> columns is judged against the corpus as it is. For a BEIR folder, select{' '}
        <code>corpus.jsonl</code>, <code>queries.jsonl</code> and the qrels <code>.tsv</code> together; its documents replace the corpus. Files are read here, in
        your browser.
      </p>
      {importError && (
        <p className="eval-error" role="alert">
          {importError}
        </p>
      )}
      {set && (
        <div className="eval-set" aria-label="Imported set">
          <p>
            <strong>{set.name}</strong> · {FORMAT_NAMES[set.format]} · {plural(set.questions, 'question')}
            {set.docs > 0 ? ` · its ${plural(set.docs, 'document')} replaced the corpus` : ' · judged against the current corpus'}
          </p>
          {set.skipped.length > 0 && (
            <details className="eval-skipped">
              <summary>{plural(set.skipped.length, 'row')} skipped</summary>
              <ul>
                {set.skipped.slice(0, SKIPPED_SHOWN).map((s, i) => (
                  <li key={i}>{s}</li>
                ))}
                {set.skipped.length > SKIPPED_SHOWN && <li className="small">and {(set.skipped.length - SKIPPED_SHOWN).toLocaleString('en')} more</li>}
              </ul>
            </details>
          )}
        </div>
      )}
    </section>
  );
}
