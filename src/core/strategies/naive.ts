import type { ContextBlock } from '../types';
import { defineStrategy } from './types';

/**
 * Naive chunks, the baseline: fixed-size token chunks that ignore sentences and sections,
 * ranked as retrieved; each is a block, and those that do not fit the budget are skipped.
 */
export const naive = defineStrategy({
  name: 'naive',
  label: 'Naive chunks',
  note: '(baseline)',
  unit: 'chunk',
  blockWords: 'the fixed-size chunk',
  baseline: true,
  colour: '#777777',
  groups: [],
  axes: [],
  report: (_p, structure) => (structure ? { chunkTokens: structure.naive.size, overlap: structure.naive.overlap } : {}),
  words: (r, style) => (style === 'long' && r.chunkTokens !== undefined ? [`${r.chunkTokens}-token chunks`] : []),
  blocks(ctx, candidates, p) {
    const out: ContextBlock[] = [];
    let used = 0;
    for (const c of candidates) {
      const ch = ctx.chunks[c.id]!;
      const header = ctx.header(ch.sentences.start, ch.sentences.end);
      const cost = ch.tokens + ctx.headerCost(header);
      if (p.budgetTokens !== null && used + cost > p.budgetTokens) continue;
      used += cost;
      out.push({
        id: `naive:${ch.doc}:${ch.start}-${ch.end}`,
        doc: ch.doc,
        sentences: { ...ch.sentences },
        start: ch.start,
        end: ch.end,
        text: ch.text,
        ...(header ? { header } : {}),
        hits: [],
        score: c.score,
        tokens: cost,
        provenance: ctx.provenance('chunk', [c], {}),
      });
    }
    return out;
  },
});
