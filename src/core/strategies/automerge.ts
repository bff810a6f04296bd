import { autoMerge, DEFAULT_MERGE, fitMerged, type MergedNode } from '../retrieve/automerge';
import type { Candidate } from '../retrieve/candidates';
import type { ContextBlock, Provenance } from '../types';
import { cliNumber, defineAxis, defineGroup, defineStrategy, short, type StrategyContext, type WordStyle } from './types';

/** The share of a parent's children that must be retrieved (strictly more) before the parent replaces them. */
export const MERGE_PARAMS = defineGroup({
  key: 'merge',
  defaults: { ...DEFAULT_MERGE },
  fields: [
    {
      key: 'threshold',
      kind: 'real',
      min: 0,
      max: 1,
      url: 'mt',
      label: 'Merge threshold',
      hint: 'Merge into the parent when more than this share of its children is retrieved.',
      slider: { min: 0, max: 1, step: 0.05, format: (n) => n.toFixed(2) },
    },
  ],
  cli: {
    options: { threshold: { type: 'string' } },
    help: [`  --threshold X         auto-merge threshold (default ${DEFAULT_MERGE.threshold})`],
    read(values, d) {
      if (typeof values.threshold !== 'string') return { ...d };
      const threshold = cliNumber(values.threshold, 'threshold');
      if (threshold > 1) throw new RangeError(`--threshold must be between 0 and 1, got ${threshold}`);
      return { threshold };
    },
  },
  fromReport: (q) => (typeof q.threshold === 'number' ? { threshold: q.threshold } : null),
});

export const THRESHOLDS_AXIS = defineAxis({
  id: 'thresholds',
  label: 'Merge thresholds 0.1–0.9',
  group: MERGE_PARAMS,
  grid: () => [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  current: (m) => m.threshold,
  apply: (t: number) => ({ threshold: t }),
});

/** What a merging strategy reports and says about its points. */
export const mergeReport = (p: { merge: { threshold: number } }, structure?: { chunkLevels: number[] }) => ({
  threshold: p.merge.threshold,
  ...(structure ? { levels: structure.chunkLevels } : {}),
});

export function mergeWords(r: Record<string, unknown>, style: WordStyle): string[] {
  if (typeof r.threshold !== 'number') return [];
  return [style === 'short' ? `threshold ${short(r.threshold)}` : `merge threshold ${short(r.threshold)}`];
}

/**
 * With a budget, merging decides among the leaves the budget would hold, as with a small
 * top-k in LlamaIndex: merging over 50 retrieved leaves would promote nearly every parent
 * of a short document. Returns those leaves as chunk-tree node candidates.
 */
export function leavesWithinBudget(ctx: StrategyContext, candidates: Candidate[], budget: number | null): Candidate[] {
  let pool = candidates;
  if (budget !== null) {
    pool = [];
    let used = 0;
    for (const c of candidates) {
      const leaf = ctx.leaf(c.id);
      const cost = ctx.blockCost(leaf.start, leaf.end);
      if (used + cost > budget) continue;
      used += cost;
      pool.push(c);
    }
  }
  return pool.map((c) => ({ ...c, id: ctx.hierarchy.leaves[c.id]! }));
}

/** Merged nodes as blocks: the node's sentences, its retrieved leaves highlighted. */
export function mergedBlocks(ctx: StrategyContext, strategy: string, merged: MergedNode[], extra: (m: MergedNode) => Partial<Provenance> = () => ({})): ContextBlock[] {
  return merged.map((m) => {
    const n = ctx.hierarchy.nodes[m.node]!;
    // A parent with one child is the same text: no merge worth reporting.
    const merge = m.merged && m.merged.of > 1 ? { merged: m.merged } : {};
    return ctx.block({ strategy, unit: 'leaf', start: n.start, end: n.end, hits: m.leaves, score: m.score, extra: { ...merge, ...extra(m) }, hitSentences: ctx.sentencesOf(m.leaves.map((l) => l.id)) });
  });
}

/**
 * Auto-merging (Haystack's AutoMergingRetriever; LlamaIndex's without its fill-in step):
 * retrieved leaves are replaced by their parent when strictly more than the threshold of
 * its children were retrieved, scored with their mean, up the levels; then fitted to the
 * budget, a parent that does not fit falling back to its leaves.
 */
export const automerge = defineStrategy({
  name: 'automerge',
  label: 'Auto-merged parents',
  unit: 'leaf',
  blockWords: 'the leaf chunk, or the parent it was merged into',
  colour: '#117733',
  groups: [MERGE_PARAMS],
  axes: [THRESHOLDS_AXIS],
  report: mergeReport,
  words: mergeWords,
  blocks(ctx, candidates, p) {
    const leaves = leavesWithinBudget(ctx, candidates, p.budgetTokens);
    return mergedBlocks(ctx, 'automerge', fitMerged(ctx.hierarchy, autoMerge(ctx.hierarchy, leaves, p.merge), ctx.blockCost, p.budgetTokens));
  },
});
