/**
 * The overlap strip's one line, shown while the table is closed: the most and least alike
 * pair of shown columns and the mean Jaccard over all pairs. Pure, so it is tested with exact
 * values; the strip renders it as text.
 */
import type { OverlapMatrix } from './overlap';

export interface OverlapSummary {
  pairs: number;
  /** Mean Jaccard over the pairs where either column hands something over; null when none does. */
  mean: number | null;
  most: { a: number; b: number; jaccard: number } | null;
  least: { a: number; b: number; jaccard: number } | null;
}

/** Over every unordered pair i < j; ties keep the first pair in column order. */
export function overlapSummary(m: OverlapMatrix): OverlapSummary {
  let sum = 0;
  let counted = 0;
  let pairs = 0;
  let most: OverlapSummary['most'] = null;
  let least: OverlapSummary['least'] = null;
  for (let a = 0; a < m.ids.length; a++) {
    for (let b = a + 1; b < m.ids.length; b++) {
      pairs++;
      const jaccard = m.cells[a]![b]!.jaccard;
      if (jaccard === null) continue;
      sum += jaccard;
      counted++;
      if (!most || jaccard > most.jaccard) most = { a, b, jaccard };
      if (!least || jaccard < least.jaccard) least = { a, b, jaccard };
    }
  }
  return { pairs, mean: counted ? sum / counted : null, most, least };
}

/** "most alike: Sentence windows & Adaptive windows 0.91 · least alike: Naive chunks & RSE 0.05 · mean of 66 pairs 0.42". */
export function overlapSummaryLine(s: OverlapSummary, label: (i: number) => string): string {
  if (!s.most || !s.least || s.mean === null) return 'no strategy hands over a sentence';
  const pair = (p: { a: number; b: number; jaccard: number }) => `${label(p.a)} & ${label(p.b)} ${p.jaccard.toFixed(2)}`;
  if (s.pairs === 1) return `${pair(s.most)} (Jaccard)`;
  return `most alike: ${pair(s.most)} · least alike: ${pair(s.least)} · mean of ${s.pairs} pairs ${s.mean.toFixed(2)}`;
}
