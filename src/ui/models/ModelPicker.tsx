import { useEffect, useId, useState } from 'react';
import { setModel } from '../../state/controller';
import { askConsent, cancelConsent, endpointChoiceOf, settingsOfChoice, useEmbeddingEndpoint } from '../../state/embedding-endpoint';
import { modelFailureText } from '../../state/messages';
import { useCorpus, useModels, useView } from '../../state/stores';
import type { Device, Dtype, ModelChoice, ModelStatus } from '../../worker/protocol';
import { useLocalModels, useWebGpuAdapter } from './availability';
import { CustomModelId, EmbedderSettings } from './EmbedderSettings';
import { EndpointConsent } from './EndpointConsent';
import { EndpointProgress } from './EndpointProgress';
import { EndpointSettings } from './EndpointSettings';
import { LargeCorpusHint } from './LargeCorpusHint';
import { draftOfChoice, editsOfDraft, type SettingsDraft } from './settings-draft';

export interface PickerModel {
  id: string;
  label: string;
  dtype: Dtype;
  testModel?: boolean;
}

export interface PickerText {
  /** The group's legend. */
  legend: string;
  /** Accessible names of the selects and the load button. */
  names: { model: string; source: string; dtype: string; device: string; load?: string };
  none: string;
  /** "… are shown meanwhile" while nothing is loaded. */
  meanwhile: string;
  noneReason: string;
  progressName: string;
}

type Role = 'embedder' | 'reranker';

interface Draft {
  /** '' = none. */
  model: string;
  source: ModelChoice['source'];
  dtype: Dtype;
  device: Device;
  /** The embedder's settings and output size being edited (applied on Load). */
  edits: SettingsDraft;
}

const DTYPE_LABELS: Record<Dtype, string> = { q8: 'q8', fp32: 'fp32', fp16: 'fp16', q4: 'q4' };
/** The model select's value for "Your own endpoint" (not a model id: ids have a slash). */
const ENDPOINT = '@endpoint';

function draftOf(choice: ModelChoice | null, models: PickerModel[], dtypes: Dtype[]): Draft {
  if (!choice) return { model: '', source: 'hub', dtype: models[0]?.dtype ?? 'q8', device: 'wasm', edits: {} };
  if (choice.endpoint) return { model: ENDPOINT, source: 'hub', dtype: 'fp32', device: 'wasm', edits: {} };
  const dtype = dtypes.includes(choice.dtype) ? choice.dtype : (models.find((m) => m.id === choice.model)?.dtype ?? dtypes[0]!);
  return { model: choice.model, source: choice.source, dtype, device: choice.device, edits: draftOfChoice(choice) };
}

