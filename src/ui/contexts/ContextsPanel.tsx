import { useEffect } from 'react';
import { CONTEXT_UNIT_KINDS, type ContextUnitKind } from '../../core/context/context-store';
import { checkContextPrompt } from '../../core/context/prompt';
import {
  cancelContextRun,
  contextProblems,
  pauseContextRun,
  refreshContexts,
  resetContextPrompt,
  setContextKind,
  setContextPrompt,
  startContextRun,
  useContexts,
} from '../../state/contexts';
import { EndpointGenerator } from '../../state/generators';
import { isTestGenerator, useGeneration } from '../../state/generation';
import { useCorpus, useView } from '../../state/stores';
import { setStructure } from '../../state/controller';
import './contexts.css';
import { RunControls } from '../generate/RunControls';

const KIND_WORDS: Record<ContextUnitKind, string> = { sentence: 'sentences', leaf: 'leaves', chunk: 'naive chunks', packed: 'sentence-packed chunks' };
const KIND_ONE: Record<ContextUnitKind, string> = { sentence: 'sentence', leaf: 'leaf', chunk: 'naive chunk', packed: 'sentence-packed chunk' };

const seconds = (s: number) => (s < 90 ? `${Math.round(s)} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

/** What a run will do, said before it starts: calls, tokens, time, and exactly what is sent where. */
function Statement() {
  const { plan, kind } = useContexts();
  const generator = useGeneration((s) => s.generator);
  if (!generator) return <p className="g-warn">Choose a generator in the Generator panel first (load an in-browser model, or set an endpoint’s base URL and model).</p>;
  if (plan.state === 'loading' && !plan.plan) return <p className="g-small">Counting the calls…</p>;
  if (plan.state === 'failed') return <p className="g-error">No plan: {plan.error}</p>;
  const p = plan.plan;
  if (!p) return null;
  if (!p.calls) return <p className="g-small">Every one of the {p.units} {KIND_WORDS[kind]} has a context: nothing to send.</p>;
  const endpoint = generator instanceof EndpointGenerator;
  return (
    <div className="c-statement" aria-label="Before writing contexts">
      <p>
        {p.calls} call{p.calls === 1 ? '' : 's'} to the generator, one per {KIND_ONE[kind]} without a context ({p.have} have one), in {p.documents} document{p.documents === 1 ? '' : 's'} ·
        about {p.promptTokens.toLocaleString('en')} prompt tokens (the document and the unit each call; {p.cachedPrefixTokens.toLocaleString('en')} of them repeat the document prefix of the call before,
        which an endpoint that caches prompts reads once) and {p.replyTokens.toLocaleString('en')} reply tokens · about {seconds(p.seconds)} at an {p.rate} speed of a small local model
        {endpoint ? ' (an endpoint on a GPU is faster)' : ''}.
      </p>
      {p.notes.map((n) => (
        <p key={n} className="g-warn">
          {n}
        </p>
      ))}
      {plan.first && <p className="g-small c-where">{generator.describe(plan.first.messages)}</p>}
    </div>
  );
}

function PromptEditor() {
  const prompt = useContexts((s) => s.prompt);
  const { errors, warnings } = checkContextPrompt(prompt);
  return (
    <details className="a-details c-prompt">
      <summary>Prompt: see and edit</summary>
      <p className="g-small">After Anthropic’s contextual-retrieval prompt. Placeholders: {'{document}'} (the document, or a window of it around the unit), {'{chunk}'}, {'{title}'}, {'{language}'}. The document comes first, so the calls of one document share their beginning.</p>
      <label className="g-field">
        <span>System message (optional)</span>
        <textarea rows={2} value={prompt.system} onChange={(e) => setContextPrompt({ system: e.target.value })} />
      </label>
      <label className="g-field">
        <span>Context prompt</span>
        <textarea rows={8} value={prompt.user} onChange={(e) => setContextPrompt({ user: e.target.value })} />
      </label>
      <button type="button" className="g-link" onClick={resetContextPrompt}>
        Reset the prompt
      </button>
      {errors.map((m) => (
        <p key={m} className="g-error">
          {m}
        </p>
      ))}
      {warnings.map((m) => (
        <p key={m} className="g-warn">
          {m}
        </p>
      ))}
    </details>
  );
}

function Run() {
  const run = useContexts((s) => s.run);
  if (!run) return null;
  const p = run.progress;
  const busy = run.state === 'running' || run.state === 'paused';
  return (
    <div className="c-run" aria-label="Context writing">
      <div className="g-progress">
        <progress max={p?.total || 1} value={p?.done ?? 0} aria-label="Context progress" />
        <span className="small" role="status">
          {run.state === 'paused' ? 'Paused · ' : run.state === 'cancelled' ? 'Cancelled · ' : run.state === 'failed' ? 'Stopped · ' : run.state === 'done' ? 'Done · ' : ''}
          {p ? `${p.written} written${p.cut ? ` (${p.cut} cut to the limit)` : ''}, ${p.failed} failed, of ${p.total} · ${seconds(p.elapsedMs / 1000)}${busy && p.leftMs !== null ? `, about ${seconds(p.leftMs / 1000)} left` : ''}` : 'Writing the first context…'}
        </span>
      </div>
      {run.retry && busy && <p className="g-small">{run.retry}</p>}
      {run.error && <p className="g-error">{run.error}</p>}
      {!run.error && run.firstFailure && <p className="g-warn">Some units failed and keep their plain text: {run.firstFailure}</p>}
      {(run.state === 'cancelled' || run.state === 'failed') && <p className="g-small">The contexts written are kept; units without one are retrieved by their plain text. Writing again sends only those.</p>}
      {busy && (
        <RunControls paused={run.state === 'paused'} onPause={pauseContextRun} onCancel={cancelContextRun} kept="written" />
      )}
    </div>
  );
}

/**
 * Contextual retrieval (Anthropic, 2024): the generator chosen in the Generator panel writes, for
 * each unit of the chosen kind, a short context that situates it in its document; the
 * Contextual chunks column retrieves by it (BM25 and vectors), and the switch makes every column
 * do so. The panel says what a run sends where before it starts.
 */
export function ContextsPanel() {
  const { kind, state, plan, run, prompt } = useContexts();
  const generator = useGeneration((s) => s.generator);
  const testModel = useGeneration((s) => s.settings.kind === 'local' && isTestGenerator(s.settings.local.model));
  const version = useCorpus((s) => s.status?.contexts?.version ?? 0);
  const docs = useCorpus((s) => s.status?.docs.length ?? 0);
  const on = useView((s) => Boolean(s.view.structure.contextual));
  const problem = useCorpus((s) => s.status?.contexts?.problem);
  const busy = run?.state === 'running' || run?.state === 'paused';
  useEffect(() => {
    if (!busy) void refreshContexts();
  }, [version, docs, generator, busy]);
  const last = state?.runs[state.runs.length - 1];
  return (
    <section className="panel contexts" aria-label="Contextual retrieval">
      <h2>Contextual retrieval</h2>
      <p className="g-small">A model writes, for each unit, a short context that situates it in its document; it is put before the unit for BM25 and for the vectors.</p>
      <label className="g-field">
        <span>Units</span>
        <select value={kind} onChange={(e) => setContextKind(e.target.value as ContextUnitKind)} disabled={busy}>
          {CONTEXT_UNIT_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_WORDS[k]}
            </option>
          ))}
        </select>
      </label>
      {state && (
        <p className="g-small" role="status" aria-label="Contexts written">
          Contexts: {state.written} of {state.total} {KIND_WORDS[kind]}
          {state.written ? ` (${state.embedded} embedded)` : ''}
          {state.written < state.total && state.written > 0 ? ` · the other ${state.total - state.written} are retrieved by their plain text` : ''}
          {last ? ` · last run: ${last.written} written by ${last.source}${last.cancelled ? ', cancelled' : ''}${last.error ? ', stopped by an error' : ''}` : ''}
        </p>
      )}
      {problem && <p className="g-warn">{problem}</p>}
      <label className="g-check">
        <input type="checkbox" checked={on} onChange={(e) => void setStructure((st) => void (st.contextual = e.target.checked))} />
        Every column retrieves by the contextualised text (the Contextual chunks column always does)
      </label>
      {generator && (
        <p className="g-small">
          Generator: <strong>{generator.label}</strong> (chosen in the Generator panel)
        </p>
      )}
      {generator && testModel && <p className="g-test">TEST MODEL: it writes one fixed reply whatever the unit — for testing the pipeline, not for real contexts.</p>}
      <PromptEditor />
      {!busy && <Statement />}
      <div className="g-actions">
        <button type="button" onClick={() => void startContextRun()} disabled={busy || !generator || !plan.plan?.calls || contextProblems(prompt).length > 0}>
          Write contexts
        </button>
      </div>
      <Run />
    </section>
  );
}
