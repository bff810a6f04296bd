import { useId, useState } from 'react';
import { GENERATOR_MODELS } from '../../core/generate/generator-models';
import { isTestGenerator, loadLocalModel, setGenerationSettings, useGeneration, type GenerationSettings } from '../../state/generation';
import { QUERY_TRANSFORMS, TRANSFORM_WORDS, type QueryTransform } from '../../core/transform/rewrites';
import { DEFAULT_TOOLS, documentTools, readTools, type QueryTool } from '../../core/transform/tools';
import { useCorpus } from '../../state/stores';
import { useLocalModels, useWebGpuAdapter } from '../models/availability';
import { EndpointConnection } from '../endpoint/EndpointConnection';
import { NumberField } from '../endpoint/NumberField';
import './generate.css';

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Where answers come from: nothing, a model in this browser, or an OpenAI-compatible endpoint. */
export function GeneratorPanel() {
  const kind = useGeneration((s) => s.settings.kind);
  const ids = useId();
  return (
    <section className="panel generator" aria-label="Generator">
      <h2>Generator</h2>
      <p className="g-small">Hands a strategy’s context to an LLM and answers with citations. Optional: retrieval works without one.</p>
      <div className="g-kinds" role="radiogroup" aria-label="Generator kind">
        {(
          [
            ['none', 'None'],
            ['local', 'In this browser'],
            ['endpoint', 'OpenAI-compatible endpoint'],
          ] as const
        ).map(([k, label]) => (
          <label key={k} htmlFor={`${ids}-${k}`}>
            <input id={`${ids}-${k}`} type="radio" name={`${ids}-kind`} checked={kind === k} onChange={() => setGenerationSettings((s) => void (s.kind = k))} /> {label}
          </label>
        ))}
      </div>
      {kind === 'local' && <LocalModel />}
      {kind === 'endpoint' && <Endpoint />}
      {kind !== 'none' && <AnswerSettings />}
    </section>
  );
}

function LocalModel() {
  const choice = useGeneration((s) => s.settings.local);
  const local = useGeneration((s) => s.local);
  const available = useLocalModels(GENERATOR_MODELS.filter((m) => m.testModel).map((m) => m.id));
  const adapter = useWebGpuAdapter(choice.device === 'webgpu');
  const ids = useId();
  const offered = GENERATOR_MODELS.filter((m) => !m.testModel || available.has(m.id) || m.id === choice.model);
  const info = GENERATOR_MODELS.find((m) => m.id === choice.model);
  const test = isTestGenerator(choice.model);
  const set = (change: (c: GenerationSettings['local']) => void) => setGenerationSettings((s) => change(s.local));
  const files = Object.values(local.files);
  const total = files.reduce((n, f) => n + f.total, 0);
  const loaded = files.reduce((n, f) => n + Math.min(f.loaded, f.total), 0);
  return (
    <fieldset className="g-group">
      <legend>In-browser model</legend>
      <label className="g-field" htmlFor={`${ids}-model`}>
        <span>Model</span>
        <select
          id={`${ids}-model`}
          aria-label="Generator model"
          value={choice.model}
          onChange={(e) =>
            set((c) => {
              const m = GENERATOR_MODELS.find((x) => x.id === e.target.value);
              c.model = e.target.value;
              if (m) c.dtype = m.dtype;
              c.source = m?.testModel ? 'local' : c.source === 'local' && isTestGenerator(choice.model) ? 'hub' : c.source;
            })
          }
        >
          {offered.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label} · {m.sizeMB >= 1 ? `${Math.round(m.sizeMB)} MB` : 'tiny'}
            </option>
          ))}
        </select>
      </label>
      <div className="g-grid">
        <label className="g-field" htmlFor={`${ids}-source`}>
          <span>Source</span>
          <select id={`${ids}-source`} aria-label="Generator source" value={test ? 'local' : choice.source} disabled={test} onChange={(e) => set((c) => void (c.source = e.target.value as 'local' | 'hub'))}>
            <option value="hub">Hugging Face hub</option>
            <option value="local">This site&apos;s /models/ folder</option>
          </select>
        </label>
        <label className="g-field" htmlFor={`${ids}-device`}>
          <span>Device</span>
          <select id={`${ids}-device`} aria-label="Generator device" value={choice.device} onChange={(e) => set((c) => void (c.device = e.target.value as 'wasm' | 'webgpu'))}>
            <option value="webgpu">WebGPU (if an adapter exists)</option>
            <option value="wasm">WASM (CPU)</option>
          </select>
        </label>
      </div>
      {info?.webgpuOnly && choice.device === 'webgpu' && adapter === false && <p className="g-warn">This browser has no WebGPU adapter: on WASM this model is very slow and may not fit in memory.</p>}
      {choice.device === 'webgpu' && adapter === false && !info?.webgpuOnly && <p className="g-small">No WebGPU adapter here: the model runs on WASM (slower).</p>}
      <p className="g-small">
        {info ? `${info.sizeMB >= 1 ? `About ${Math.round(info.sizeMB)} MB` : 'A tiny file'} to download once (then kept in the browser cache); context ${info.contextTokens.toLocaleString('en-US')} tokens. ` : ''}
        The prompt never leaves this browser.
      </p>
      <div className="g-actions">
        <button type="button" onClick={() => void loadLocalModel()} disabled={local.state === 'loading'}>
          {local.state === 'ready' ? 'Reload model' : 'Load model'}
        </button>
      </div>
      <div aria-live="polite">
        {local.state === 'loading' && (
          <div className="g-progress">
            {total > 0 ? <progress aria-label="Generator download" max={total} value={loaded} /> : <progress aria-label="Generator download" />}
            <span className="g-small">{total > 0 ? `${mb(loaded)} of ${mb(total)} MB` : 'starting…'}</span>
          </div>
        )}
        {local.state === 'ready' && (
          <>
            {test && (
              <p className="g-test" role="note">
                TEST MODEL — writes a fixed sentence, reads nothing
              </p>
            )}
            <p className="g-ready">Ready: {local.model}</p>
          </>
        )}
        {local.state === 'failed' && (
          <p className="g-error" role="alert">
            The model is not loaded: {local.error}
          </p>
        )}
      </div>
    </fieldset>
  );
}

