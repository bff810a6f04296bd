import { memo, useLayoutEffect, useMemo, useRef, type ReactElement } from 'react';
import type { ColumnResult } from '../../worker/protocol';
import { queryLabel } from '../../state/messages';
import { useResults } from '../../state/stores';
import { BlockCard } from './BlockCard';
import { FIRST_BLOCKS, keptTail, useProgressive } from './progressive';
import { useNearViewport } from './near-viewport';
import { estimateColumnRem, fullWithAnswer, headChars, isLongColumn, nearReachRem } from './windowing';
import { useStripSight } from './strip-sight';
import { plural } from './format';
import { columnColour, type Scheme } from '../palette';
import { RETRIEVER_NAMES } from '../../core/retrieve/retrievers';

interface Props {
  column: ColumnResult;
  /** Its place in the strip (from 0): whether it is in sight sideways is asked by it. */
  index: number;
  /** The id of the selected block when it belongs to this column. */
  selectedId: string | null;
  /** The page's colour scheme (asked once for all columns). */
  scheme: Scheme;
}

/** One strategy's context, best block first (drawn again only when its answer, place, selection or scheme change). */
export const Column = memo(function Column({ column, index, selectedId, scheme }: Props) {
  const { result } = column;
  const spec = column.column;
  const colour = columnColour(spec.id, scheme);
  // The title names the retriever asked for; when another one really ranked (BM25 while no vectors exist), it says so.
  const used = result.used && result.used !== spec.retriever ? result.used : null;
  // Windowed (windowing.ts): full where the window can show them or the user scrolled near, light elsewhere …
  const { inSight, width } = useStripSight();
  const { long, full, height, head } = useMemo(() => {
    const long = isLongColumn(result.blocks);
    const height = long ? estimateColumnRem(result.blocks) : null;
    // The window's height in rem at the default 16 px (reading the root's font size here would force a style pass),
    // and half a screen below it: those blocks are laid out with the first paint anyway, so they are drawn full at
    // once rather than light and then full again a frame later.
    const full = long ? fullWithAnswer(result.blocks, nearReachRem(window.innerHeight / 16), inSight(index)) : result.blocks.length;
    // A full block's first paint lays out only the text its height shows (headChars); the rest a frame later.
    return { long, height, full, head: headChars(width(index) / 16) };
    // Decided once per answer: later scrolling turns blocks full through the observer instead.
  }, [result]);
  // … and mounted in chunks (progressive.ts): the first blocks with the answer (of a windowed column, those it
  // shows in full and two light ones below them; none while it is out of sight sideways), the rest frame by frame.
  // While another search is on its way (a slider drag), the rest waits: that answer replaces this one.
  // Once per answer: the column draws again each frame while its blocks join, and number formatting is not free.
  const meta = useMemo(
    () => `${plural(result.blocks.length, 'block')} · ${plural(result.totalTokens, 'context token')}${result.candidates !== result.blocks.length ? ` · ${plural(result.candidates, 'candidate')} retrieved` : ''}`,
    [result],
  );
  const searching = useResults((s) => s.searching);
  const shown = useProgressive(result.blocks.length, result, long ? (full ? full + 2 : 0) : FIRST_BLOCKS, searching);
  // The articles the last answer had past those are kept as they were until their turn comes (keptTail):
  // removing them now and making them again frame by frame cost more than the frames it takes to update them.
  const rendered = useRef<ReactElement[]>([]);
  const mounted = keptTail(shown, result.blocks.length, rendered.current.length);
  const { box, near } = useNearViewport(result, mounted);
  const cards: ReactElement[] = result.blocks.slice(0, shown).map((b, i) => (
    // Keyed by rank: a new answer (a new question, a slider step) updates the articles in place
    // instead of removing and making again each of the hundred a long column holds.
    <BlockCard
      key={i}
      block={b}
      column={spec}
      rank={i + 1}
      selected={selectedId === b.id}
      {...(result.queries ? { queries: result.queries } : {})}
      lite={long && i >= full && selectedId !== b.id && !near.has(b.id)}
      headChars={head}
    />
  ));
  // The same elements as last time: React leaves them as they are.
  for (let i = shown; i < mounted; i++) cards.push(rendered.current[i]!);
  useLayoutEffect(() => {
    rendered.current = cards;
  });
  return (
    // The stripe has the column's colour on the map and in the charts (decoration: the title names it).
    // A long one is skipped by layout while out of sight sideways (results.css), holding its estimated height.
    <section
      role="region"
      aria-label={spec.label}
      className={long ? 'column long' : 'column'}
      // The estimate as the property itself, not a custom property: those inherit, and changing one made every
      // element of the column's style be computed again with each answer.
      style={{ borderTopColor: colour, ...(height !== null ? { containIntrinsicBlockSize: `auto ${height}rem` } : {}) }}
    >
      <h3 className="column-title">
        {spec.label}
        {used && <span className="column-used"> · ranked by {RETRIEVER_NAMES[used].long} only</span>}
      </h3>
      <p className="column-meta">{meta}</p>
      {result.queries && result.queries.length > 0 && (
        // The LLM's text is rendered as text nodes only, never as HTML.
        <ol className="fusion-queries" aria-label="Queries of this column" title={result.rule}>
          {result.queries.map((q, i) => (
            <li key={i} className={q.role === 'hyde' ? 'fusion-passage' : undefined}>
              <span className="label">{queryLabel(q, i, result.queries)}</span>
              {q.tool ? <span className="fusion-tool"> ({RETRIEVER_NAMES[q.retriever].long})</span> : null} {q.text}
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
        // Busy while articles of the last answer wait for their turn to be updated.
        <div className="column-blocks" ref={box} aria-busy={mounted > shown || undefined}>
          {cards}
        </div>
      )}
    </section>
  );
});
