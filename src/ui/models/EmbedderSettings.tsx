/**
 * What an embedding model will be run with: its prefixes, pooling, length limit and size, from
 * its preset, or marked "guessed" for any other Hugging Face id, with the user's changes
 * (SettingsEditor) named; static models say what they trade. Shown under the embedder picker
 * before Load, so a wrong guess is seen before indexing.
 */
import { useId, useState } from 'react';
import { settingsView, type SettingsDraft } from './settings-draft';
import { SettingsEditor } from './SettingsEditor';

export function EmbedderSettings({ model, draft, onDraft }: { model: string; draft: SettingsDraft; onDraft: (d: SettingsDraft) => void }) {
  if (!model) return null;
  const view = settingsView(model, draft);
  const { base, guessed } = view;
  return (
    <div className="m-small" data-testid="embedder-settings">
      <p data-testid="embedder-settings-line">
        {view.line}
        {base.matryoshka.length > 0 && ` · can be cut to ${base.matryoshka.join(', ')} dims`}
      </p>
      {guessed.length > 0 && <p role="note">Not a preset: the settings marked guessed may be wrong for this model. Check its model card; the CLI shows the same guesses.</p>}
      {base.architecture === 'static' && !base.testModel && (
        <p role="note">Static model: a token table and a mean, no transformer, so a large corpus gets its vectors in seconds. Retrieval quality is a few points below MiniLM (MTEB retrieval: potion-retrieval-32M 35.1, all-MiniLM-L6-v2 42.9).</p>
      )}
      {!base.testModel && <p className="m-source">Source of these values: {base.source}</p>}
      <SettingsEditor key={model} model={model} draft={draft} view={view} onDraft={onDraft} />
    </div>
  );
}

/** A free Hugging Face model id (with ONNX weights), applied to the picker's draft. */
export function CustomModelId({ onPick }: { onPick: (id: string) => void }) {
  const id = useId();
  const [value, setValue] = useState('');
  const valid = /^[\w.-]+\/[\w.-]+$/.test(value.trim());
  return (
    <div className="m-field">
      <label htmlFor={id}>Other Hugging Face model id</label>
      <input id={id} type="text" placeholder="org/model-name" value={value} onChange={(e) => setValue(e.target.value)} spellCheck={false} />
      <button type="button" disabled={!valid} onClick={() => onPick(value.trim())}>
        Use this id
      </button>
    </div>
  );
}
