import { useState } from 'react';
import type { RetrieverName } from '../../core/retrieve/params';
import { setIndexBackend, setRetrieval } from '../../state/controller';
import type { IndexBackend } from '../../worker/protocol';
import { useView } from '../../state/stores';
import { Check, LiveSlider } from './controls';

const RETRIEVERS: { value: RetrieverName; label: string }[] = [
  { value: 'bm25', label: 'BM25' },
  { value: 'vector', label: 'Vector' },
  { value: 'hybrid', label: 'Hybrid' },
];

const weight = (n: number) => (n === 0 ? '0 (off)' : n.toFixed(2));

/** Retrieval-only parameters: each input event re-runs the columns, nothing is re-embedded. */
export function RetrievalControls() {
  const r = useView((s) => s.view.retrieval);
  const backend = useView((s) => s.view.indexBackend);
  // The budget last used, so switching the budget off and on keeps it.
  const [lastBudget, setLastBudget] = useState(r.budgetTokens ?? 512);
  const budgetOn = r.budgetTokens !== null;

  return (
    <div className="p-group">
      <h3>Retrieval</h3>
      <p className="p-hint">Applied at once; nothing is re-embedded.</p>

      <fieldset className="p-radios">
        <legend>Plain columns rank with</legend>
        {RETRIEVERS.map((o) => (
          <label key={o.value}>
            <input
              type="radio"
              name="base-retriever"
              value={o.value}
              checked={r.retriever === o.value}
              onChange={() => setRetrieval((p) => void (p.retriever = o.value))}
            />
            {o.label}
          </label>
        ))}
      </fieldset>

      <label className="p-select">
        Vector index{' '}
        <select aria-label="Vector index" value={backend} onChange={(e) => void setIndexBackend(e.target.value as IndexBackend)}>
          <option value="flat">exact scan (default)</option>
          <option value="voy">voy-search k-d tree</option>
        </select>
      </label>
      <p className="p-hint">The exact scan is as fast as voy at 384 dimensions and builds ~60× faster (npm run bench:index); switching moves the vectors, nothing is re-embedded.</p>

      <LiveSlider label="Top-k" min={1} max={100} value={r.topK} onInput={(n) => setRetrieval((p) => void (p.topK = n))} hint="Units retrieved before windows or merging." />

      <Check
        label="Limit context to a budget"
        checked={budgetOn}
        onChange={(on) => setRetrieval((p) => void (p.budgetTokens = on ? lastBudget : null))}
      />
      <LiveSlider
        label="Budget (tokens)"
        min={64}
        max={4096}
        step={64}
        value={r.budgetTokens ?? lastBudget}
        format={(n) => (budgetOn ? `${n} tokens` : 'off')}
        disabled={!budgetOn}
        onInput={(n) => {
          setLastBudget(n);
          setRetrieval((p) => void (p.budgetTokens = n));
        }}
      />

      <LiveSlider label="Window before" min={0} max={10} value={r.window.before} format={(n) => `${n} sent.`} onInput={(n) => setRetrieval((p) => void (p.window.before = n))} />
      <LiveSlider label="Window after" min={0} max={10} value={r.window.after} format={(n) => `${n} sent.`} onInput={(n) => setRetrieval((p) => void (p.window.after = n))} />
      <Check label="Windows stay inside their section" checked={r.window.bySection} onChange={(b) => setRetrieval((p) => void (p.window.bySection = b))} />

      <LiveSlider
        label="Merge threshold"
        min={0}
        max={1}
        step={0.05}
        value={r.merge.threshold}
        format={(n) => n.toFixed(2)}
        hint="Merge into the parent when more than this share of its children is retrieved."
        onInput={(n) => setRetrieval((p) => void (p.merge.threshold = n))}
      />

      <LiveSlider label="RRF c" min={0} max={200} value={r.rrf.c} hint="Larger c flattens the rank differences." onInput={(n) => setRetrieval((p) => void (p.rrf.c = n))} />
      <LiveSlider label="RRF weight BM25" min={0} max={1} step={0.05} value={r.rrf.weights.bm25} format={weight} onInput={(n) => setRetrieval((p) => void (p.rrf.weights.bm25 = n))} />
      <LiveSlider label="RRF weight vector" min={0} max={1} step={0.05} value={r.rrf.weights.vector} format={weight} onInput={(n) => setRetrieval((p) => void (p.rrf.weights.vector = n))} />
      {r.rrf.weights.bm25 === 0 && r.rrf.weights.vector === 0 && <p className="p-warn">Both weights are 0: hybrid columns rank nothing.</p>}

      <LiveSlider label="Rerank top N" min={1} max={100} value={r.rerank.topN} hint="Units the cross-encoder re-scores." onInput={(n) => setRetrieval((p) => void (p.rerank.topN = n))} />
    </div>
  );
}
