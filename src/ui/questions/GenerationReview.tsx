import { copyShareHistogram } from '../../core/questions/filters';
import { REJECT_REASONS } from '../../core/questions/generate';
import type { GoldSpan, LabelledQuestion, RejectReason } from '../../core/questions/types';
import { addKeptQuestions, clearQuestionRun, reviewRun, setQuestionSettings, useQuestionGen } from '../../state/question-generation';
import { useCorpus } from '../../state/stores';
import type { DocSummary } from '../../worker/protocol';

/** One empty list: a selector must return the same value when nothing changed (a new [] re-renders forever). */
const NO_DOCS: DocSummary[] = [];

export const seconds = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

export const REASON_TEXT: Record<RejectReason, string> = {
  'not-json': 'not JSON',
  'no-question': 'no question',
  'answer-not-found': 'answer not in the passage',
  'dont-know': 'model said “unknown”',
  duplicate: 'near-duplicate',
  'copies-passage': 'copies the passage',
  error: 'call failed',
};

const BINS = 5;
const pct = (x: number) => `${Math.round(x * 100)} %`;

function useTitles(): (doc: string) => string {
  const docs = useCorpus((st) => st.status?.docs ?? NO_DOCS);
  return (id) => docs.find((d) => d.id === id)?.title ?? id;
}

/** Copy shares of the questions that passed the other filters, as a small histogram, and the threshold. */
function CopyShare({ passed, threshold }: { passed: LabelledQuestion[]; threshold: number }) {
  const shares = passed.map((q) => q.copyShare ?? 0);
  const bins = copyShareHistogram(shares, BINS);
  const most = Math.max(1, ...bins);
  const sorted = [...shares].sort((a, b) => a - b);
  const q = (f: number) => (sorted.length ? pct(sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))]!) : '—');
  return (
    <div className="q-copy" aria-label="Copy share">
      <p className="g-small">
        Copy share — the part of a question’s content words found verbatim in its passage (questions that copy favour BM25). Median {q(0.5)}, 90th percentile {q(0.9)}.
      </p>
      <table className="q-hist">
        <caption className="g-small">Questions by copy share</caption>
        <tbody>
          {bins.map((n, i) => (
            <tr key={i} className={(i + 1) / BINS > threshold ? 'q-over' : ''}>
              <th scope="row">
                {pct(i / BINS)}–{pct((i + 1) / BINS)}
              </th>
              <td>
                <span className="q-bar" style={{ width: `${(n / most) * 100}%` }} />
              </td>
              <td>{n}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <label className="g-field">
        <span>Drop questions that copy more than {pct(threshold)} of their content words</span>
        <input type="range" min={0} max={1} step={0.05} value={threshold} aria-label="Copy-share threshold" onChange={(e) => setQuestionSettings((x) => void (x.copyShare = Number(e.target.value)))} />
      </label>
    </div>
  );
}

function spanText(spans: GoldSpan[] | undefined, title: (id: string) => string): string {
  return (spans ?? []).map((s) => title(s.doc)).filter((t, i, a) => a.indexOf(t) === i).join(', ');
}

/** The finished (or stopped) run: its summary, kept and rejected questions, and adding the kept ones to the set. */
export function GenerationReview() {
  const run = useQuestionGen((st) => st.run);
  const threshold = useQuestionGen((st) => st.settings.copyShare);
  const title = useTitles();
  if (!run || run.state === 'running' || run.state === 'paused') return null;
  const review = reviewRun(run, threshold);
  const asked = run.progress?.done ?? run.info?.asked ?? 0;
  const rejectedTotal = run.rejected.length + review.copied.length;
  const byReason = REJECT_REASONS.filter((r) => review.counts[r]).map((r) => `${REASON_TEXT[r]} ${review.counts[r]}`);
  return (
    <div className="q-review" aria-label="Generation summary">
      {run.error && <p className="g-error">{run.error}</p>}
      <p role="status" className="q-summary">
        {run.state === 'cancelled' ? 'Cancelled: ' : ''}
        {review.kept.length} kept of {asked} asked · {rejectedTotal} rejected{byReason.length ? ` (${byReason.join(', ')})` : ''} · {run.progress?.calls ?? 0} calls in {seconds(run.progress?.elapsedMs ?? 0)} · {run.model}
      </p>
      {run.passed.length > 0 && <CopyShare passed={run.passed} threshold={threshold} />}
      <details className="a-details" open>
        <summary>Kept ({review.kept.length})</summary>
        <ol className="q-list" aria-label="Kept questions">
          {review.kept.map((q) => (
            <li key={q.id}>
              <span className="q-q">{q.question}</span>{' '}
              <span className="g-small">
                — {q.answers.map((a) => `“${a.text}”`).join(q.needs === 'all' ? ' and ' : ' or ')}
                {q.needs === 'all' ? ` (${q.answers.length === 2 ? 'both' : 'all'} needed)` : ''} in {spanText(q.answers, title)} · {q.type} · copy share {pct(q.copyShare ?? 0)}
              </span>
            </li>
          ))}
        </ol>
      </details>
      <details className="a-details" open={rejectedTotal > 0 && rejectedTotal <= 60}>
        <summary>Rejected ({rejectedTotal})</summary>
        <ol className="q-list" aria-label="Rejected questions">
          {review.copied.map((q) => (
            <li key={q.id}>
              <span className="q-reason">{REASON_TEXT['copies-passage']}</span> {q.question}{' '}
              <span className="g-small">
                — {pct(q.copyShare ?? 0)} of its content words are in the passage (&gt; {pct(threshold)})
              </span>
            </li>
          ))}
          {run.rejected.map((r, i) => (
            <li key={i}>
              <span className="q-reason">{REASON_TEXT[r.reason]}</span> {r.question ? `${r.question} ` : ''}
              <span className="g-small">
                — {r.detail} · {spanText(r.passage, title)}
              </span>
            </li>
          ))}
        </ol>
      </details>
      <div className="g-actions">
        {!run.added && (
          <button type="button" disabled={run.adding || review.kept.length === 0} onClick={() => void addKeptQuestions()}>
            Add {review.kept.length} question{review.kept.length === 1 ? '' : 's'} to the question set
          </button>
        )}
        <button type="button" className="g-link" onClick={clearQuestionRun}>
          {run.added ? 'Done' : 'Discard this run'}
        </button>
      </div>
      {run.addError && <p className="g-error">The questions could not be added: {run.addError}</p>}
      {run.added && (
        <p className="g-ready" role="status">
          Added {run.added.count} question{run.added.count === 1 ? '' : 's'} to the question set.
        </p>
      )}
      {run.added?.skipped.map((s) => (
        <p key={s} className="g-warn">
          Not added: {s}
        </p>
      ))}
    </div>
  );
}
