import type { ContextBlock } from '../types';
import { defineStrategy } from './types';

/** Sentence hits: each retrieved sentence alone is a block; those that do not fit the budget are skipped. */
export const sentence = defineStrategy({
  name: 'sentence',
  label: 'Sentence hits',
  unit: 'sentence',
  blockWords: 'the retrieved sentence',
  colour: '#CC6677',
  groups: [],
  axes: [],
  blocks(ctx, candidates, p) {
    const out: ContextBlock[] = [];
    let used = 0;
    for (const c of candidates) {
      const cost = ctx.blockCost(c.id, c.id + 1);
      if (p.budgetTokens !== null && used + cost > p.budgetTokens) continue;
      used += cost;
      out.push(ctx.block({ strategy: 'sentence', unit: 'sentence', start: c.id, end: c.id + 1, hits: [c], score: c.score }));
    }
    return out;
  },
});
