import { useState } from 'react';
import { LexicalControls } from './LexicalControls';
import { groupValue, type RetrievalParams } from '../../core/retrieve/params';
import { RETRIEVER_NAMES, RETRIEVERS } from '../../core/retrieve/retrievers';
import { PARAM_GROUPS } from '../../core/strategies/registry';
import { setIndexBackend, setRetrieval } from '../../state/controller';
import type { IndexBackend } from '../../worker/protocol';
import { useView } from '../../state/stores';
import { Check, LiveSlider } from './controls';

const RADIOS = RETRIEVERS.map((value) => {
  const name = RETRIEVER_NAMES[value].short;
  return { value, label: name.charAt(0).toUpperCase() + name.slice(1) };
});

/** The sliders and check boxes the strategies declare for their parameters, in registry order. */
function StrategyControls({ r }: { r: RetrievalParams }) {
  return PARAM_GROUPS.flatMap((g) =>
    g.fields.map((f) => {
      const value = ((r as unknown as Record<string, Record<string, unknown> | undefined>)[g.key] ?? g.defaults)[f.key];
      const apply = (v: number | boolean) => setRetrieval((p) => void (groupValue(p, g)[f.key] = v));
      if ((f.kind === 'int' || f.kind === 'real') && f.slider) {
        const { min, max, step, format } = f.slider;
        return <LiveSlider key={`${g.key}.${f.key}`} label={f.label} min={min} max={max} step={step} value={value as number} format={format} hint={f.hint} onInput={apply} />;
      }
      if (f.kind === 'flag' && f.check) return <Check key={`${g.key}.${f.key}`} label={f.label} checked={Boolean(value)} onChange={apply} />;
      return null;
    }),
  );
}

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
        {RADIOS.map((o) => (
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

      <LexicalControls />

      <label className="p-select">
        Vector index{' '}
        <select aria-label="Vector index" value={backend} onChange={(e) => void setIndexBackend(e.target.value as IndexBackend)}>
          <option value="auto">auto (default): exact below 20,000 vectors, approximate above</option>
          <option value="flat">exact scan</option>
          <option value="voy">voy-search k-d tree</option>
          <option value="ann">approximate (1-bit code scan + exact re-scoring)</option>
        </select>
      </label>
      <p className="p-hint">Approximate search: recall@10 ≥ 0.99 against the exact scan, measured on 100k–1M real-sentence vectors (npm run bench); its scores are exact cosines.</p>
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

      <StrategyControls r={r} />

      <LiveSlider label="RRF c" min={0} max={200} value={r.rrf.c} hint="Larger c flattens the rank differences." onInput={(n) => setRetrieval((p) => void (p.rrf.c = n))} />
      <LiveSlider label="RRF weight BM25" min={0} max={1} step={0.05} value={r.rrf.weights.bm25} format={weight} onInput={(n) => setRetrieval((p) => void (p.rrf.weights.bm25 = n))} />
      <LiveSlider label="RRF weight vector" min={0} max={1} step={0.05} value={r.rrf.weights.vector} format={weight} onInput={(n) => setRetrieval((p) => void (p.rrf.weights.vector = n))} />
      {r.rrf.weights.bm25 === 0 && r.rrf.weights.vector === 0 && <p className="p-warn">Both weights are 0: hybrid columns rank nothing.</p>}

      <LiveSlider label="Rerank top N" min={1} max={100} value={r.rerank.topN} hint="Units the cross-encoder re-scores." onInput={(n) => setRetrieval((p) => void (p.rerank.topN = n))} />
    </div>
  );
}
