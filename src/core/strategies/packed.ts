import type { Candidate } from '../retrieve/candidates';
import type { ContextBlock } from '../types';
import { defineStrategy, type StrategyContext } from './types';

/**
 * Chunks made of whole sentences (packed and semantic) as blocks, as naive chunks are: each
 * retrieved chunk is a block, ranked as retrieved; those that do not fit the budget are skipped.
 */
export function sentenceRunBlocks(ctx: StrategyContext, kind: 'packed' | 'semantic', candidates: readonly Candidate[], budget: number | null): ContextBlock[] {
  const out: ContextBlock[] = [];
  let used = 0;
  for (const c of candidates) {
    const u = ctx.unitSpan(kind, c.id);
    const cost = ctx.blockCost(u.start, u.end);
    if (budget !== null && used + cost > budget) continue;
    used += cost;
    // The whole chunk was retrieved: no sentence inside is highlighted as a hit.
    out.push(ctx.block({ strategy: kind, unit: kind, start: u.start, end: u.end, hits: [c], score: c.score, hitSentences: [] }));
  }
  return out;
}

/**
 * Sentence-packed chunks (LlamaIndex SentenceSplitter, the default most pipelines start
 * from): whole sentences packed up to a chunk size, with whole sentences of overlap.
 */
export const packed = defineStrategy({
  name: 'packed',
  label: 'Sentence-packed chunks',
  unit: 'packed',
  blockWords: 'the sentence-packed chunk',
  colour: '#555555',
  groups: [],
  axes: [],
  report: (_p, structure) => (structure ? { packedTokens: structure.packed.size, packedOverlap: structure.packed.overlap } : {}),
  words: (r, style) => (style === 'long' && r.packedTokens !== undefined ? [`${r.packedTokens}-token packed chunks, ${r.packedOverlap} overlap`] : []),
  blocks: (ctx, candidates, p) => sentenceRunBlocks(ctx, 'packed', candidates, p.budgetTokens),
});
