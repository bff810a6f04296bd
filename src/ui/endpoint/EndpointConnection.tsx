/**
 * The fields every OpenAI-compatible endpoint needs — base URL, model, an optional key (hidden
 * unless shown, kept in memory unless "remember" is ticked) — shared by the generator's chat
 * endpoint and the embedding endpoint, so both say the same about where the key goes.
 */
import { useId, useState } from 'react';

export interface Connection {
  baseUrl: string;
  model: string;
  apiKey: string;
  rememberKey: boolean;
}

export interface ConnectionLabels {
  /** Accessible names of the three inputs (each panel's own, so a page with both stays unambiguous). */
  baseUrl: string;
  model: string;
  apiKey: string;
  modelPlaceholder: string;
}

export function EndpointConnection({ value, labels, cls, onChange }: { value: Connection; labels: ConnectionLabels; cls: 'g' | 'm'; onChange: (change: (c: Connection) => void) => void }) {
  const ids = useId();
  const [showKey, setShowKey] = useState(false);
  return (
    <>
      <label className={`${cls}-field`} htmlFor={`${ids}-url`}>
        <span>Base URL</span>
        <input id={`${ids}-url`} aria-label={labels.baseUrl} type="url" spellCheck={false} value={value.baseUrl} placeholder="http://localhost:11434/v1" onChange={(e) => onChange((c) => void (c.baseUrl = e.target.value))} />
      </label>
      <label className={`${cls}-field`} htmlFor={`${ids}-model`}>
        <span>Model</span>
        <input id={`${ids}-model`} aria-label={labels.model} spellCheck={false} value={value.model} placeholder={labels.modelPlaceholder} onChange={(e) => onChange((c) => void (c.model = e.target.value))} />
      </label>
      <label className={`${cls}-field`} htmlFor={`${ids}-key`}>
        <span>API key (optional)</span>
        <span className={`${cls}-row`}>
          <input id={`${ids}-key`} aria-label={labels.apiKey} type={showKey ? 'text' : 'password'} autoComplete="off" spellCheck={false} value={value.apiKey} onChange={(e) => onChange((c) => void (c.apiKey = e.target.value))} />
          <button type="button" className={cls === 'g' ? 'g-link' : 'link'} onClick={() => setShowKey((v) => !v)}>
            {showKey ? 'hide' : 'show'}
          </button>
        </span>
      </label>
      <label className={`${cls}-check`} htmlFor={`${ids}-remember`}>
        <input id={`${ids}-remember`} type="checkbox" checked={value.rememberKey} onChange={(e) => onChange((c) => void (c.rememberKey = e.target.checked))} /> Remember the key in this browser
      </label>
      <p className={`${cls}-small`}>
        {value.rememberKey ? 'The key is stored in this browser’s localStorage for this site until you untick the box.' : 'The key is kept only while this page is open.'} It is sent only to the URL above.
      </p>
    </>
  );
}
