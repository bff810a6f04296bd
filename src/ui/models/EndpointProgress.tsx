/**
 * Embedding through an endpoint as it goes: units made of all, units per second and time left;
 * Pause keeps the vectors made (they are searched meanwhile and stored); an error is one
 * sentence naming the endpoint and model, and the corpus and the vectors made stay.
 */
import { setEmbedding } from '../../state/controller';
import { useCorpus } from '../../state/stores';

const n = (x: number) => x.toLocaleString('en-US');

function timeLeft(s: number): string {
  if (s < 90) return `about ${Math.max(1, Math.round(s))} s left`;
  if (s < 5400) return `about ${Math.round(s / 60)} min left`;
  return `about ${(s / 3600).toFixed(1)} h left`;
}

export function EndpointProgress() {
  const e = useCorpus((s) => s.status?.embedding);
  const model = useCorpus((s) => s.status?.embedder.model);
  if (!e) return null;
  const kinds = Object.values(e.coverage);
  const done = kinds.reduce((a, c) => a + c.done, 0);
  const total = kinds.reduce((a, c) => a + c.total, 0);
  return (
    <div className="m-state" data-testid="endpoint-progress" aria-live="polite">
      {e.error ? (
        <p className="m-fallback m-failed" role="alert">
          Embedding through {model ?? 'the endpoint'} stopped: {e.error}. The documents and the {n(done)} vectors made are kept.{' '}
          <button type="button" className="link" onClick={() => void setEmbedding(true)}>
            Try again
          </button>
        </p>
      ) : e.paused ? (
        <p className="m-small">
          Paused at {n(done)} of {n(total)} units: the vectors made are kept and searched.{' '}
          <button type="button" className="link" onClick={() => void setEmbedding(true)}>
            Resume
          </button>
        </p>
      ) : e.running ? (
        <div className="m-progress">
          <progress aria-label="Embedding through the endpoint" max={Math.max(1, total)} value={done} />
          <span className="m-small">
            {n(done)} of {n(total)} units
            {e.perSecond !== undefined ? ` · ${n(e.perSecond)} units/s` : ''}
            {e.etaS !== undefined ? ` · ${timeLeft(e.etaS)}` : ''}
          </span>
          <button type="button" className="link" onClick={() => void setEmbedding(false)}>
            Pause
          </button>
        </div>
      ) : total > 0 && done >= total ? (
        <p className="m-small">All {n(total)} units have vectors from this endpoint (kept in this browser: a reload sends no text again).</p>
      ) : null}
    </div>
  );
}
