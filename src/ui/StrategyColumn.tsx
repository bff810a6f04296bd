import type { StrategyResult } from '../core/engine';
import type { RetrievalEngine } from '../core/engine';
import { STRATEGY_LABELS } from '../core/retrieve/params';
import { sectionPath } from '../core/structure/corpus';

/** The matched sentences of a block, highlighted inside its text (text nodes only, never HTML). */
function BlockText({ engine, start, end, hits }: { engine: RetrievalEngine; start: number; end: number; hits: number[] }) {
  const s = engine.corpus.sentences;
  const hitSet = new Set(hits);
  const parts = [];
  for (let i = start; i < end; i++) {
    const text = s[i]!.text + ' ';
    parts.push(hitSet.has(i) ? <mark key={i}>{text}</mark> : <span key={i}>{text}</span>);
  }
  return <p className="block-text">{parts}</p>;
}

export function StrategyColumn({ result, engine }: { result: StrategyResult; engine: RetrievalEngine }) {
  return (
    <section className="column" aria-label={STRATEGY_LABELS[result.strategy]}>
      <h2>{STRATEGY_LABELS[result.strategy]}</h2>
      <p className="column-meta">
        {result.blocks.length} blocks · {result.totalTokens} tokens
        {result.notes.map((n) => (
          <span key={n} className="note"> · {n}</span>
        ))}
      </p>
      {result.blocks.map((b) => {
        const doc = engine.corpus.docs[b.doc]!;
        const first = engine.corpus.sentences[b.sentences.start]!;
        const path = sectionPath(doc, first.section);
        const pr = b.provenance;
        return (
          <article key={b.id} className="block">
            <header>
              {doc.title}
              {path.length > 0 && ` › ${path[path.length - 1]}`}
              {first.page !== undefined && ` · p. ${first.page}`}
            </header>
            {result.strategy === 'naive' ? <p className="block-text">{b.text}</p> : <BlockText engine={engine} start={b.sentences.start} end={b.sentences.end} hits={b.hits} />}
            <footer>
              score {b.score.toFixed(3)} · BM25 rank {pr.ranks.bm25 ?? '–'} · {b.tokens} tokens
              {pr.merged && ` · merged from ${pr.merged.children} of ${pr.merged.of} children`}
              {pr.window?.shrunk && ' · window shrunk to fit the budget'}
            </footer>
          </article>
        );
      })}
    </section>
  );
}
