import { ANALYZERS, type AnalyzerName } from '../../core/index/analyzer';
import { BM25_VARIANTS, DEFAULT_LEXICAL, type Bm25Variant } from '../../core/index/lexical-index';
import { setStructure } from '../../state/controller';
import { useView } from '../../state/stores';

const ANALYZER_LABELS: Record<AnalyzerName, string> = {
  words: 'words',
  stem: 'stemmed (Snowball; Porter for English)',
  'words+stop': 'words, stop words dropped',
  'stem+stop': 'stemmed, stop words dropped (default)',
};

const VARIANT_LABELS: Record<Bm25Variant, string> = {
  bm25plus: 'BM25+ (MiniSearch)',
  lucene: 'Lucene BM25 (k1 0.9, b 0.4, default)',
};

/** How BM25 reads text and scores it: rebuilds only the BM25 indexes, never re-embeds. */
export function LexicalControls() {
  const lexical = useView((st) => st.view.structure.lexical) ?? DEFAULT_LEXICAL;
  return (
    <div className="p-lexical">
      <label className="p-select">
        BM25 analyzer{' '}
        <select aria-label="BM25 analyzer" value={lexical.analyzer} onChange={(e) => void setStructure((s) => void (s.lexical = { ...(s.lexical ?? DEFAULT_LEXICAL), analyzer: e.target.value as AnalyzerName }))}>
          {ANALYZERS.map((a) => (
            <option key={a} value={a}>
              {ANALYZER_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      <label className="p-select">
        BM25 variant{' '}
        <select aria-label="BM25 variant" value={lexical.bm25} onChange={(e) => void setStructure((s) => void (s.lexical = { ...(s.lexical ?? DEFAULT_LEXICAL), bm25: e.target.value as Bm25Variant }))}>
          {BM25_VARIANTS.map((v) => (
            <option key={v} value={v}>
              {VARIANT_LABELS[v]}
            </option>
          ))}
        </select>
      </label>
      <p className="p-hint">
        Stemming matches “running” with “runs” (Chinese and Japanese keep their words). Lucene BM25 counts length in tokens and adds term scores; BM25+ counts
        distinct terms and multiplies by the terms matched. Changing either rebuilds only the BM25 indexes.
      </p>
    </div>
  );
}
