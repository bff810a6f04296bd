import type { Candidate, BlockCost } from './candidates';

export interface WindowParams {
  /** Sentences kept before and after each hit. Default 3 and 3. */
  before: number;
  after: number;
}

export const DEFAULT_WINDOW: WindowParams = { before: 3, after: 3 };

/** A window block as a sentence range, before it becomes a ContextBlock. */
export interface WindowBlock {
  start: number;
  end: number;
  /** The hits inside, best first. */
  hits: Candidate[];
  score: number;
  /** Total cost counted against the budget. */
  cost: number;
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
    let placed = false;
    for (const [b, a] of shrinkSteps(maxB, maxA)) {
      let start = Math.max(lo, hit.id - b);
      let end = Math.min(hi, hit.id + a + 1);
      // Everything it overlaps or touches inside the same bound merges with it.
      const merged = blocks.filter((x) => x.start <= end && start <= x.end && x.start >= lo && x.end <= hi);
      for (const m of merged) {
        start = Math.min(start, m.start);
        end = Math.max(end, m.end);
      }
      const newCost = cost(start, end);
      const delta = newCost - merged.reduce((s, m) => s + m.cost, 0);
      if (budget !== null && used + delta > budget) continue;
      used += delta;
      const shrunk = b < maxB || a < maxA;
      if (merged.length === 0) {
        blocks.push({ start, end, hits: [hit], score: hit.score, cost: newCost, shrunk });
      } else {
        const keep = merged[0]!; // the earliest (best-ranked) block keeps its place
        keep.start = start;
        keep.end = end;
        keep.cost = newCost;
        keep.hits = [...merged.flatMap((m) => m.hits), hit];
        keep.score = Math.max(...merged.map((m) => m.score), hit.score);
        keep.shrunk = merged.some((m) => m.shrunk) || shrunk;
        for (const m of merged.slice(1)) blocks.splice(blocks.indexOf(m), 1);
      }
      placed = true;
      break;
    }
    if (!placed) continue;
  }
  return blocks;
}
