import { useDeferredValue, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { search, setQuery } from '../../state/controller';
import { useCorpus, useResults, useView } from '../../state/stores';
import { Column } from './Column';
import { ColumnsStrip } from './ColumnsStrip';
import { BUSY_AFTER_MS, useLasting } from './lasting';
import { AnswerPanel } from '../generate/AnswerPanel';
import './results.css';
import { shownColumnIds } from '../../state/url-state';
import { ColumnChooser } from '../compare/ColumnChooser';
import { CompareControls } from '../compare/CompareControls';
import { CompareView } from '../compare/CompareView';
import { OverlapStrip } from '../compare/OverlapStrip';
import '../compare/compare.css';
import { QuestionBar } from '../questions/QuestionBar';
import { useScheme } from '../palette';

/** Question bar and the strategy columns side by side. */
export function ResultsView() {
  const query = useView((s) => s.view.query);
  const searched = useResults((s) => s.columns);
  // Compared by content: every change to the view (each step of a slider drag) copies it whole, and the
  // strip, the overlap summary and the columns need not be drawn again for the same choice.
  const chosen = useView(useShallow((s) => s.view.columns));
  const compare = useView(useShallow((s) => s.view.compare));
  // The chosen columns in their order at once; a newly chosen one appears when its search answers.
  const columns = useMemo(() => {
    const byId = new Map(searched.map((c) => [c.column.id, c]));
    return shownColumnIds({ columns: chosen }).flatMap((id) => byId.get(id) ?? []);
  }, [searched, chosen]);
  const pair = compare && columns.find((c) => c.column.id === compare[0]);
  const pairB = compare && columns.find((c) => c.column.id === compare[1]);
  const searching = useResults((s) => s.searching);
  // Shown only when the search lasts (lasting.ts): a quick answer comes with no frame before it. aria-busy is at once.
  const busy = useLasting(searching, BUSY_AFTER_MS);
  const error = useResults((s) => s.error);
  const ms = useResults((s) => s.ms);
  const selected = useResults((s) => s.selected);
  const started = useCorpus((s) => s.status !== null);
  const docCount = useCorpus((s) => s.status?.docs.length ?? 0);
  const anyBlocks = columns.some((c) => c.result.blocks.length > 0);
  const scheme = useScheme();
  // The overlap summary (Jaccard over every pair of columns' sentences) follows in a render of its
  // own after the answer is painted: it is not what the user waits for.
  // Only whole answers: while the columns in sight are shown first, the others still hold the last answer.
  const partial = useResults((s) => s.partial);
  const whole = useRef(columns);
  if (!partial) whole.current = columns;
  const overlapColumns = useDeferredValue(whole.current);

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
          {busy ? 'Searching…' : ms !== null && columns.length > 0 ? `${plural(columns.length)} in ${formatMs(ms)}` : ''}
        </span>
      </form>
      <div className="compare-toolbar">
        <ColumnChooser />
        <CompareControls />
      </div>
      {error && (
        <p className="results-error" role="alert">
          {error}
        </p>
      )}
      {empty && <p className="empty results-empty">{empty}</p>}
      {started && docCount > 0 && <QuestionBar hasBlocks={anyBlocks} />}
      <AnswerPanel />
      {anyBlocks && <OverlapStrip columns={overlapColumns} />}
      {pair && pairB ? (
        <div className={busy ? 'stale' : undefined} aria-busy={searching}>
          <CompareView a={pair} b={pairB} />
        </div>
      ) : columns.length > 0 && (
        <ColumnsStrip searching={searching} ids={columns.map((c) => c.column.id)}>
          {columns.map((c, i) => (
            <Column key={c.column.id} column={c} index={i} scheme={scheme} selectedId={selected && selected.column.id === c.column.id ? selected.block.id : null} />
          ))}
        </ColumnsStrip>
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