function Endpoint() {
  const e = useGeneration((s) => s.settings.endpoint);
  const set = (change: (c: GenerationSettings['endpoint']) => void) => setGenerationSettings((s) => change(s.endpoint));
  return (
    <fieldset className="g-group">
      <legend>Endpoint</legend>
      <EndpointConnection value={e} labels={{ baseUrl: 'Endpoint base URL', model: 'Endpoint model', apiKey: 'API key', modelPlaceholder: 'llama3.2, gpt-4o-mini, …' }} cls="g" onChange={set} />
      <NumberField cls="g" label="Model context (tokens)" name="Endpoint context tokens" min={512} max={2000000} step={512} value={e.contextTokens} onValue={(n) => set((c) => void (c.contextTokens = n))} />
      <p className="g-small">
        Plain http works only for endpoints on this machine (localhost); others need https. The server must allow this page’s origin (CORS), e.g. Ollama with OLLAMA_ORIGINS.
      </p>
    </fieldset>
  );
}

function AnswerSettings() {
  const s = useGeneration((st) => st.settings);
  const ids = useId();
  return (
    <fieldset className="g-group">
      <legend>Answer</legend>
      <div className="g-grid">
        <NumberField cls="g" label="Answer tokens at most" name="Answer tokens" min={16} max={8192} value={s.answerTokens} onValue={(n) => setGenerationSettings((x) => void (x.answerTokens = n))} />
        <NumberField cls="g" label="Temperature" name="Temperature" min={0} max={2} step={0.1} integer={false} value={s.temperature} onValue={(n) => setGenerationSettings((x) => void (x.temperature = n))} />
      </div>
      <label className="g-check" htmlFor={`${ids}-headers`}>
        <input id={`${ids}-headers`} type="checkbox" checked={s.headers} onChange={(e) => setGenerationSettings((x) => void (x.headers = e.target.checked))} /> Put contextual headers in the prompt
      </label>
      <QueryTransformSettings />
    </fieldset>
  );
}

/**
 * The query transformation the Query transformation column runs, with the variants it asks for
 * or the tools (and their descriptions, which route the question) sub-questions and the router
 * choose from, editable as JSON.
 */
function QueryTransformSettings() {
  const s = useGeneration((st) => st.settings);
  const docs = useCorpus((st) => st.status?.docs);
  const ids = useId();
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = text ?? JSON.stringify(s.tools, null, 2);
  const editTools = (value: string) => {
    setText(value);
    try {
      const tools = readTools(JSON.parse(value));
      setError(null);
      setGenerationSettings((x) => void (x.tools = tools));
    } catch (e) {
      setError(e instanceof SyntaxError ? `not JSON: ${e.message}` : (e as Error).message);
    }
  };
  const useTools = (tools: QueryTool[]) => {
    setText(null);
    setError(null);
    setGenerationSettings((x) => void (x.tools = tools));
  };
  const routes = s.queryTransform === 'subquestions' || s.queryTransform === 'router';
  return (
    <div className="g-transform">
      <label className="g-field" htmlFor={`${ids}-transform`}>
        <span>Query transformation</span>
        <select id={`${ids}-transform`} aria-label="Query transformation" value={s.queryTransform} onChange={(e) => setGenerationSettings((x) => void (x.queryTransform = e.target.value as QueryTransform))}>
          {QUERY_TRANSFORMS.map((t) => (
            <option key={t} value={t}>
              {t === 'none' ? 'Off' : TRANSFORM_WORDS[t]}
            </option>
          ))}
        </select>
      </label>
      {s.queryTransform === 'multiquery' && (
        <label className="g-field" htmlFor={`${ids}-variants`}>
          <span>Variants of the question</span>
          <select id={`${ids}-variants`} aria-label="Query variants" value={s.fusionVariants} onChange={(e) => setGenerationSettings((x) => void (x.fusionVariants = Number(e.target.value)))}>
            {[2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n} variants
              </option>
            ))}
          </select>
        </label>
      )}
      {routes && (
        <details className="a-details" open>
          <summary>Tools the question is routed to ({s.tools.length})</summary>
          <p className="g-small">Their descriptions are what the generator reads to choose: word them, and compare the wordings in Evaluate or with the CLI’s routing precision.</p>
          <textarea aria-label="Tools as JSON" rows={8} value={shown} onChange={(e) => editTools(e.target.value)} aria-invalid={error ? true : undefined} />
          {error && <p className="g-error">{error}</p>}
          <div className="g-actions">
            <button type="button" onClick={() => useTools(structuredClone(DEFAULT_TOOLS))}>
              Default tools
            </button>
            <button type="button" disabled={!docs?.length} onClick={() => useTools([...DEFAULT_TOOLS, ...documentTools(docs ?? [], 'hybrid')])}>
              Add one tool per document
            </button>
          </div>
        </details>
      )}
      <p className="g-small">
        With a transformation chosen, each Ask first has the generator rewrite the question; the Query transformation column retrieves as the rewrite says (variants fused by
        RRF, sub-questions each sent to their tool, a hypothetical answer searched beside the question, or the one tool the router picks), and each block says which query
        found it. Rewrites are kept in this browser: a slider move or a reload asks nothing again.
      </p>
    </div>
  );
}
