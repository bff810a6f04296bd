/**
 * Relevant segment extraction (dsRAG `rse.py`): instead of fixed windows, find the
 * contiguous runs of units (leaves or sentences) whose summed relevance is highest.
 * Each unit of the documents the top results come from gets a value
 *   v = exp(−rank / decay) · relevance − penalty        (units not retrieved: −penalty)
 * and the best non-overlapping segments (maximum-sum runs, never crossing a document)
 * are taken greedily, best first, until the overall length, the minimum value or the
 * token budget stops it. Ported from dsRAG's get_best_segments; the token budget is ours.
 */

export interface RseParams {
  /** Longest segment, in units. */
  maxLength: number;
  /** All segments together, in units. */
  overallMaxLength: number;
  /** A segment must be worth at least this much. */
  minimumValue: number;
  /** Subtracted from every unit's value: bigger penalties give shorter segments. */
  irrelevantChunkPenalty: number;
  /** Rank decay of a unit's value. */
  decayRate: number;
  /** Documents of the top N results make up the meta-document. */
  topKForDocumentSelection: number;
}

/** dsRAG's presets (RSE_PARAMS_PRESETS, without the multi-query extension and chunk-length adjustment). */
export const RSE_PRESETS: Record<'balanced' | 'precision' | 'find_all', RseParams> = {
  balanced: { maxLength: 15, overallMaxLength: 30, minimumValue: 0.5, irrelevantChunkPenalty: 0.18, decayRate: 30, topKForDocumentSelection: 10 },
  precision: { maxLength: 15, overallMaxLength: 30, minimumValue: 0.7, irrelevantChunkPenalty: 0.2, decayRate: 30, topKForDocumentSelection: 10 },
  find_all: { maxLength: 40, overallMaxLength: 200, minimumValue: 0.4, irrelevantChunkPenalty: 0.18, decayRate: 200, topKForDocumentSelection: 200 },
};

/** The value of one unit: its rank (from 0) and relevance in [0, 1], or not retrieved at all. */
export function unitValue(rank: number | null, relevance: number, p: Pick<RseParams, 'irrelevantChunkPenalty' | 'decayRate'>): number {
  if (rank === null) return -p.irrelevantChunkPenalty;
  return Math.exp(-rank / p.decayRate) * relevance - p.irrelevantChunkPenalty;
}

export interface Segment {
  /** [start, end) in the value array. */
  start: number;
  end: number;
  value: number;
}

/**
 * dsRAG's get_best_segments for one query: repeatedly the maximum-sum run of at most
 * maxLength units that starts and ends on a non-negative unit, overlaps no chosen
 * segment, crosses no document split (an index where a new document starts), and keeps
 * the total within overallMaxLength (and `cost` within `budget`); stops when the best
 * remaining run is worth less than minimumValue. Ties keep the earliest run.
 */
export function bestSegments(
  values: number[],
  splits: number[],
  p: Pick<RseParams, 'maxLength' | 'overallMaxLength' | 'minimumValue'>,
  cost?: (start: number, end: number) => number,
  budget: number | null = null,
): Segment[] {
  const n = values.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + values[i]!;
  const chosen: Segment[] = [];
  let total = 0;
  let spent = 0;
  while (total < p.overallMaxLength) {
    let best: Segment | null = null;
    for (let start = 0; start < n; start++) {
      if (values[start]! < 0) continue;
      for (let end = start + 1; end <= Math.min(n, start + p.maxLength); end++) {
        if (values[end - 1]! < 0) continue;
        if (chosen.some((s) => start < s.end && end > s.start)) continue;
        if (splits.some((x) => start < x && end > x)) continue;
        if (total + end - start > p.overallMaxLength) continue;
        const v = prefix[end]! - prefix[start]!;
        if (best && v <= best.value) continue;
        if (budget !== null && cost && spent + cost(start, end) > budget) continue;
        best = { start, end, value: v };
      }
    }
    if (!best || best.value < p.minimumValue) break;
    chosen.push(best);
    total += best.end - best.start;
    if (cost) spent += cost(best.start, best.end);
  }
  return chosen;
}
