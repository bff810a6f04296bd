import { DEFAULT_PROMPTS } from '../../core/questions/prompts';
import type { QuestionType } from '../../core/questions/types';
import { EndpointGenerator } from '../../state/generators';
import { isTestGenerator, useGeneration } from '../../state/generation';
import {
  cancelQuestionRun,
  firstMessages,
  openQuestionGen,
  pauseQuestionRun,
  QUESTION_TYPES,
  setQuestionSettings,
  settingsProblems,
  startQuestionRun,
  useQuestionGen,
  type QuestionGenSettings,
} from '../../state/question-generation';
import { useCorpus } from '../../state/stores';
import type { DocSummary } from '../../worker/protocol';

/** One empty list: a selector must return the same value when nothing changed (a new [] re-renders forever). */
const NO_DOCS: DocSummary[] = [];
import { GenerationReview, seconds } from './GenerationReview';
import './questions.css';
import { RunControls } from '../generate/RunControls';

const KIND_TEXT: Record<QuestionType, string> = {
  specific: 'Specific — one fact of one passage',
  abstract: 'Abstract — paraphrased, not the passage’s words',
  'multi-passage': 'Multi-passage — needs two passages of one document',
};

/** A number field that keeps what is typed within [min, max]. */
function NumberField({ label, value, min, max, step = 1, onChange }: { label: string; value: number; min: number; max: number; step?: number; onChange: (v: number) => void }) {
  return (
    <label className="g-field">
      <span>{label}</span>
      <input type="number" min={min} max={max} step={step} value={value} onChange={(e) => onChange(Math.max(min, Math.min(max, Number(e.target.value) || 0)))} />
    </label>
  );
}

