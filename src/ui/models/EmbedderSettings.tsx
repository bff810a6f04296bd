/**
 * What an embedding model will be run with: its prefixes, pooling, length limit and size, from
 * its preset, or marked "guessed" for any other Hugging Face id; static models say what they
 * trade. Shown under the embedder picker before Load, so a wrong guess is seen before indexing.
 */
import { useId, useState } from 'react';
import { describeSettings, resolveEmbeddingModel } from '../../core/embed/presets';

export function EmbedderSettings({ model }: { model: string }) {
  if (!model) return null;
  const { preset, guessed } = resolveEmbeddingModel(model);
  return (
    <div className="m-small" data-testid="embedder-settings">
      <p>
        {describeSettings(preset, preset.dim || undefined, guessed)}
        {preset.matryoshka.length > 0 && ` · can be cut to ${preset.matryoshka.join(', ')} dims`}
      </p>
      {guessed.length > 0 && <p role="note">Not a preset: the settings marked guessed may be wrong for this model. Check its model card; the CLI shows the same guesses.</p>}
      {preset.architecture === 'static' && !preset.testModel && (
        <p role="note">Static model: a token table and a mean, no transformer, so a large corpus gets its vectors in seconds. Retrieval quality is a few points below MiniLM (MTEB retrieval: potion-retrieval-32M 35.1, all-MiniLM-L6-v2 42.9).</p>
      )}
      {!preset.testModel && <p className="m-source">Source of these values: {preset.source}</p>}
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
