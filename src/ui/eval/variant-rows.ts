/**
 * A run that compared engine variants (headers, late chunking, contextual retrieval off and on:
 * core/eval/variants.ts) shown side by side: each variant's best point per strategy and budget,
 * with the paired difference from the same point measured with every compared switch off. The
 * best-point table keeps only the best of each strategy, so it would hide the variant that lost.
 */
import { difference } from '../../core/eval/compare';
import type { Difference } from '../../core/eval/bootstrap';
import type { MetricName } from '../../core/eval/sweep';
import { VARIANT_AXES, variantLabel, type EngineVariant, type VariantAxis } from '../../core/eval/variants';
import { STRATEGIES, type StrategyName } from '../../core/strategies/registry';
import type { EvalPointView } from '../../worker/protocol';

/** The switches a point was measured with (from the point, else its reported parameters). */
export function pointVariant(p: EvalPointView): EngineVariant {
  const q = p.params as { headers?: boolean; late?: boolean; contextual?: boolean };
  return { headers: Boolean(p.headers ?? q.headers), late: Boolean(p.late ?? q.late), contextual: Boolean(p.contextual ?? q.contextual) };
}

/** The switches the run measured both off and on. */
export function comparedAxes(points: readonly EvalPointView[]): Partial<Record<VariantAxis, boolean>> {
  const vs = points.map(pointVariant);
  return Object.fromEntries(VARIANT_AXES.filter((a) => vs.some((v) => v[a]) && vs.some((v) => !v[a])).map((a) => [a, true]));
}

export interface VariantRow {
  budget: number;
  strategy: StrategyName;
  /** "late chunking on", "headers off · late chunking on". */
  variant: string;
  point: EvalPointView;
  /** The point minus the same point with every compared switch off, paired over the questions; null for those rows and where none was measured. */
  vsOff: Difference | null;
}

/** Rows by budget, strategy (the usual order), then variant (off before on); empty when the run compared none. */
export function variantRows(points: readonly EvalPointView[], metric: MetricName): VariantRow[] {
  const compared = comparedAxes(points);
  const axes = VARIANT_AXES.filter((a) => compared[a]);
  if (!axes.length) return [];
  const on = (p: EvalPointView) => axes.map((a) => (pointVariant(p)[a] ? 1 : 0)).join('');
  // The same point under other switches: everything but the switches.
  const config = (p: EvalPointView) => JSON.stringify([p.strategy, p.retriever, p.budgetTokens, p.rerank, { ...p.params, headers: undefined, late: undefined, contextual: undefined }]);
  const allOff = new Map(points.filter((p) => !on(p).includes('1')).map((p) => [config(p), p]));
  const better = (a: EvalPointView, b: EvalPointView) => a.metrics[metric] > b.metrics[metric] || (a.metrics[metric] === b.metrics[metric] && a.metrics.meanContextTokens < b.metrics.meanContextTokens);
  const best = new Map<string, EvalPointView>();
  for (const p of points) {
    const key = JSON.stringify([p.budgetTokens ?? 0, STRATEGIES.indexOf(p.strategy), on(p)]);
    const b = best.get(key);
    if (!b || better(p, b)) best.set(key, p);
  }
  return [...best.entries()]
    .map(([key, point]) => ({ key: JSON.parse(key) as [number, number, string], point }))
    .sort((x, y) => x.key[0] - y.key[0] || x.key[1] - y.key[1] || x.key[2].localeCompare(y.key[2]))
    .map(({ key, point }) => {
      const off = key[2].includes('1') ? allOff.get(config(point)) : undefined;
      return { budget: key[0], strategy: point.strategy, variant: variantLabel(pointVariant(point), compared), point, vsOff: off ? difference(point, off, metric) : null };
    });
}
