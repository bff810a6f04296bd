import type { Candidate, BlockCost } from './candidates';
import { commitMerge, planMerge, type RangeBlock } from './merge-ranges';

export interface WindowParams {
  /** Sentences kept before and after each hit. Default 3 and 3. */
  before: number;
  after: number;
}

export const DEFAULT_WINDOW: WindowParams = { before: 3, after: 3 };

/** A window block as a sentence range, before it becomes a ContextBlock. */
export interface WindowBlock extends RangeBlock {
  shrunk: boolean;
}

/** Window sizes to try around a hit, from what was asked down to the hit alone. */
function shrinkSteps(before: number, after: number): [number, number][] {
  const steps: [number, number][] = [];
  let b = before;
  let a = after;
  steps.push([b, a]);
  while (b > 0 || a > 0) {
    // Take from the larger side first, so what remains stays centred on the hit.
    if (b >= a && b > 0) b--;
    else a--;
    steps.push([b, a]);
  }
  return steps;
}

/**
 * Sentence-window expansion (LlamaIndex SentenceWindowNodeParser + postprocessor,
 * Haystack SentenceWindowRetriever), over ranges: each hit grows to `before`/`after`
 * sentences, clipped to its bound (its document, or its section when `bounds` says so).
 * Windows that overlap or touch within one bound merge into one block (no duplicated
 * text), ranked at the best hit's place. With a token budget, a window that does not fit
 * what is left shrinks around its hit instead of ending the context; a hit that cannot
 * fit even alone is skipped and later, smaller ones still get their chance.
 *
 * `bound(i)` gives [lo, hi) for sentence i.
 */
export function expandWindows(
  hits: Candidate[],
  params: WindowParams,
  bound: (i: number) => [number, number],
  cost: BlockCost,
  budget: number | null = null,
): WindowBlock[] {
  if (!Number.isInteger(params.before) || !Number.isInteger(params.after) || params.before < 0 || params.after < 0) {
    throw new RangeError(`window sizes must be whole numbers ≥ 0, got ${params.before} and ${params.after}`);
  }
  const blocks: WindowBlock[] = [];
  let used = 0;
  for (const hit of hits) {
    const [lo, hi] = bound(hit.id);
    // What the bounds allow: shrinking below this is for the budget, and the steps stay few.
    const maxB = Math.min(params.before, hit.id - lo);
    const maxA = Math.min(params.after, hi - 1 - hit.id);
    for (const [b, a] of shrinkSteps(maxB, maxA)) {
      // Everything it overlaps or touches inside the same bound merges with it.
      const plan = planMerge(blocks, Math.max(lo, hit.id - b), Math.min(hi, hit.id + a + 1), lo, hi, cost);
      if (budget !== null && used + plan.delta > budget) continue;
      used += plan.delta;
      const shrunk = b < maxB || a < maxA;
      if (plan.merged.length === 0) {
        blocks.push({ start: plan.start, end: plan.end, hits: [hit], score: hit.score, cost: plan.cost, shrunk });
      } else {
        // A merged window ranks with its best hit.
        const score = Math.max(...plan.merged.map((m) => m.score), hit.score);
        const keep = commitMerge(blocks, plan, hit);
        keep.score = score;
        keep.shrunk = plan.merged.some((m) => m.shrunk) || shrunk;
      }
      break;
    }
  }
  return blocks;
}
