import { useEffect, useId } from 'react';
import { BLOCK_ORDER_WORDS, BLOCK_ORDERS, type BlockOrder } from '../../core/answers/block-order';
import { DEFAULT_JUDGE_PROMPTS, type JudgePrompts } from '../../core/answers/judge';
import { DEFAULT_ANSWER_INSTRUCTIONS } from '../../core/answers/prompt';
import { answerSettingsProblems, cancelAnswerRun, pauseAnswerRun, planAnswers, setAnswerSettings, startAnswerRun, useAnswers } from '../../state/answer-run';
import { isTestGenerator, useGeneration } from '../../state/generation';
import { useEval } from '../../state/stores';
import { plural } from '../results/format';
import { runWords } from './answer-analysis';
import { RunControls } from '../generate/RunControls';

const seconds = (s: number) => (s < 90 ? `${Math.max(1, Math.round(s))} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

function Orders() {
  const orders = useAnswers((s) => s.settings.orders);
  return (
    <fieldset className="eval-answer-orders">
      <legend>Block order in the prompt (each is measured)</legend>
      {BLOCK_ORDERS.map((o: BlockOrder) => (
        <label key={o} className="eval-check">
          <input type="checkbox" checked={orders.includes(o)} onChange={(e) => setAnswerSettings((s) => void (s.orders = BLOCK_ORDERS.filter((x) => x === o ? e.currentTarget.checked : s.orders.includes(x))))} />
          <span>{BLOCK_ORDER_WORDS[o]}</span>
        </label>
      ))}
    </fieldset>
  );
}

function JudgeSettings() {
  const { judge, judgePrompts } = useAnswers((s) => s.settings);
  const edit = (step: keyof JudgePrompts, part: 'system' | 'user', text: string) => setAnswerSettings((s) => void (s.judgePrompts[step][part] = text));
  return (
    <div className="eval-answer-judge">
      <label className="eval-check">
        <input type="checkbox" checked={judge} onChange={(e) => setAnswerSettings((s) => void (s.judge = e.currentTarget.checked))} />
        <span>
          Judge the answers with the same generator <span className="eval-check-hint">(correct against the references; faithfulness: the share of the answer’s statements the context supports, as Ragas measures it; up to 3 more calls per distinct answer)</span>
        </span>
      </label>
      {judge && (
        <details className="a-details">
          <summary>Judge prompts</summary>
          {(['correct', 'statements', 'verdicts'] as const).map((step) => (
            <div key={step} className="eval-answer-prompt">
              <p className="small">
                <strong>{step}</strong> — placeholders: {step === 'correct' ? '{question} {references} {answer}' : step === 'statements' ? '{question} {answer}' : '{context} {statements}'}
              </p>
              <textarea aria-label={`Judge ${step} instructions`} rows={3} value={judgePrompts[step].system} onChange={(e) => edit(step, 'system', e.currentTarget.value)} />
              <textarea aria-label={`Judge ${step} message`} rows={2} value={judgePrompts[step].user} onChange={(e) => edit(step, 'user', e.currentTarget.value)} />
            </div>
          ))}
          <button type="button" onClick={() => setAnswerSettings((s) => void (s.judgePrompts = structuredClone(DEFAULT_JUDGE_PROMPTS)))}>
            Default judge prompts
          </button>
        </details>
      )}
    </div>
  );
}

function Plan() {
  const { plan, settings, result } = useAnswers();
  const generator = useGeneration((s) => s.generator);
  if (!generator) return null;
  if (plan.state === 'planning' && !plan.plan) return <p className="g-small">Assembling every point’s prompt…</p>;
  if (plan.state === 'failed') return <p className="g-error" role="alert">The answers could not be planned: {plan.error}</p>;
  const p = plan.plan;
  if (!p) return null;
  const a = p.answers;
  const stale = result && result.key !== plan.key;
  return (
    <div className="q-statement" aria-label="Before answering">
      <p>
        {plural(p.slots, 'answer')} to score ({plural(p.table.points.length, 'point')} × their questions) share {plural(a.requests, 'distinct prompt')}: {a.cached} answered from this browser’s cache,{' '}
        <strong>{plural(a.calls, 'call')} to make</strong>
        {a.calls ? `, about ${a.promptTokens.toLocaleString('en')} prompt tokens (${a.savedPromptTokens.toLocaleString('en')} saved by the cache), about ${seconds(a.seconds)} at an ${a.rate} speed of a small local model` : ''}
        {settings.judge ? `; then the judge: at most ${plural(p.judgeCallsAtMost, 'call')}, decided by the answers` : ''}.
      </p>
      {plan.where && a.calls > 0 && <p className="g-small a-where">{plan.where}</p>}
      {stale && <p className="g-small">The scores below are for the settings before the last change.</p>}
    </div>
  );
}

function Progress() {
  const run = useAnswers((s) => s.run);
  if (!run) return null;
  const p = run.progress;
  const active = run.state === 'running' || run.state === 'paused';
  return (
    <div className="q-progress" aria-label="Answer run progress">
      {active && (
        <div className="g-progress">
          <progress max={p?.total || 1} value={p?.done ?? 0} aria-label={run.phase === 'judge' ? 'Judge calls' : 'Answers'} />
          <span className="small" role="status">
            {run.state === 'paused' ? 'Paused · ' : ''}
            {run.phase === 'judge' ? 'Judging: ' : 'Answering: '}
            {p ? `${p.done} of ${p.total} · ${runWords(p)}${p.leftMs !== null ? `, about ${seconds(p.leftMs / 1000)} left` : ''}` : 'the first call…'}
          </span>
        </div>
      )}
      {!active && (
        <p className="small" role="status">
          {run.state === 'done' ? 'Answered' : run.state === 'cancelled' ? 'Cancelled; the answers made are kept and scored' : 'The run failed'}
          {p ? `: ${runWords(p)}.` : '.'}
        </p>
      )}
      {run.retry && active && <p className="g-small">{run.retry}</p>}
      {run.error && <p className="g-error">{run.error}</p>}
      {active && (
        <RunControls paused={run.state === 'paused'} onPause={pauseAnswerRun} onCancel={cancelAnswerRun} />
      )}
    </div>
  );
}

/**
 * Step 4 · Answers: after a run that kept its contexts, the prompt every point's context becomes
 * (the generator panel's, with editable instructions), the block orders, the judge, the plan —
 * calls after the cache, tokens, time, where text goes — and the run with pause and cancel.
 */
export function AnswerRun() {
  const result = useEval((s) => s.result);
  const settings = useAnswers((s) => s.settings);
  const plan = useAnswers((s) => s.plan);
  const run = useAnswers((s) => s.run);
  const generator = useGeneration((s) => s.generator);
  const testModel = useGeneration((s) => s.settings.kind === 'local' && isTestGenerator(s.settings.local.model));
  const instructionsId = useId();
  const tokensId = useId();
  // Plans when the panel first shows a result (later changes plan by themselves).
  useEffect(() => {
    if (result?.answering && plan.state === 'none') void planAnswers();
  }, [result, plan.state]);
  if (!result?.answering) return null;
  const problems = answerSettingsProblems(settings);
  const busy = run?.state === 'running' || run?.state === 'paused';
  const calls = plan.plan?.answers.calls ?? 0;
  return (
    <section className="eval-step eval-answers" aria-labelledby="eval-answers-title">
      <h2 id="eval-answers-title">4 · Answers</h2>
      <p className="small">
        Each point’s context for each question goes to the generator exactly as the generator panel would hand it over; the answers are scored against the references
        (exact match and F1 after SQuAD’s normalisation, in each question’s language), unanswerable questions by whether the model says it cannot answer.
        {result.answering.questions.some((q) => q.unanswerable) ? ` ${plural(result.answering.questions.filter((q) => q.unanswerable).length, 'unanswerable question')} included.` : ''}
      </p>
      {generator ? (
        <p className="g-small">
          Generator: <strong>{generator.label}</strong> (chosen in the Generator panel)
        </p>
      ) : (
        <p className="g-warn">Choose a generator in the Generator panel first (load an in-browser model, or set an endpoint’s base URL and model). Nothing is sent before you press Start.</p>
      )}
      {generator && testModel && <p className="g-test">TEST MODEL: it gives one fixed answer whatever the context — for testing the pipeline, not for choosing a design.</p>}
      <fieldset className="g-group" disabled={busy}>
        <legend>The answer prompt</legend>
        <div className="eval-field">
          <label htmlFor={instructionsId}>Instructions (the system message)</label>
          <textarea id={instructionsId} rows={3} value={settings.instructions} onChange={(e) => setAnswerSettings((s) => void (s.instructions = e.currentTarget.value))} />
          <button type="button" className="g-link" onClick={() => setAnswerSettings((s) => void (s.instructions = DEFAULT_ANSWER_INSTRUCTIONS))}>
            Default instructions
          </button>
        </div>
        <div className="eval-field">
          <label htmlFor={tokensId}>Longest answer (tokens)</label>
          <input id={tokensId} type="number" min={1} max={4096} value={settings.answerTokens} onChange={(e) => setAnswerSettings((s) => void (s.answerTokens = Math.round(Number(e.currentTarget.value))))} />
        </div>
        <Orders />
        <JudgeSettings />
      </fieldset>
      {problems.map((p) => (
        <p key={p} className="g-error">
          {p}
        </p>
      ))}
      {!busy && <Plan />}
      {!busy && generator && (
        <button type="button" className="primary" disabled={problems.length > 0 || plan.state !== 'ready' || !plan.plan} onClick={() => void startAnswerRun()}>
          {calls ? `Start answering (${plural(calls, 'call')})` : 'Score the cached answers (nothing is sent)'}
        </button>
      )}
      <Progress />
    </section>
  );
}

