import type { ColumnResult } from '../../worker/protocol';
import { queryLabel } from '../../state/messages';
import { BlockCard } from './BlockCard';
import { useProgressive } from './progressive';
import { plural } from './format';
import { columnColour, useScheme } from '../palette';
import { RETRIEVER_NAMES } from '../../core/retrieve/retrievers';

interface Props {
  column: ColumnResult;
  /** The id of the selected block when it belongs to this column. */
  selectedId: string | null;
}

/** One strategy's context, best block first. */
export function Column({ column, selectedId }: Props) {
  const { result } = column;
  const spec = column.column;
  const colour = columnColour(spec.id, useScheme());
  // The title names the retriever asked for; when another one really ranked (BM25 while no vectors exist), it says so.
  const used = result.used && result.used !== spec.retriever ? result.used : null;
  // Long columns are painted in chunks (progressive.ts): the first blocks with the answer, the rest frame by frame.
  const shown = useProgressive(result.blocks.length, result);
  return (
    // The stripe has the column's colour on the map and in the charts (decoration: the title names it).
    <section role="region" aria-label={spec.label} className="column" style={{ borderTopColor: colour }}>
      <h3 className="column-title">
        {spec.label}
        {used && <span className="column-used"> · ranked by {RETRIEVER_NAMES[used].long} only</span>}
      </h3>
      <p className="column-meta">
        {plural(result.blocks.length, 'block')} · {plural(result.totalTokens, 'context token')}
        {result.candidates !== result.blocks.length && <> · {plural(result.candidates, 'candidate')} retrieved</>}
      </p>
      {result.variants && result.variants.length > 0 && (
        // The LLM's text is rendered as text nodes only, never as HTML.
        <ol className="fusion-queries" aria-label="Queries fused">
          {result.variants.map((q, i) => (
            <li key={i}>
              <span className="label">{queryLabel(i)}</span> {q}
            </li>
          ))}
        </ol>
      )}
      {result.notes.length > 0 && (
        <ul className="column-notes" aria-label="Notes">
          {result.notes.map((n, i) => (
            <li key={i} className="note-badge">
              <span className="label">note</span> {n}
            </li>
          ))}
        </ul>
      )}
      {result.blocks.length === 0 ? (
        <p className="empty">No results in this column.</p>
      ) : (
        <div className="column-blocks">
          {result.blocks.slice(0, shown).map((b, i) => (
            <BlockCard key={b.id} block={b} column={spec} rank={i + 1} selected={selectedId === b.id} queries={result.variants?.length ?? 0} />
          ))}
        </div>
      )}
    </section>
  );
}
