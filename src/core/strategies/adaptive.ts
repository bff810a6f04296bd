import { adaptiveWindows, DEFAULT_ADAPTIVE } from '../retrieve/adaptive';
import { words } from '../segment/words';
import { defineGroup, defineStrategy, type StrategyContext } from './types';
import { WINDOW_PARAMS } from './window';

export const ADAPTIVE_PARAMS = defineGroup({
  key: 'adaptive',
  defaults: { ...DEFAULT_ADAPTIVE },
  fields: [
    { key: 'threshold', kind: 'real', min: -1, max: 1, label: 'Adaptive threshold' },
    { key: 'maxBefore', kind: 'int', min: 0, label: 'Adaptive max before' },
    { key: 'maxAfter', kind: 'int', min: 0, label: 'Adaptive max after' },
    { key: 'policy', kind: 'choice', values: ['query', 'query+hit'], label: 'Adaptive relevance' },
  ],
});

/**
 * How relevant each sentence is to the query, for adaptive windows: the cosine of the
 * sentence's vector with the query's (and the hit's, with policy query+hit) when both
 * exist, else the share of the query's words the sentence contains.
 */
export function sentenceRelevance(ctx: StrategyContext, policy: 'query' | 'query+hit'): { relevance: (i: number, hit: number) => number; source: 'vector' | 'words' } {
  const sim = ctx.similarity;
  if (sim) {
    const toQuery = (i: number) => sim.toQuery(i) ?? 0;
    if (policy === 'query') return { relevance: toQuery, source: 'vector' };
    return { relevance: (i, hit) => (toQuery(i) + (sim.between(hit, i) ?? 0)) / 2, source: 'vector' };
  }
  const corpus = ctx.corpus;
  const qWords = new Set(words(ctx.query, corpus.docs[0]?.language ?? 'en'));
  const cache = new Map<number, number>();
  const overlap = (i: number) => {
    let v = cache.get(i);
    if (v === undefined) {
      const s = corpus.sentences[i]!;
      const w = new Set(words(s.text, corpus.docs[s.doc]!.language));
      let n = 0;
      for (const x of qWords) if (w.has(x)) n++;
      cache.set(i, (v = qWords.size ? n / qWords.size : 0));
    }
    return v;
  };
  return { relevance: policy === 'query' ? overlap : (i, hit) => (overlap(i) + overlap(hit)) / 2, source: 'words' };
}

/**
 * Adaptive windows: from each hit, grow one sentence at a time toward the more relevant
 * neighbour while it stays above the threshold, within the hit's bound (the window
 * group's bySection), the max sizes and the budget; each block says why it stopped.
 */
export const adaptive = defineStrategy({
  name: 'adaptive',
  label: 'Adaptive windows',
  unit: 'sentence',
  blockWords: 'the adaptive window',
  colour: '#AA4499',
  groups: [ADAPTIVE_PARAMS, WINDOW_PARAMS],
  axes: [],
  blocks(ctx, candidates, p) {
    const { relevance, source } = sentenceRelevance(ctx, p.adaptive.policy);
    const bySection = p.window.bySection;
    return adaptiveWindows(candidates, p.adaptive, relevance, (i) => ctx.bound(i, bySection), ctx.blockCost, p.budgetTokens).map((w) => {
      const best = [...w.hits].sort((a, b) => b.score - a.score)[0]!;
      return ctx.block({
        strategy: 'adaptive',
        unit: 'sentence',
        start: w.start,
        end: w.end,
        hits: w.hits,
        score: w.score,
        extra: {
          adaptive: { before: best.id - w.start, after: w.end - 1 - best.id, stopped: w.stopped, relevance: source },
          ...(w.hits.length > 1 ? { hits: w.hits.length } : {}),
        },
      });
    });
  },
});
