import { useId, useState } from 'react';
import { parseCitations } from '../../core/generate/citations';
import { openBlock } from '../../state/controller';
import {
  editPrompt,
  generateAnswers,
  promptMessages,
  resetPrompt,
  setGenerationSettings,
  SIDES,
  stopAnswers,
  useGeneration,
  type AnswerState,
  type PromptState,
  type Side,
} from '../../state/generation';
import { useResults } from '../../state/stores';
import type { ColumnId } from '../../worker/protocol';
import './generate.css';

/** Hands a strategy's context to the generator: the exact prompt, then the answer with its sources. */
export function AnswerPanel() {
  const settings = useGeneration((s) => s.settings);
  const generator = useGeneration((s) => s.generator);
  const prompts = useGeneration((s) => s.prompts);
  const answers = useGeneration((s) => s.answers);
  const columns = useResults((s) => s.columns);
  const ids = useId();
  const streaming = SIDES.some((side) => answers[side]?.streaming);
  const ready = generator && SIDES.some((side) => prompts[side] && !prompts[side]!.error);

  if (settings.kind === 'none') {
    return (
      <section className="answer-panel" aria-label="Answer">
        <p className="g-small">To answer from the retrieved context, choose a generator under Generator (left): a small model in this browser or an OpenAI-compatible endpoint.</p>
      </section>
    );
  }
  const choices = columns.filter((c) => !c.column.fusion || c.result.blocks.length > 0).map((c) => c.column);
  return (
    <section className="answer-panel" aria-label="Answer">
      <div className="a-head">
        <h2>Answer with an LLM</h2>
        <label htmlFor={`${ids}-a`} className="g-inline">
          <span>Context from</span>
          <select id={`${ids}-a`} aria-label="Answer from strategy" value={settings.columnA} onChange={(e) => setGenerationSettings((s) => void (s.columnA = e.target.value as ColumnId))}>
            {choices.length === 0 && <option value={settings.columnA}>{settings.columnA}</option>}
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${ids}-b`} className="g-inline">
          <span>compare with</span>
          <select
            id={`${ids}-b`}
            aria-label="Compare with strategy"
            value={settings.columnB ?? ''}
            onChange={(e) => setGenerationSettings((s) => void (s.columnB = (e.target.value || null) as ColumnId | null))}
          >
            <option value="">nothing (one answer)</option>
            {choices
              .filter((c) => c.id !== settings.columnA)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
          </select>
        </label>
        {streaming ? (
          <button type="button" onClick={stopAnswers}>
            Stop
          </button>
        ) : (
          <button type="button" disabled={!ready} onClick={() => void generateAnswers()}>
            Generate answer
          </button>
        )}
      </div>
      {!generator && <p className="g-small">{settings.kind === 'local' ? 'Load the in-browser model (left) first.' : 'Set the endpoint’s base URL and model (left) first.'}</p>}
      {generator && columns.length === 0 && <p className="g-small">Ask a question first: the answer is written from what a strategy retrieves.</p>}
      <div className={`a-sides${prompts.b || answers.b ? ' two' : ''}`}>
        {SIDES.map((side) =>
          prompts[side] || answers[side] ? (
            <div key={side} className="a-side">
              {prompts[side] && <PromptEditor side={side} prompt={prompts[side]!} />}
              {answers[side] && <Answer answer={answers[side]!} />}
            </div>
          ) : null,
        )}
      </div>
    </section>
  );
}

function PromptEditor({ side, prompt }: { side: Side; prompt: PromptState }) {
  const generator = useGeneration((s) => s.generator);
  const settings = useGeneration((s) => s.settings);
  const [copied, setCopied] = useState<string | null>(null);
  const ids = useId();
  const a = prompt.assembled;
  const context = generator ? Math.min(generator.contextTokens, settings.kind === 'endpoint' ? settings.endpoint.contextTokens : Infinity) : null;
  const copy = async () => {
    const text = `${prompt.system.trim() ? `${prompt.system}\n\n` : ''}${prompt.user}`;
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied the prompt.');
    } catch {
      setCopied('The browser refused the clipboard: select the text and copy it by hand.');
    }
  };
  return (
    <div className="a-prompt" role="group" aria-label={`Prompt for ${prompt.column.label}`}>
      <h3 className="a-title">{prompt.column.label}</h3>
      {prompt.error ? (
        <p className="g-small" role="status">
          {prompt.error}
        </p>
      ) : (
        <>
          <p className="g-small">
            {a && (
              <>
                {a.sources.length} of {a.sources.length + a.left.length} blocks fit
                {a.left.length > 0 && ` (${a.left.length} left out: the context is full)`}
                {' · '}
              </>
            )}
            {prompt.tokens !== null && context !== null && (
              <>
                prompt {prompt.tokens.toLocaleString('en-US')} + answer {settings.answerTokens.toLocaleString('en-US')} of {context.toLocaleString('en-US')} tokens, counted with {generator?.counter}
              </>
            )}
          </p>
          {prompt.tokens !== null && context !== null && prompt.tokens + settings.answerTokens > context && (
            <p className="g-warn" role="status">
              The edited prompt and the answer ({(prompt.tokens + settings.answerTokens).toLocaleString('en-US')} tokens) exceed the model’s context of {context.toLocaleString('en-US')}.
            </p>
          )}
          {prompt.stale && (
            <p className="g-warn" role="status">
              The retrieval changed since you edited this prompt. <button type="button" className="g-link" onClick={() => resetPrompt(side)}>Use the new context</button>
            </p>
          )}
          <details className="a-details">
            <summary>Prompt{prompt.edited ? ' (edited)' : ''}: see, edit, copy</summary>
            <label className="g-field" htmlFor={`${ids}-sys`}>
              <span>System message</span>
              <textarea id={`${ids}-sys`} aria-label="System message" rows={3} value={prompt.system} onChange={(e) => editPrompt(side, { system: e.target.value })} />
            </label>
            <label className="g-field" htmlFor={`${ids}-user`}>
              <span>User message (sources and question)</span>
              <textarea id={`${ids}-user`} aria-label="User message" rows={12} value={prompt.user} onChange={(e) => editPrompt(side, { user: e.target.value })} />
            </label>
            <div className="g-actions">
              <button type="button" onClick={() => void copy()}>
                Copy prompt
              </button>
              {prompt.edited && (
                <button type="button" onClick={() => resetPrompt(side)}>
                  Reset to the assembled prompt
                </button>
              )}
              {copied && (
                <span className="g-small" role="status">
                  {copied}
                </span>
              )}
            </div>
          </details>
          {generator && <p className="g-small a-where">{generator.describe(promptMessages(prompt))}</p>}
        </>
      )}
    </div>
  );
}

function Answer({ answer }: { answer: AnswerState }) {
  const pieces = parseCitations(answer.text, answer.sources.length);
  const cited = new Set(pieces.flatMap((p) => (p.kind === 'cite' ? p.sources : [])));
  const open = (n: number) => {
    const src = answer.sources[n - 1];
    const block = src && answer.blocks.find((b) => b.id === src.blockId);
    if (!block) return;
    void openBlock(block, answer.column);
    // The cited block's card, when it is still among the results.
    requestAnimationFrame(() => document.querySelector('.column .block.selected')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };
  const seconds = answer.ms / 1000;
  return (
    <div className="a-answer" role="region" aria-label={`Answer from ${answer.column.label}`} aria-busy={answer.streaming}>
      <div className="a-text" aria-live="polite">
        {pieces.length === 0 && answer.streaming && <span className="g-small">Waiting for the first tokens…</span>}
        {pieces.map((p, i) =>
          p.kind === 'text' ? (
            <span key={i}>{p.text}</span>
          ) : (
            <span key={i} className="a-cite-group">
              {p.sources.map((n) => (
                <button key={n} type="button" className="a-cite" title={answer.sources[n - 1]?.label} aria-label={`Source ${n}: ${answer.sources[n - 1]?.label ?? ''}`} onClick={() => open(n)}>
                  [{n}]
                </button>
              ))}
              {p.unknown.map((n) => (
                <span key={`u${n}`} className="a-cite-unknown" title="There is no such source in the prompt">
                  [{n}?]
                </span>
              ))}
            </span>
          ),
        )}
      </div>
      {answer.error && (
        <p className="g-error" role="alert">
          {answer.error.message}
        </p>
      )}
      <p className="g-small a-status">
        {answer.streaming
          ? `Streaming from ${answer.generator}…`
          : answer.error
            ? `No answer from ${answer.generator}.`
            : `${answer.stopped ? 'Stopped' : answer.finishReason === 'length' ? 'Cut off at the answer-token limit' : 'Done'} · ${answer.generator} · ${seconds.toFixed(1)} s`}
        {answer.usage && ` · the server counted ${answer.usage.promptTokens} prompt and ${answer.usage.completionTokens} answer tokens`}
      </p>
      {!answer.streaming && !answer.error && answer.sources.length > 0 && (
        <ol className="a-sources" aria-label="Sources">
          {answer.sources.map((s) => (
            <li key={s.n} className={cited.has(s.n) ? 'cited' : 'uncited'}>
              <button type="button" className="g-link" onClick={() => open(s.n)}>
                [{s.n}] {s.label}
              </button>
              {!cited.has(s.n) && <span className="g-small"> · not cited</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
