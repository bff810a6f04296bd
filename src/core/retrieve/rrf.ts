/** One retriever's ranked output: unit ids best first, with raw scores. */
export interface RankedList {
  name: string;
  items: { id: number; score: number }[];
  /** Weight in the fusion; default 1/n. 0 means the list contributes nothing. */
  weight?: number;
}

export interface FusedItem {
  id: number;
  /** Fused score. */
  score: number;
  /** Rank in each list (from 1), null when absent. */
  ranks: Record<string, number | null>;
  /** Raw score in each list where present. */
  scores: Record<string, number>;
}

export interface RrfOptions {
  /** The constant c (k in some libraries). Default 60. */
  c?: number;
  /** Rank of the first item: 1 (LangChain, LlamaIndex, the paper) or 0 (Haystack). */
  rankFrom?: 0 | 1;
  /**
   * Haystack's variant: weights are multiplied by the number of lists and scores divided
   * by n / c, so with rankFrom 0 and weights summing to 1 a unit first everywhere scores 1.
   */
  normalize?: boolean;
}

/**
 * Weighted Reciprocal Rank Fusion: score(d) = Σᵢ wᵢ / (c + rankᵢ(d)). Units are deduped
 * by id; ties keep first-seen order (list order, then rank), like LangChain's
 * EnsembleRetriever. A weight of 0 really is 0 — it is never taken as "unset".
 */
export function reciprocalRankFusion(lists: RankedList[], options: RrfOptions = {}): FusedItem[] {
  const c = options.c ?? 60;
  const from = options.rankFrom ?? 1;
  if (!(c >= 0) || !Number.isFinite(c) || (options.normalize && c === 0)) throw new Error(`RRF constant c must be a finite number ≥ 0 (> 0 to normalise), got ${c}`);
  const n = lists.length;
  const fused = new Map<number, FusedItem>();
  const order: number[] = [];
  for (const list of lists) {
    const w = list.weight ?? 1 / n;
    if (!(w >= 0) || !Number.isFinite(w)) throw new Error(`weight of '${list.name}' must be a finite number ≥ 0, got ${w}`);
    const seen = new Set<number>();
    list.items.forEach((item, i) => {
      if (seen.has(item.id)) return; // a list that repeats a unit counts it once, at its best rank
      seen.add(item.id);
      let f = fused.get(item.id);
      if (!f) {
        f = { id: item.id, score: 0, ranks: Object.fromEntries(lists.map((l) => [l.name, null])), scores: {} };
        fused.set(item.id, f);
        order.push(item.id);
      }
      const rank = i + from;
      f.ranks[list.name] = i + 1;
      f.scores[list.name] = item.score;
      f.score += (options.normalize ? w * n : w) / (c + rank);
    });
  }
  // Units seen only in zero-weight lists scored 0: they are not retrieved at all.
  const out = order.map((id) => fused.get(id)!).filter((f) => f.score > 0);
  if (options.normalize) {
    const best = n / c;
    for (const f of out) f.score /= best;
  }
  // Array.prototype.sort is stable: equal scores keep first-seen order.
  return out.sort((a, b) => b.score - a.score);
}
