import { bestSegments, RSE_PRESETS, unitValue } from '../retrieve/rse';
import { defineGroup, defineStrategy } from './types';

export const RSE_PARAMS = defineGroup({
  key: 'rse',
  defaults: { ...RSE_PRESETS.balanced },
  fields: [
    { key: 'maxLength', kind: 'int', min: 1, label: 'Longest segment (leaves)' },
    { key: 'overallMaxLength', kind: 'int', min: 1, label: 'All segments (leaves)' },
    { key: 'minimumValue', kind: 'real', min: -1e6, max: Infinity, label: 'Minimum segment value' },
    { key: 'irrelevantChunkPenalty', kind: 'real', min: 0, max: Infinity, label: 'Irrelevant leaf penalty' },
    { key: 'decayRate', kind: 'real', min: 1e-9, max: Infinity, label: 'Rank decay' },
    { key: 'topKForDocumentSelection', kind: 'int', min: 1, label: 'Documents of the top N results' },
  ],
});

/**
 * Relevant segment extraction over leaves (dsRAG's RSE): the documents of the top results
 * form the meta-document, each leaf gets dsRAG's value from its rank and its relevance (its
 * score over the best score), and the best segments within the budget become blocks.
 */
export const rse = defineStrategy({
  name: 'rse',
  label: 'Relevant segments (RSE)',
  unit: 'leaf',
  blockWords: 'the relevant segment',
  colour: '#999933',
  groups: [RSE_PARAMS],
  axes: [],
  blocks(ctx, cands, p) {
    if (!cands.length) return [];
    const r = p.rse;
    const maxScore = Math.max(...cands.map((c) => c.score), 1e-12);
    const rankOf = new Map(cands.map((c, i) => [c.id, { rank: i, relevance: Math.max(0, c.score) / maxScore, cand: c }]));
    const docs: number[] = [];
    for (const c of cands.slice(0, r.topKForDocumentSelection)) {
      const d = ctx.leaf(c.id).doc;
      if (!docs.includes(d)) docs.push(d);
    }
    const ranges = ctx.unitRangesByDoc('leaf');
    const meta: number[] = []; // meta index → leaf id
    const splits: number[] = [];
    for (const d of docs) {
      if (meta.length) splits.push(meta.length);
      const [a, b] = ranges[d]!;
      for (let leaf = a; leaf < b; leaf++) meta.push(leaf);
    }
    const values = meta.map((leaf) => {
      const hit = rankOf.get(leaf);
      return hit ? unitValue(hit.rank, hit.relevance, r) : unitValue(null, 0, r);
    });
    const span = (start: number, end: number) => [ctx.leaf(meta[start]!).start, ctx.leaf(meta[end - 1]!).end] as const;
    const cost = (start: number, end: number) => ctx.blockCost(...span(start, end));
    return bestSegments(values, splits, r, cost, p.budgetTokens).map((seg) => {
      const [s, e] = span(seg.start, seg.end);
      const inside = meta.slice(seg.start, seg.end).filter((leaf) => rankOf.has(leaf));
      const hitCands = inside.map((leaf) => rankOf.get(leaf)!.cand).sort((a, b) => b.score - a.score);
      const hitSentences = ctx.sentencesOf(inside.map((leaf) => ctx.hierarchy.leaves[leaf]!));
      const extra = { segment: { value: seg.value, units: seg.end - seg.start, retrieved: inside.length } };
      return ctx.block({ strategy: 'rse', unit: 'leaf', start: s, end: e, hits: hitCands.length ? hitCands : [cands[0]!], score: seg.value, extra, hitSentences });
    });
  },
});
