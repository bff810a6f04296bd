/**
 * "Your own endpoint": an OpenAI-compatible /v1/embeddings server's base URL, model, optional key
 * (in memory unless the user ticks "remember"), dimensions, batch size and concurrency; which
 * prompts its model gets; what the server must allow (CORS). Nothing is sent from here: Load
 * first shows what would be sent (EndpointConsent).
 */
import { EndpointConnection } from '../endpoint/EndpointConnection';
import { NumberField } from '../endpoint/NumberField';
import { presetForEndpointModel } from '../../core/embed/endpoint-choice';
import { setEndpointSettings, useEmbeddingEndpoint, type EndpointSettings as Settings } from '../../state/embedding-endpoint';

export function EndpointSettings() {
  const s = useEmbeddingEndpoint((st) => st.settings);
  const set = (change: (c: Settings) => void) => setEndpointSettings(change);
  const preset = s.model.trim() ? presetForEndpointModel(s.model.trim()) : undefined;
  return (
    <div className="m-endpoint" data-testid="endpoint-settings">
      <EndpointConnection
        value={s}
        labels={{ baseUrl: 'Embedding endpoint base URL', model: 'Embedding endpoint model', apiKey: 'Embedding endpoint API key', modelPlaceholder: 'nomic-embed-text, text-embedding-3-small, …' }}
        cls="m"
        onChange={set}
      />
      <div className="m-grid3">
        <NumberField cls="m" label="Dimensions" name="Embedding endpoint dimensions" min={1} max={65536} value={s.dimensions} optional onValue={(n) => set((c) => void (c.dimensions = n))} />
        <NumberField cls="m" label="Batch size" name="Embedding endpoint batch size" min={1} max={2048} value={s.batchSize} onValue={(n) => set((c) => void (c.batchSize = n ?? c.batchSize))} />
        <NumberField cls="m" label="Concurrency" name="Embedding endpoint concurrency" min={1} max={32} value={s.concurrency} onValue={(n) => set((c) => void (c.concurrency = n ?? c.concurrency))} />
      </div>
      <p className="m-small">Dimensions are sent as <code>dimensions</code> only when set (OpenAI text-embedding-3 and some servers take it).</p>
      <p className="m-small">
        {preset
          ? `Prompts from the ${preset.name} preset: ${preset.queryPrefix ? JSON.stringify(preset.queryPrefix) : 'none'} before questions, ${preset.passagePrefix ? JSON.stringify(preset.passagePrefix) : 'none'} before units.`
          : 'No preset matches this model name: no prompt is put before the texts.'}
      </p>
      <p className="m-small">
        The server must allow this page’s origin ({location.origin}) by CORS: Ollama allows 127.0.0.1 by default, other origins through OLLAMA_ORIGINS; LM Studio needs CORS turned on (lms server start --cors); llama.cpp’s server allows any origin unless --cors-origins says otherwise. Plain http works only on this machine; other hosts need https.
      </p>
    </div>
  );
}
