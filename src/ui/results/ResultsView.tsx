import { search, setQuery } from '../../state/controller';
import { useCorpus, useResults, useView } from '../../state/stores';
import { Column } from './Column';
import { AnswerPanel } from '../generate/AnswerPanel';
import './results.css';

/** Question bar and the strategy columns side by side. */
export function ResultsView() {
  const query = useView((s) => s.view.query);
  const columns = useResults((s) => s.columns);
  const searching = useResults((s) => s.searching);
  const error = useResults((s) => s.error);
  const ms = useResults((s) => s.ms);
  const selected = useResults((s) => s.selected);
  const started = useCorpus((s) => s.status !== null);
  const docCount = useCorpus((s) => s.status?.docs.length ?? 0);
  const anyBlocks = columns.some((c) => c.result.blocks.length > 0);

  let empty: string | null = null;
  if (started && docCount === 0) empty = 'No documents yet: drop, choose or paste documents on the left, or load the sample corpus.';
  else if (!query.trim() && columns.length === 0) empty = 'No question yet: type a question above and press Ask.';
  else if (columns.length === 0 && !searching && !error) empty = started ? 'Press Ask to see what each strategy retrieves.' : 'Starting…';
  else if (columns.length > 0 && !anyBlocks && !searching) empty = 'No results: no strategy found anything for this question. Try other words.';

  return (
    <section aria-label="Results" className="results">
      <form
        className="question"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <input
          aria-label="Question"
          type="search"
          placeholder="Ask a question about your documents"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" disabled={!query.trim()}>
          Ask
        </button>
        <span className="search-state small" aria-live="polite">
          {searching ? 'Searching…' : ms !== null && columns.length > 0 ? `${plural(columns.length)} in ${formatMs(ms)}` : ''}
        </span>
      </form>
      {error && (
        <p className="results-error" role="alert">
          {error}
        </p>
      )}
      {empty && <p className="empty results-empty">{empty}</p>}
      <AnswerPanel />
      {columns.length > 0 && (
        <div className={`columns${searching ? ' stale' : ''}`} aria-busy={searching}>
          {columns.map((c) => (
            <Column key={c.column.id} column={c} selectedId={selected && selected.column.id === c.column.id ? selected.block.id : null} />
          ))}
        </div>
      )}
    </section>
  );
}

function plural(n: number): string {
  return n === 1 ? '1 column' : `${n} columns`;
}

function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
