import type { BlockCost, Candidate } from './candidates';
import { commitMerge, planMerge, type RangeBlock } from './merge-ranges';

export interface AdaptiveParams {
  /** A neighbour joins the window while its relevance is at least this. */
  threshold: number;
  maxBefore: number;
  maxAfter: number;
  /** Relevance to the query alone, or the mean of relevance to the query and to the hit sentence. */
  policy: 'query' | 'query+hit';
}

export const DEFAULT_ADAPTIVE: AdaptiveParams = { threshold: 0.3, maxBefore: 5, maxAfter: 5, policy: 'query' };

/** Why a window stopped growing on one side. */
export type StopReason = 'threshold' | 'edge' | 'budget' | 'max';

export interface AdaptiveBlock extends RangeBlock {
  stopped: { before: StopReason; after: StopReason };
}

/**
 * Adaptive sentence windows: from each hit, grow one sentence at a time toward the more
 * relevant neighbour while that neighbour's relevance stays at or above the threshold,
 * within the hit's bound (document or section), the max before/after and the token
 * budget. Each side records why it stopped. A window that overlaps or touches an earlier
 * block merges into it (the earlier block keeps its place), as fixed windows do.
 *
 * `relevance(i, hit)` scores sentence i for the query (and, with policy query+hit, the hit).
 */
export function adaptiveWindows(
  hits: Candidate[],
  params: AdaptiveParams,
  relevance: (i: number, hit: number) => number,
  bound: (i: number) => [number, number],
  cost: BlockCost,
  budget: number | null = null,
): AdaptiveBlock[] {
  for (const k of ['maxBefore', 'maxAfter'] as const) {
    if (!Number.isInteger(params[k]) || params[k] < 0) throw new RangeError(`${k} must be a whole number ≥ 0`);
  }
  const blocks: AdaptiveBlock[] = [];
  let used = 0;
  for (const hit of hits) {
    const [lo, hi] = bound(hit.id);
    const covering = blocks.find((b) => b.start <= hit.id && hit.id < b.end);
    if (covering) {
      covering.hits.push(hit); // already handed over inside an earlier window
      continue;
    }
    const baseCost = cost(hit.id, hit.id + 1);
    if (budget !== null && used + baseCost > budget) continue;
    let start = hit.id;
    let end = hit.id + 1;
    let current = baseCost;
    const stopped: { before?: StopReason; after?: StopReason } = {};
    for (;;) {
      const canBefore = !stopped.before && start > lo && hit.id - start < params.maxBefore;
      const canAfter = !stopped.after && end < hi && end - 1 - hit.id < params.maxAfter;
      if (!stopped.before && !canBefore) stopped.before = start <= lo ? 'edge' : 'max';
      if (!stopped.after && !canAfter) stopped.after = end >= hi ? 'edge' : 'max';
      if (!canBefore && !canAfter) break;
      const rb = canBefore ? relevance(start - 1, hit.id) : -Infinity;
      const ra = canAfter ? relevance(end, hit.id) : -Infinity;
      const side: 'before' | 'after' = rb > ra ? 'before' : 'after'; // ties grow forward: text reads on
      const r = side === 'before' ? rb : ra;
      if (r < params.threshold) {
        // The better neighbour is below the threshold: both sides stop here.
        if (canBefore) stopped.before = 'threshold';
        if (canAfter) stopped.after = 'threshold';
        break;
      }
      const [s, e] = side === 'before' ? [start - 1, end] : [start, end + 1];
      const next = cost(s, e);
      if (budget !== null && used + next > budget) {
        stopped[side] = 'budget';
        continue;
      }
      [start, end, current] = [s, e, next];
    }
    // Merge with blocks it now overlaps or touches in the same bound.
    const plan = planMerge(blocks, start, end, lo, hi, cost);
    if (plan.merged.length) {
      if (budget !== null && used + plan.delta > budget) continue;
      used += plan.delta;
      // Unlike fixed windows, the kept block's own score meets the hit's.
      const score = Math.max(plan.merged[0]!.score, hit.score);
      commitMerge(blocks, plan, hit).score = score;
      continue;
    }
    used += current;
    blocks.push({ start, end, hits: [hit], score: hit.score, cost: current, stopped: stopped as AdaptiveBlock['stopped'] });
  }
  return blocks;
}