/** The choice Load applies; edits only where they differ from the model's own settings (a problem in them: the choice without them, Load is refused). */
function choiceOf(d: Draft, models: PickerModel[]): ModelChoice | null {
  if (!d.model) return null;
  if (d.model === ENDPOINT) return endpointChoiceOf(useEmbeddingEndpoint.getState().settings);
  const test = models.find((m) => m.id === d.model)?.testModel;
  const edits = editsOfDraft(d.model, d.edits);
  return { model: d.model, dtype: d.dtype, device: d.device, source: test ? 'local' : d.source, ...('problem' in edits ? {} : edits) };
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Download progress while a model loads: bytes over every file the loader reported. */
function LoadProgress({ role, name }: { role: Role; name: string }) {
  const p = useModels((s) => s.progress[role]);
  const files = Object.values(p?.files ?? {});
  const total = files.reduce((n, f) => n + f.total, 0);
  const loaded = files.reduce((n, f) => n + Math.min(f.loaded, f.total), 0);
  return (
    <div className="m-progress">
      {total > 0 ? <progress aria-label={name} max={total} value={loaded} /> : <progress aria-label={name} />}
      <span className="m-small">
        {total > 0 ? `${mb(loaded)} of ${mb(total)} MB` : 'starting…'}
        {files.length > 1 ? ` · ${files.length} files` : ''}
      </span>
    </div>
  );
}

/** One model role: choice (model, source, dtype, device), Load, and what the worker says. */
export function ModelPicker({ role, models, dtypes, text }: { role: Role; models: PickerModel[]; dtypes: Dtype[]; text: PickerText }) {
  const choice = useView((s) => s.view[role]);
  const status = useCorpus((s) => s.status?.[role]);
  const local = useLocalModels(models.filter((m) => m.testModel).map((m) => m.id));
  const [draft, setDraft] = useState<Draft>(() => draftOf(choice, models, dtypes));
  // The applied choice changed (start-up from the URL, a shared link): show it.
  const choiceKey = JSON.stringify(choice);
  const [prevKey, setPrevKey] = useState(choiceKey);
  if (prevKey !== choiceKey) {
    setPrevKey(choiceKey);
    setDraft(draftOf(choice, models, dtypes));
  }
  // A view naming an endpoint (a shared link, a reload) shows its settings.
  const choiceEndpoint = choice?.endpoint;
  useEffect(() => {
    if (choiceEndpoint) useEmbeddingEndpoint.setState((st) => ({ settings: settingsOfChoice(choiceEndpoint, st.settings) }));
  }, [choiceKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // Re-rendered as the endpoint fields change, so "Press Load to apply" follows them.
  useEmbeddingEndpoint((st) => st.settings);
  const endpoint = role === 'embedder' && draft.model === ENDPOINT;
  const adapter = useWebGpuAdapter(draft.device === 'webgpu');
  const ids = useId();

  const info = models.find((m) => m.id === draft.model);
  const isTest = Boolean(info?.testModel);
  const asking = useEmbeddingEndpoint((st) => st.ask !== null);
  // Test models only where their files are really served; the applied one always, so the select can show it.
  const offered = models.filter((m) => !m.testModel || local.has(m.id) || m.id === choice?.model);
  const unknown = draft.model && !info && draft.model !== ENDPOINT ? draft.model : null;
  const pending = JSON.stringify(choiceOf(draft, models)) !== JSON.stringify(choice);
  const editProblem = role === 'embedder' && draft.model && !endpoint ? editsOfDraft(draft.model, draft.edits) : null;
  const blocked = Boolean(editProblem && 'problem' in editProblem);

  const pickModel = (id: string) => {
    const next = models.find((m) => m.id === id);
    setDraft((d) => ({
      ...d,
      model: id,
      // Another model starts from its own settings.
      edits: id === d.model ? d.edits : {},
      dtype: next && dtypes.includes(next.dtype) ? next.dtype : d.dtype,
      // Test models live in this site's folder; leaving one goes back to the hub.
      source: next?.testModel ? 'local' : isTest ? 'hub' : d.source,
    }));
  };

  return (
    <fieldset className="m-role">
      <legend>{text.legend}</legend>
      <label className="m-field" htmlFor={`${ids}-model`}>
        <span>Model</span>
        <select id={`${ids}-model`} aria-label={text.names.model} value={draft.model} onChange={(e) => pickModel(e.target.value)}>
          {offered.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
          {unknown && <option value={unknown}>{unknown}</option>}
          {role === 'embedder' && <option value={ENDPOINT}>Your own endpoint (OpenAI-compatible)</option>}
          <option value="">{text.none}</option>
        </select>
      </label>
      {role === 'embedder' && !endpoint && <CustomModelId onPick={pickModel} />}
      {role === 'embedder' && !endpoint && <EmbedderSettings model={draft.model} draft={draft.edits} onDraft={(edits) => setDraft((d) => ({ ...d, edits }))} />}
      {role === 'embedder' && !endpoint && <LargeCorpusHint model={draft.model} onPick={pickModel} />}
      {endpoint && <EndpointSettings />}
      {draft.model && !endpoint && (
        <div className="m-grid">
          <label className="m-field" htmlFor={`${ids}-source`}>
            <span>Source</span>
            <select
              id={`${ids}-source`}
              aria-label={text.names.source}
              value={isTest ? 'local' : draft.source}
              disabled={isTest}
              onChange={(e) => setDraft((d) => ({ ...d, source: e.target.value as Draft['source'] }))}
            >
              <option value="hub">Hugging Face hub</option>
              <option value="local">This site&apos;s /models/ folder</option>
            </select>
          </label>
          <label className="m-field" htmlFor={`${ids}-dtype`}>
            <span>Precision</span>
            <select id={`${ids}-dtype`} aria-label={text.names.dtype} value={draft.dtype} onChange={(e) => setDraft((d) => ({ ...d, dtype: e.target.value as Dtype }))}>
              {dtypes.map((t) => (
                <option key={t} value={t}>
                  {DTYPE_LABELS[t]}
                  {info?.dtype === t ? ' (default)' : ''}
                </option>
              ))}
            </select>
          </label>
          <label className="m-field" htmlFor={`${ids}-device`}>
            <span>Device</span>
            <select id={`${ids}-device`} aria-label={text.names.device} value={draft.device} onChange={(e) => setDraft((d) => ({ ...d, device: e.target.value as Device }))}>
              <option value="wasm">WASM (CPU)</option>
              <option value="webgpu">WebGPU (if an adapter exists)</option>
            </select>
          </label>
        </div>
      )}
      {isTest && <p className="m-small">Test models are always loaded from this site&apos;s /models/ folder.</p>}
      {draft.model && draft.device === 'webgpu' && (
        <p className="m-small">
          {adapter === false
            ? 'This browser has no WebGPU adapter: WASM is used instead.'
            : adapter
              ? 'WebGPU adapter found; WASM is used if the model cannot run on it.'
              : 'WebGPU is used only when a GPU adapter really exists; otherwise WASM.'}
        </p>
      )}
      <div className="m-actions">
        <button
          type="button"
          aria-label={text.names.load}
          disabled={(endpoint && asking) || blocked}
          onClick={() => {
            const next = choiceOf(draft, models);
            // Nothing goes to an endpoint before the user has read what would be sent.
            if (next?.endpoint) askConsent(next);
            else {
              if (role === 'embedder') cancelConsent();
              setModel(role, next);
            }
          }}
        >
          Load
        </button>
        {pending && <span className="m-small">{blocked ? 'Fix the settings to load.' : 'Press Load to apply.'}</span>}
      </div>
      {role === 'embedder' && <EndpointConsent />}
      <ModelState role={role} status={status} text={text} />
      {role === 'embedder' && choice?.endpoint && status?.state === 'ready' && <EndpointProgress />}
    </fieldset>
  );
}

function ModelState({ role, status, text }: { role: Role; status: ModelStatus | undefined; text: PickerText }) {
  if (!status) return <p className="m-small">Starting…</p>;
  switch (status.state) {
    case 'loading':
      return (
        <div className="m-state" aria-live="polite">
          <span>Loading {status.model}…</span>
          <LoadProgress role={role} name={text.progressName} />
        </div>
      );
    case 'ready':
      return (
        <div className="m-state">
          {status.isTestModel && (
            <p className="m-test" role="note">
              TEST MODEL — random vectors, no learned meaning
            </p>
          )}
          <span className="m-ready">
            Ready: {status.model}
            {status.dim ? ` · ${status.dim} dimensions` : ''}
          </span>
        </div>
      );
    case 'failed':
      return (
        <p className="m-fallback m-failed" role="status">
          {text.meanwhile}: {status.failure ? modelFailureText(status.failure) : `${status.model ?? 'the model'} could not be loaded`}
        </p>
      );
    default:
      return (
        <p className="m-fallback" role="status">
          {text.meanwhile}: {text.noneReason}
        </p>
      );
  }
}
