import { BlockContext } from '../contexts/BlockContext';
import { memo, useRef, type KeyboardEvent } from 'react';
import { openBlock } from '../../state/controller';
import { queryLabel } from '../../state/messages';
import type { TransformedQuery } from '../../core/transform/retrieval';
import type { BlockView, ColumnSpec } from '../../worker/protocol';

const NO_QUERIES: readonly TransformedQuery[] = [];
import { MarkAnswer } from '../questions/MarkAnswer';
import { formatScore, pagesLabel, provenanceParts, sectionPathLabel, splitByHits } from './format';
import { useWholeText } from './text-head';
import { estimateBlockRem, headPieces } from './windowing';

interface Props {
  block: BlockView;
  column: ColumnSpec;
  rank: number;
  selected: boolean;
  /** A query-transformation column's queries (the question, variants, sub-questions, the hypothetical answer). */
  queries?: readonly TransformedQuery[];
  /**
   * Drawn light (windowing.ts): its plain text only (its name says where it is from), skipped by
   * layout while off-screen; the same article element as the full block, so focus stays when it turns full.
   */
  lite?: boolean;
  /** A full block's first paint draws this many characters of a longer text, the rest a frame later (windowing.ts, headChars). */
  headChars?: number;
}

/** One block a strategy hands over: where it is from, its header, its text with the hits marked, why it is here. */
export const BlockCard = memo(function BlockCard({ block, column, rank, selected, queries = NO_QUERIES, lite = false, headChars }: Props) {
  // Variants and a hypothetical answer are fused by RRF; sub-questions and a routed question keep their blocks' own scores.
  const fused = queries.some((q) => q.role === 'variant' || q.role === 'hyde');
  const open = () => void openBlock(block, column);
  const textRef = useRef<HTMLDivElement>(null);
  // Cut only where it saves much (a quarter more than the head): a short rest is not worth a second render.
  const whole = useWholeText(block, !lite && headChars !== undefined && block.text.length > headChars * 1.25);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
  const article = {
    tabIndex: 0,
    'aria-current': selected ? ('true' as const) : undefined,
    'aria-label': `Block ${rank} from ${block.docTitle}: open in the document view`,
    onClick: open,
    onKeyDown,
  };
  if (lite) {
    return (
      <article {...article} className="block lite" data-lite="" data-block-id={block.id} style={{ ['--est-height' as string]: `${estimateBlockRem(block)}rem` }}>
        <div className="block-text">{block.text}</div>
      </article>
    );
  }
  const all = splitByHits(block.text, block.hitSpans);
  const pieces = whole ? all : headPieces(all, headChars!);
  const provenance = provenanceParts(block.provenance, block.tokens);
  return (
    // A focusable article, not a button: its name stays short (a button's name would have to hold all its
    // visible text), it is its own scroll box when long (reachable by keyboard), and Enter or Space opens it.
    // Busy while only the head of its text is drawn (a frame, text-head.ts).
    <article {...article} className={`block${selected ? ' selected' : ''}`} aria-busy={whole ? undefined : true}>
      <BlockSource block={block} rank={rank} />
      <div className="block-text" ref={textRef}>
        {pieces.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
      </div>
      <footer className="block-meta">
        {block.foundBy ? (
          <>
            {fused ? (
              <span className="block-score" title="reciprocal rank fusion over the column's queries, Σ 1/(60 + rank) (for a block of several hits, its best hit's)">
                fused RRF {formatScore(block.score)}
              </span>
            ) : (
              <span className="block-score" title="the block's score for the query that found it">
                score {formatScore(block.score)}
              </span>
            )}
            <span className="block-found-by" title="which of the column's queries retrieved a unit inside this block">
              {' '}
              · found by: {block.foundBy.length ? block.foundBy.map((i) => (queries[i] ? queryLabel(queries[i]!, i, queries) : `query ${i}`)).join(', ') : 'none'}
              {queries.length > 1 && ` (${block.foundBy.length} of ${queries.length})`}
            </span>
          </>
        ) : (
          <span className="block-score" title="the block's score in this column">
            score {formatScore(block.score)}
          </span>
        )}
        {provenance.map((p, i) => (
          <span key={i}> · {p}</span>
        ))}
        {block.coherence && (
          <span className="block-coherence" title="mean cosine of the block's sentences with the question, and with each other: noise shows as these fall while the window grows">
            {' '}
            · coherence: question {block.coherence.toQuery.toFixed(2)}
            {block.coherence.internal !== null && `, sentences ${block.coherence.internal.toFixed(2)}`}
          </span>
        )}
      </footer>
      {/* Keyed by the block: what was being marked in the last answer's block at this rank is not carried to the next. */}
      <MarkAnswer key={block.id} block={block} rank={rank} textRef={textRef} />
    </article>
  );
});

/** Where a block comes from (rank, document, section path, pages) and its contextual header, as every block card shows them. */
export function BlockSource({ block, rank }: { block: BlockView; rank: number }) {
  const path = sectionPathLabel(block.sectionPath, block.docTitle);
  const pages = pagesLabel(block.pageStart, block.pageEnd, block.pageUnit);
  return (
    <>
        <header className="block-source">
          <span className="block-rank">#{rank}</span> <span className="block-doc">{block.docTitle}</span>
          {path && <span className="block-path"> · {path}</span>}
          {pages && <span className="block-pages"> · {pages}</span>}
          {block.ocrConfidence !== undefined && <span className="block-ocr"> · read by OCR, confidence {block.ocrConfidence}</span>}
        </header>
        {block.header && (
          <blockquote className="block-header">
            <span className="label">header</span>
            {block.header}
          </blockquote>
        )}
        <BlockContext key={block.id} block={block} />
    </>
  );
}
