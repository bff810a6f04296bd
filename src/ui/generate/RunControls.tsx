/**
 * Pause/Resume and Cancel for a run of generator calls (questions, contexts, answers): a
 * cancelled run keeps what it made, and the button says so.
 */
export function RunControls({ paused, onPause, onCancel, kept = 'made' }: { paused: boolean; onPause: (pause: boolean) => void; onCancel: () => void; kept?: string }) {
  return (
    <div className="g-actions">
      <button type="button" onClick={() => onPause(!paused)}>
        {paused ? 'Resume' : 'Pause'}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel (keep what was {kept})
      </button>
    </div>
  );
}
