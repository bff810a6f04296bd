/**
 * Differences you can trust: a point's metric minus another's on the same questions, with
 * the paired bootstrap interval (bootstrap.ts). Used by the CLI, the lab and the benches.
 */
import { BASELINE } from '../strategies/registry';
import { pairedDifference, type BootstrapOptions, type Difference } from './bootstrap';
import type { MetricName, Metrics } from './metrics';
import type { EvalRow } from './run-eval';

/** What a reader is told when an interval holds 0. */
export const NOT_DISTINGUISHABLE = 'not distinguishable on these questions';

/** a − b on `metric`, paired over the questions both were measured on; null without per-question metrics. */
export function difference(
  a: Pick<EvalRow, 'perQuestion'>,
  b: Pick<EvalRow, 'perQuestion'>,
  metric: MetricName,
  options: BootstrapOptions = {},
): Difference | null {
  const pa = a.perQuestion;
  const pb = b.perQuestion;
  if (!pa || !pb || pa.length !== pb.length || !pa.length) return null;
  const values = (per: Metrics[]) => Float64Array.from(per, (m) => m[metric]);
  return pairedDifference(values(pa), values(pb), options);
}

/** The same measuring conditions (retriever, budget, headers, late chunking, contextual retrieval, rerank, lexical model, query transformation and tools): only the strategy and its own parameters differ. */
function conditions(r: EvalRow & { rerank?: boolean }): string {
  const p = r.params as { late?: boolean; headers?: boolean; contextual?: boolean; lexical?: unknown; topK?: number; rrfC?: number; weights?: unknown; queryTransform?: string; tools?: string };
  return JSON.stringify([r.retriever, r.budgetTokens, Boolean(p.headers), Boolean(p.late), Boolean(p.contextual), Boolean(r.rerank), p.lexical ?? null, p.topK ?? null, p.rrfC ?? null, p.weights ?? null, p.queryTransform ?? null, p.tools ?? null]);
}

/**
 * Each row's difference from the baseline strategy (naive chunks) measured under the same
 * conditions, on `metric`; null for the baseline itself and where none was measured.
 */
export function baselineDifferences<R extends EvalRow>(rows: readonly R[], metric: MetricName, options: BootstrapOptions = {}): (Difference | null)[] {
  const baselines = new Map<string, R>();
  for (const r of rows) if (r.strategy === BASELINE && !baselines.has(conditions(r))) baselines.set(conditions(r), r);
  return rows.map((r) => {
    const base = baselines.get(conditions(r));
    return r.strategy === BASELINE || !base ? null : difference(r, base, metric, options);
  });
}

/** "+0.041 (+0.012 to +0.069)", and the verdict when the interval holds 0. */
export function differenceWords(d: Difference, digits = 3): string {
  const f = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}`;
  return `${f(d.mean)} (${f(d.low)} to ${f(d.high)})${d.distinguishable ? '' : `: ${NOT_DISTINGUISHABLE}`}`;
}
