import { useId, type ReactNode } from 'react';
import type { MetricName } from '../../core/eval/sweep';
import { RETRIEVER_NAMES, RETRIEVERS, type RetrieverName } from '../../core/retrieve/retrievers';
import { STRATEGIES, strategyWords, SWEEP_AXES, type StrategyName } from '../../core/strategies/registry';
import { cancelEvaluation, runEvaluation } from '../../state/controller';
import { cancelRewrites, confirmRewrites, planEvalRewrites, useEvalTransforms } from '../../state/eval-transforms';
import { QUERY_TRANSFORMS, TRANSFORM_WORDS } from '../../core/transform/rewrites';
import { useCorpus, useEval } from '../../state/stores';
import { plural } from '../results/format';
import { METRIC_LABELS, RUN_METRICS, estimatePoints, parseBudgets, runSpec } from './analysis';
import { toggle, useEvalSettings, type EvalSettings } from './settings';
import { QuestionChoice, useQuestionChoice } from './QuestionChoice';

const set = (change: Partial<EvalSettings>) => useEvalSettings.setState(change);

function Check({ label, checked, disabled, onChange, hint }: { label: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void; hint?: ReactNode }) {
  return (
    <label className={`eval-check${disabled ? ' disabled' : ''}`}>
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />
      <span>
        {label}
        {hint && <span className="eval-check-hint"> {hint}</span>}
      </span>
    </label>
  );
}

function Progress() {
  const progress = useEval((s) => s.progress);
  const label = !progress
    ? 'Starting…'
    : `${progress.phase === 'embed' ? 'Embedding the corpus' : 'Measuring questions'}${progress.pass ? ` (${progress.pass})` : ''}: ${progress.done.toLocaleString('en')} / ${progress.total.toLocaleString('en')}`;
  return (
    <div className="eval-progress">
      <progress aria-label="Evaluation progress" max={progress?.total || 1} value={progress ? progress.done : undefined} />
      <span className="small" aria-live="polite">
        {label}
      </span>
      <button type="button" className="danger" onClick={() => cancelEvaluation()}>
        Cancel
      </button>
    </div>
  );
}

