import type { BlockCost, Candidate } from './candidates';

/** A block over sentences [start, end) that windows grow and merge. */
export interface RangeBlock {
  start: number;
  end: number;
  /** The hits inside, in the order they joined. */
  hits: Candidate[];
  score: number;
  /** Its cost, counted against the budget. */
  cost: number;
}

/** What adding a range would do: the blocks it joins, the merged range, its cost and the budget it takes beyond theirs. */
export interface MergePlan<B extends RangeBlock> {
  merged: B[];
  start: number;
  end: number;
  cost: number;
  delta: number;
}

/**
 * The step sentence windows and adaptive windows share: a new range [start, end) joins
 * every block it overlaps or touches inside the same bound [lo, hi), so no text is handed
 * over twice. Plans only; commitMerge applies it once the caller knows it fits.
 */
export function planMerge<B extends RangeBlock>(blocks: readonly B[], start: number, end: number, lo: number, hi: number, cost: BlockCost): MergePlan<B> {
  const merged = blocks.filter((x) => x.start <= end && start <= x.end && x.start >= lo && x.end <= hi);
  let s = start;
  let e = end;
  for (const m of merged) {
    s = Math.min(s, m.start);
    e = Math.max(e, m.end);
  }
  const c = cost(s, e);
  return { merged, start: s, end: e, cost: c, delta: c - merged.reduce((n, m) => n + m.cost, 0) };
}

/**
 * Applies a plan with at least one merged block: the earliest (best-ranked) block keeps its
 * place and takes the merged range, cost and every hit (the new one last); the others are
 * removed. Scores are left to the caller: each window kind scores a merge its own way.
 */
export function commitMerge<B extends RangeBlock>(blocks: B[], plan: MergePlan<B>, hit: Candidate): B {
  const keep = plan.merged[0]!;
  keep.start = plan.start;
  keep.end = plan.end;
  keep.cost = plan.cost;
  keep.hits = [...plan.merged.flatMap((m) => m.hits), hit];
  for (const m of plan.merged.slice(1)) blocks.splice(blocks.indexOf(m), 1);
  return keep;
}
