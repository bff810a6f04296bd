import { useEffect, useMemo, useState } from 'react';
import { openBlock, sentenceSpans, type SentenceSpan } from '../../state/controller';
import type { BlockView, ColumnResult } from '../../worker/protocol';
import { BlockSource } from '../results/BlockCard';
import { MarkAnswer } from '../questions/MarkAnswer';
import { plural } from '../results/format';
import { shortLabel } from './labels';
import { markSentences, pairOverlap, sentenceIds } from './overlap';
import { Swatch } from './OverlapStrip';

interface Props {
  a: ColumnResult;
  b: ColumnResult;
}

/**
 * Two strategies side by side at full width, every sentence of their blocks marked as
 * handed over by both (shared) or by this one only, with the counts in sentences and
 * tokens. Marks are an underline style and words for screen readers, not colour alone.
 */
export function CompareView({ a, b }: Props) {
  const idsA = useMemo(() => sentenceIds(a.result.blocks), [a]);
  const idsB = useMemo(() => sentenceIds(b.result.blocks), [b]);
  const setA = useMemo(() => new Set(idsA), [idsA]);
  const setB = useMemo(() => new Set(idsB), [idsB]);
  const union = useMemo(() => [...new Set([...idsA, ...idsB])], [idsA, idsB]);
  const [loaded, setSpans] = useState<ReadonlyMap<number, SentenceSpan> | null>(null);
  // Spans of an earlier answer mark nothing: marks and counts always describe the same blocks.
  const spans = loaded && union.every((i) => loaded.has(i)) ? loaded : null;
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setFailed(null);
    sentenceSpans(union)
      .then((s) => current && setSpans(s))
      .catch((e: unknown) => current && setFailed(e instanceof Error ? e.message : String(e)));
    return () => {
      current = false;
    };
  }, [union]);

  const o = useMemo(() => pairOverlap(a.result.blocks, b.result.blocks, spans ? (i) => spans.get(i)?.tokens : undefined), [a, b, spans]);
  const la = shortLabel(a.column);
  const lb = shortLabel(b.column);
  const tokens = (n: number | undefined) => (n === undefined ? '…' : String(n));
  return (
    <div className="compare">
      <table className="compare-counts">
        <caption>
          What <strong>{a.column.label}</strong> and <strong>{b.column.label}</strong> hand over for this question
          {o.jaccard !== null && <> · Jaccard {o.jaccard.toFixed(2)}</>}
        </caption>
        <thead>
          <tr>
            <th scope="col">Sentences marked</th>
            <th scope="col">Sentences</th>
            <th scope="col">Tokens</th>
          </tr>
        </thead>
        <tbody>
          <tr data-row="shared">
            <th scope="row">
              <span className="cmp-s cmp-shared">Shared</span>: handed over by both
            </th>
            <td>{o.shared}</td>
            <td>{tokens(o.tokens?.shared)}</td>
          </tr>
          <tr data-row="only-a">
            <th scope="row">
              <span className="cmp-s cmp-only">Only {la}</span>
            </th>
            <td>{o.onlyA}</td>
            <td>{tokens(o.tokens?.onlyA)}</td>
          </tr>
          <tr data-row="only-b">
            <th scope="row">
              <span className="cmp-s cmp-only">Only {lb}</span>
            </th>
            <td>{o.onlyB}</td>
            <td>{tokens(o.tokens?.onlyB)}</td>
          </tr>
        </tbody>
      </table>
      <p className="small">
        Shared sentences have a solid underline on a tint; sentences only one strategy hands over have a dotted underline. Tokens count whole sentences (a chunk
        that cuts a sentence counts all of it), without headers.
      </p>
      {failed && (
        <p className="results-error" role="alert">
          The sentences could not be marked: {failed}
        </p>
      )}
      <div className="compare-panes">
        <Pane column={a} other={setB} otherLabel={lb} spans={spans} count={{ shared: o.shared, only: o.onlyA }} />
        <Pane column={b} other={setA} otherLabel={la} spans={spans} count={{ shared: o.shared, only: o.onlyB }} />
      </div>
    </div>
  );
}

interface PaneProps {
  column: ColumnResult;
  other: ReadonlySet<number>;
  otherLabel: string;
  spans: ReadonlyMap<number, SentenceSpan> | null;
  count: { shared: number; only: number };
}

function Pane({ column, other, otherLabel, spans, count }: PaneProps) {
  const { result, column: spec } = column;
  return (
    <section role="region" aria-label={`Compared: ${spec.label}`} className="compare-pane column">
      <h3 className="column-title">
        <Swatch id={spec.id} />
        {spec.label}
      </h3>
      <p className="column-meta">
        {plural(result.blocks.length, 'block')} · {plural(result.totalTokens, 'context token')} · {plural(count.shared + count.only, 'sentence')}: {count.shared} shared with{' '}
        {otherLabel}, {count.only} only here
      </p>
      {result.blocks.length === 0 ? (
        <p className="empty">No results in this column.</p>
      ) : (
        <ol className="compare-blocks">
          {result.blocks.map((block, i) => (
            <li key={block.id}>
              <CompareBlock block={block} rank={i + 1} column={column} other={other} spans={spans} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

interface BlockProps {
  block: BlockView;
  rank: number;
  column: ColumnResult;
  other: ReadonlySet<number>;
  spans: ReadonlyMap<number, SentenceSpan> | null;
}

function CompareBlock({ block, rank, column, other, spans }: BlockProps) {
  const pieces = useMemo(() => (spans ? markSentences(block, spans, other) : [{ text: block.text, mark: null }]), [block, spans, other]);
  return (
    <article className="block compare-block" aria-label={`Block ${rank} from ${block.docTitle}`} data-sentences={`${block.sentences.start}-${block.sentences.end}`}>
      <BlockSource block={block} rank={rank} />
      {/* Document text as text nodes only, never as HTML. */}
      <div className="block-text compare-text" tabIndex={0} aria-label={`Text of block ${rank}, sentences marked`} role="group">
        {pieces.map((p, i) =>
          p.mark ? (
            <span key={i} className={`cmp-s cmp-${p.mark}`} data-sentence={p.sentence}>
              {p.runStart && <span className="cmp-vh">{p.mark === 'shared' ? '[shared] ' : '[only here] '}</span>}
              {p.text}
            </span>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
        {!spans && <span className="cmp-vh"> (marking sentences…)</span>}
      </div>
      <footer className="block-meta">
        {plural(block.tokens, 'token')}{' '}
        <button type="button" className="link" aria-label={`Open block ${rank} in the document view`} onClick={() => void openBlock(block, column.column)}>
          Open block {rank}
        </button>
      </footer>
      {/* Its text carries words for screen readers ("[shared]"): marked by sentences, not by selection. */}
      <MarkAnswer block={block} rank={rank} />
    </article>
  );
}