/** Before a run with query transformations: the rewrites to write, what the cache saves, where they go; then their progress. */
function RewritePlan() {
  const run = useEvalTransforms((x) => x.run);
  if (!run) return null;
  const p = run.plan;
  return (
    <div className="q-statement" aria-label="Before the query transformations">
      {run.state === 'planning' && <p className="small">Planning the rewrites…</p>}
      {run.state === 'failed' && <p className="eval-error" role="alert">{run.error}</p>}
      {p && run.state === 'ready' && (
        <>
          <p>
            {plural(p.requests, 'rewrite')} to write ({run.transforms.map((t) => TRANSFORM_WORDS[t]).join(', ')}): {p.cached} kept in this browser, <strong>{plural(p.calls, 'call')} to make</strong>
            {p.calls ? `, about ${p.promptTokens.toLocaleString('en')} prompt tokens, about ${Math.max(1, p.seconds)} s at an ${p.rate} speed` : ''}.
          </p>
          {run.where && p.calls > 0 && <p className="g-small a-where">{run.where}</p>}
        </>
      )}
      {run.state === 'writing' && (
        <div className="g-progress">
          <progress aria-label="Rewrites written" max={run.progress?.total || 1} value={run.progress?.done ?? 0} />
          <span className="small" role="status">
            Writing rewrites: {run.progress ? `${run.progress.done} of ${run.progress.total}, ${run.progress.cached} from the cache, ${run.progress.failed} failed` : 'the first call…'}
          </span>
        </div>
      )}
      <div className="g-actions">
        {run.state === 'ready' && (
          <button type="button" className="primary" onClick={() => void confirmRewrites()}>
            {p?.calls ? `Write the rewrites and run (${plural(p.calls, 'call')})` : 'Run (every rewrite is kept in this browser)'}
          </button>
        )}
        <button type="button" onClick={cancelRewrites}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** Step 2: what to sweep, its size, and the run with progress and cancel. */
export function RunSettings() {
  const s = useEvalSettings();
  const running = useEval((x) => x.running);
  const runError = useEval((x) => x.runError);
  const embedder = useCorpus((x) => x.status?.embedder);
  const reranker = useCorpus((x) => x.status?.reranker);
  const budgetsId = useId();
  const budgetsErrId = useId();
  const metricId = useId();
  // Late chunking needs a ready model that gives token vectors; otherwise the model's reason is said.
  const late = embedder?.state === 'ready' ? embedder.lateChunking : undefined;
  const available = { embedder: embedder?.state === 'ready', reranker: reranker?.state === 'ready', late: late?.available === true };
  const parsed = parseBudgets(s.budgetsText);
  const spec = runSpec({ ...s, budgets: parsed.budgets ?? [] }, available);
  // Each query transformation measures every point again.
  const points = parsed.budgets ? estimatePoints(spec) * (1 + s.transforms.length) : 0;
  const choice = useQuestionChoice();
  const problem = choice.problem
    ? choice.problem
    : !spec.strategies.length
      ? 'Choose at least one strategy.'
      : !spec.retrievers.length
        ? 'Choose at least one retriever.'
        : parsed.error
          ? 'Fix the budgets.'
          : null;
  const embedderNote =
    embedder?.state === 'loading' ? 'the embedding model is loading' : embedder?.state === 'failed' ? 'the embedding model failed to load' : 'no embedding model is loaded';
  const run = () => {
    if (problem) return;
    const chosen = choice.onSet ? { ...spec, questions: { subset: s.subset } } : spec;
    // Query transformations first need their rewrites: planned, shown, then written on confirmation.
    if (s.transforms.length) void planEvalRewrites(chosen, s.transforms);
    else void runEvaluation(chosen);
  };
  return (
    <section className="eval-step" aria-labelledby="eval-run-title">
      <h2 id="eval-run-title">2 · Run settings</h2>
      <div className="eval-settings">
        <QuestionChoice />
        <fieldset>
          <legend>Strategies</legend>
          {STRATEGIES.map((st: StrategyName) => (
            <Check key={st} label={strategyWords(st)} checked={s.strategies.includes(st)} onChange={(on) => set({ strategies: toggle(s.strategies, st, on) })} />
          ))}
        </fieldset>
        <fieldset>
          <legend>Retrievers</legend>
          {RETRIEVERS.map((r: RetrieverName) => (
            <Check
              key={r}
              label={RETRIEVER_NAMES[r].long}
              checked={s.retrievers.includes(r) && (r === 'bm25' || available.embedder)}
              disabled={r !== 'bm25' && !available.embedder}
              onChange={(on) => set({ retrievers: toggle(s.retrievers, r, on) })}
            />
          ))}
          {!available.embedder && <p className="eval-hint">Vector and hybrid need an embedding model: {embedderNote} (see Models).</p>}
        </fieldset>
        <fieldset>
          <legend>Sweep</legend>
          {SWEEP_AXES.map((a) => (
            <Check key={a.id} label={a.label} checked={s[a.id]} onChange={(on) => set({ [a.id]: on })} />
          ))}
          <Check label="RRF c × weights" checked={s.rrfGrid} onChange={(on) => set({ rrfGrid: on })} hint="(× 25 hybrid cost)" />
          <Check label="Headers off and on" checked={s.headers} onChange={(on) => set({ headers: on })} hint="(embeds twice)" />
          <Check
            label="Late chunking off and on"
            checked={s.late && available.late}
            disabled={!available.late}
            onChange={(on) => set({ late: on })}
            hint={available.late ? '(embeds the late-chunked vectors too)' : late && !late.available ? `(${late.reason})` : '(needs an embedding model)'}
          />
          <Check label="Contextual retrieval off and on" checked={s.contextual} onChange={(on) => set({ contextual: on })} hint="(the contexts written so far)" />
          <Check
            label="Rerank off and on"
            checked={s.rerank && available.reranker}
            disabled={!available.reranker}
            onChange={(on) => set({ rerank: on })}
            hint={available.reranker ? undefined : '(load a reranker)'}
          />
          <p className="eval-hint">Dimensions not swept use the current parameters.</p>
        </fieldset>
        <fieldset>
          <legend>Budgets and metric</legend>
          <div className="eval-field">
            <label htmlFor={budgetsId}>Budgets (tokens)</label>
            <input
              id={budgetsId}
              type="text"
              inputMode="numeric"
              value={s.budgetsText}
              aria-invalid={parsed.error ? true : undefined}
              aria-describedby={parsed.error ? budgetsErrId : undefined}
              onChange={(e) => set({ budgetsText: e.currentTarget.value })}
            />
            {parsed.error && (
              <span id={budgetsErrId} className="eval-field-error">
                {parsed.error}
              </span>
            )}
          </div>
          <div className="eval-field">
            <label htmlFor={metricId}>Metric</label>
            <select id={metricId} value={s.metric} onChange={(e) => set({ metric: e.currentTarget.value as MetricName })}>
              {RUN_METRICS.map((m) => (
                <option key={m} value={m}>
                  {METRIC_LABELS[m]}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
        <fieldset>
          <legend>Query transformations</legend>
          {QUERY_TRANSFORMS.filter((t) => t !== 'none').map((t) => (
            <Check key={t} label={TRANSFORM_WORDS[t]} checked={s.transforms.includes(t)} onChange={(on) => set({ transforms: toggle(s.transforms, t, on) })} />
          ))}
          <p className="eval-hint">Each beside the question as asked; the Generator panel’s generator writes every question’s rewrite once (sub-questions and the router choose among its tools).</p>
        </fieldset>
        <fieldset>
          <legend>Judge by the answer</legend>
          <Check
            label="Answer each point’s context with the generator"
            checked={s.answers}
            onChange={(on) => set({ answers: on })}
            hint="(keeps what every point hands over; after the run the page says what answering costs and waits for Start)"
          />
        </fieldset>
      </div>
      <div className="eval-run">
        <button type="button" className="primary" disabled={Boolean(problem) || running} onClick={run}>
          Run evaluation
        </button>
        <span className="small" aria-label="Estimate">
          {parsed.budgets ? `${plural(points, 'point')}` : '–'}
          {choice.count !== null && parsed.budgets ? ` × ${plural(choice.count, 'question')}` : ''}
          {spec.headers && parsed.budgets ? ' (two header passes)' : ''}
          {spec.late && parsed.budgets ? ' (late chunking off, then on)' : ''}
          {spec.contextual && parsed.budgets ? ' (contextual retrieval off, then on)' : ''}
          {problem && !running ? ` · ${problem}` : ''}
        </span>
      </div>
      <RewritePlan />
      {running && <Progress />}
      {runError && (
        <p className="eval-error" role="alert">
          {runError}
        </p>
      )}
    </section>
  );
}
