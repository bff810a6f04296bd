import { describe, expect, it } from 'vitest';
import { RetrievalEngine } from '../engine';
import { strategyParams } from '../eval/run-eval';
import { axisValues, defaultSweep, pointParams } from '../eval/sweep';
import { DEFAULT_RETRIEVAL, retrievalParams } from '../retrieve/params';
import { BASELINE, COMPARISON_STRATEGY, PARAM_GROUPS, STRATEGIES, STRATEGY_LIST, strategyOf, strategyTitle, SWEEP_AXES } from './registry';

describe('the strategy registry', () => {
  it('names every strategy once, with a title no other title starts with (the page finds columns by title)', () => {
    expect(new Set(STRATEGIES).size).toBe(STRATEGIES.length);
    const titles = STRATEGY_LIST.map((s) => s.label);
    for (const a of titles) for (const b of titles) if (a !== b) expect(b.startsWith(a), `${b} starts with ${a}`).toBe(false);
    expect(strategyTitle(BASELINE)).toBe('Naive chunks (baseline)');
    expect(strategyOf(COMPARISON_STRATEGY.name).label).toBe('Sentence windows');
  });

  it('gives every parameter group its defaults in the retrieval parameters, each valid by its own fields', () => {
    for (const g of PARAM_GROUPS) expect((DEFAULT_RETRIEVAL as unknown as Record<string, unknown>)[g.key]).toEqual(g.defaults);
    expect(() => retrievalParams()).not.toThrow();
    expect(() => retrievalParams({ adaptive: { ...DEFAULT_RETRIEVAL.adaptive, policy: 'nearby' as never } })).toThrow('adaptive.policy must be query or query+hit');
    expect(() => retrievalParams({ rse: { ...DEFAULT_RETRIEVAL.rse, maxLength: 0 } })).toThrow('rse.maxLength must be a whole number ≥ 1, got 0');
  });

  it('a measured point replays with the parameters it was measured with (those its sweep axes set)', () => {
    const engine = new RetrievalEngine();
    const p = retrievalParams({ retriever: 'hybrid', topK: 7, window: { before: 1, after: 4, bySection: true }, merge: { threshold: 0.3 }, rrf: { c: 10, weights: { bm25: 0.25, vector: 0.75 } } });
    for (const s of STRATEGIES) {
      const back = pointParams({ strategy: s, retriever: 'hybrid', params: strategyParams(s, p, engine) });
      expect(back.topK, s).toBe(7);
      expect(back.rrf, s).toEqual(p.rrf);
      for (const { group: g } of strategyOf(s).axes) expect((back as Record<string, unknown>)[g.key], `${s} ${g.key}`).toEqual((p as unknown as Record<string, unknown>)[g.key]);
    }
  });

  it('sweeps each axis over its grid when asked, else at the current value', () => {
    const current = retrievalParams({ window: { before: 1, after: 2, bySection: false }, merge: { threshold: 0.35 } });
    const grid = defaultSweep();
    expect(SWEEP_AXES.map((a) => a.id)).toEqual(['windows', 'thresholds']);
    expect(axisValues({ windows: true }, current)).toEqual({ windows: grid.windows, thresholds: [0.35] });
    expect(axisValues({ thresholds: true }, current)).toEqual({ windows: [{ before: 1, after: 2 }], thresholds: grid.thresholds });
    expect(grid.windows).toHaveLength(36);
  });
});