function Documents({ s }: { s: QuestionGenSettings }) {
  const docs = useCorpus((st) => st.status?.docs ?? NO_DOCS);
  const all = s.documents.length === 0;
  return (
    <fieldset className="g-group q-docs">
      <legend>Documents</legend>
      <label className="g-check">
        <input type="checkbox" checked={all} onChange={(e) => setQuestionSettings((x) => void (x.documents = e.target.checked ? [] : docs.map((d) => d.id)))} />
        All {docs.length} documents
      </label>
      {!all && (
        <ul className="q-doclist" aria-label="Documents to ask about">
          {docs.map((d) => (
            <li key={d.id}>
              <label className="g-check">
                <input
                  type="checkbox"
                  checked={s.documents.includes(d.id)}
                  onChange={(e) => setQuestionSettings((x) => void (x.documents = e.target.checked ? [...x.documents, d.id] : x.documents.filter((id) => id !== d.id)))}
                />
                {d.title}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

function Prompts({ s }: { s: QuestionGenSettings }) {
  return (
    <details className="a-details q-prompts">
      <summary>Prompts: see and edit</summary>
      <p className="g-small">
        Placeholders: {'{passage}'} (or {'{passage_a}'} and {'{passage_b}'} for multi-passage), {'{title}'}, {'{language}'}. An endpoint also gets a JSON schema (structured outputs); the reply is parsed tolerantly either way.
      </p>
      {s.kinds.map((k) => (
        <fieldset key={k} className="g-group">
          <legend>{k}</legend>
          <label className="g-field">
            <span>System message ({k})</span>
            <textarea rows={3} value={s.prompts[k].system} onChange={(e) => setQuestionSettings((x) => void (x.prompts[k].system = e.target.value))} />
          </label>
          <label className="g-field">
            <span>User message ({k})</span>
            <textarea rows={6} value={s.prompts[k].user} onChange={(e) => setQuestionSettings((x) => void (x.prompts[k].user = e.target.value))} />
          </label>
          <button type="button" className="g-link" onClick={() => setQuestionSettings((x) => void (x.prompts[k] = structuredClone(DEFAULT_PROMPTS[k])))}>
            Reset the {k} prompt
          </button>
        </fieldset>
      ))}
    </details>
  );
}

/** What the run will do, stated before it starts: passages, calls, tokens (endpoint), time, where text goes. */
function Statement() {
  const { plan, settings } = useQuestionGen();
  const generator = useGeneration((st) => st.generator);
  if (plan.state === 'loading' && !plan.plan) return <p className="g-small">Sampling passages…</p>;
  if (plan.state === 'failed') return <p className="g-error">No passages: {plan.error}</p>;
  const p = plan.plan;
  if (!p) return null;
  const docs = new Set(p.items.flatMap((i) => i.passages.map((x) => x.docId))).size;
  const endpoint = generator instanceof EndpointGenerator;
  const messages = firstMessages(p, settings);
  return (
    <div className="q-statement" aria-label="Before starting">
      <p>
        {p.passages} passages from {docs} document{docs === 1 ? '' : 's'} (seed {settings.seed}) · {p.calls} call{p.calls === 1 ? '' : 's'} to the generator, one per question
        {endpoint ? ` · about ${(p.promptTokens + p.replyTokens).toLocaleString('en')} tokens (${p.promptTokens.toLocaleString('en')} sent, ${p.replyTokens.toLocaleString('en')} replied)` : ''} · about{' '}
        {seconds(p.seconds * 1000)} at an {p.rate} speed of a small local model (an endpoint on a GPU is faster).
      </p>
      {p.notes.map((n) => (
        <p key={n} className="g-warn">
          {n}
        </p>
      ))}
      {generator && messages && <p className="g-small a-where">{generator.describe(messages)}</p>}
    </div>
  );
}

function Progress() {
  const run = useQuestionGen((st) => st.run);
  if (!run || (run.state !== 'running' && run.state !== 'paused')) return null;
  const p = run.progress;
  return (
    <div className="q-progress" aria-label="Generation progress">
      <div className="g-progress">
        <progress max={p?.total || 1} value={p?.done ?? 0} aria-label="Questions asked" />
        <span className="small" role="status">
          {run.state === 'paused' ? 'Paused · ' : ''}
          {p ? `${p.done} of ${p.total} asked · ${p.kept} passed the filters · ${p.done - p.kept} rejected · ${seconds(p.elapsedMs)}${p.leftMs !== null ? `, about ${seconds(p.leftMs)} left` : ''}` : 'Asking the first question…'}
        </span>
      </div>
      {run.retry && <p className="g-small">{run.retry}</p>}
      <RunControls paused={run.state === 'paused'} onPause={pauseQuestionRun} onCancel={cancelQuestionRun} />
    </div>
  );
}

/**
 * Generate questions: with the generator chosen in the Generator panel, ask for questions on
 * sampled passages, see what it will cost and where text goes before starting, follow the
 * run, and review kept and rejected questions before they join the question set.
 */
export function GenerateDialog() {
  const { open, settings, plan, run } = useQuestionGen();
  const generator = useGeneration((st) => st.generator);
  const testModel = useGeneration((st) => st.settings.kind === 'local' && isTestGenerator(st.settings.local.model));
  const hasDocs = useCorpus((st) => (st.status?.docs.length ?? 0) > 0);
  const busy = run?.state === 'running' || run?.state === 'paused';
  // A finished run's questions are not replaced by the next run before the user chose.
  const unadded = Boolean(run && !busy && !run.added && run.passed.length > 0);
  if (!open) {
    return (
      <button type="button" className="q-open" onClick={() => openQuestionGen(true)} disabled={!hasDocs}>
        Generate questions…
      </button>
    );
  }
  const problems = settingsProblems(settings);
  const kinds = (k: QuestionType, on: boolean) => setQuestionSettings((x) => void (x.kinds = on ? QUESTION_TYPES.filter((t) => t === k || x.kinds.includes(t)) : x.kinds.filter((t) => t !== k)));
  return (
    <dialog open className="q-dialog" aria-label="Generate questions">
      <div className="q-head">
        <h3>Generate questions</h3>
        <button type="button" className="g-link" onClick={() => openQuestionGen(false)} disabled={busy}>
          Close
        </button>
      </div>
      {generator ? (
        <p className="g-small">
          Generator: <strong>{generator.label}</strong> (chosen in the Generator panel)
        </p>
      ) : (
        <p className="g-warn">Choose a generator in the Generator panel first (load an in-browser model, or set an endpoint’s base URL and model).</p>
      )}
      {generator && testModel && (
        <p className="g-test">TEST MODEL: it writes one fixed question whatever the passage — for testing the pipeline, not for a real set.</p>
      )}
      <fieldset className="g-group" disabled={busy}>
        <legend>What to ask</legend>
        <div className="g-grid">
          <NumberField label="How many questions" value={settings.n} min={1} max={2000} onChange={(v) => setQuestionSettings((x) => void (x.n = v))} />
          <NumberField label="Seed" value={settings.seed} min={0} max={2 ** 31 - 1} onChange={(v) => setQuestionSettings((x) => void (x.seed = v))} />
        </div>
        <div className="g-kinds" role="group" aria-label="Kinds of question">
          {QUESTION_TYPES.map((k) => (
            <label key={k} className="g-check">
              <input type="checkbox" checked={settings.kinds.includes(k)} onChange={(e) => kinds(k, e.target.checked)} />
              {KIND_TEXT[k]}
            </label>
          ))}
        </div>
        <Documents s={settings} />
        <details className="a-details">
          <summary>Filters</summary>
          <div className="g-grid">
            <NumberField label="Fuzzy answer match, lowest token F1" value={settings.fuzzy} min={0} max={1} step={0.05} onChange={(v) => setQuestionSettings((x) => void (x.fuzzy = v))} />
            <NumberField label="Near-duplicate above word overlap" value={settings.duplicate} min={0} max={1} step={0.05} onChange={(v) => setQuestionSettings((x) => void (x.duplicate = v))} />
          </div>
          <p className="g-small">The copy-share threshold (default {Math.round(settings.copyShare * 100)} %) is set in the review, against the run’s distribution.</p>
        </details>
        <Prompts s={settings} />
      </fieldset>
      {problems.map((p) => (
        <p key={p} className="g-error">
          {p}
        </p>
      ))}
      {!busy && <Statement />}
      {!busy && (
        <button type="button" disabled={!generator || problems.length > 0 || plan.state !== 'ready' || !plan.plan?.items.length || unadded} onClick={() => void startQuestionRun()}>
          Start generating
        </button>
      )}
      {unadded && <p className="g-small">Add this run’s questions to the set, or discard them, before starting another run.</p>}
      <Progress />
      <GenerationReview />
    </dialog>
  );
}
