/**
 * --late-chunking for index, query, eval and export: each unit's vector pooled from its own tokens
 * read in long spans of its document (core/embed/late-chunking.ts) instead of the unit alone.
 * index, query and export use late-chunked vectors (the saved corpus and the bundle's manifest
 * record it in their structure: `vectors: 'late'`); eval and eval --sweep measure plain and
 * late-chunked vectors side by side, each row with its interval. A model that cannot (a static
 * model, an endpoint, a pooled-output graph) is refused before anything is embedded, with why.
 */
import type { LateValues } from './option-tables';
import type { RetrievalEngine } from '../core/engine';
import { difference, differenceWords } from '../core/eval/compare';
import type { MetricName } from '../core/eval/metrics';
import type { EvalRow } from '../core/eval/run-eval';
import { forEachVariant, variantsToCompare, type EngineVariant } from '../core/eval/variants';
import { UsageError } from './usage';




/** The variants a run covers: plain then late when compared, else the engine's own; a UsageError (the model's reason) when late chunking is not possible. */
function variantsFor(engine: RetrievalEngine, compare: boolean): EngineVariant[] {
  try {
    return variantsToCompare(engine, { late: compare });
  } catch (e) {
    throw new UsageError(`--late-chunking: ${(e as Error).message}`);
  }
}

/** Refuses --late-chunking for a model that cannot, before anything is written or embedded. */
export function checkLateChunking(engine: RetrievalEngine, values: LateValues): void {
  if (values['late-chunking']) variantsFor(engine, true);
}

/** index, query, export: late-chunked vectors from here on when asked for (checked first). */
export function applyLateChunking(engine: RetrievalEngine, values: LateValues): void {
  if (!values['late-chunking']) return;
  variantsFor(engine, true);
  engine.setVectorVariant('late');
}

/** eval, eval --sweep: `measure` with plain vectors, then late-chunked (rows say which: params.late), when asked for; else once. The engine ends as it began. */
export async function eachLateVariant(engine: RetrievalEngine, values: LateValues, measure: () => Promise<void>): Promise<void> {
  await forEachVariant(engine, variantsFor(engine, Boolean(values['late-chunking'])), measure);
}

/**
 * Late minus plain on `metric` for every point measured both ways (same strategy, retriever,
 * budget and parameters), with the paired 95 % interval: "sentence · vector @512: +0.012 (…)".
 */
export function lateDifferenceLines(rows: readonly EvalRow[], metric: MetricName = 'answerInContext'): string[] {
  const key = (r: EvalRow) => JSON.stringify([r.strategy, r.retriever, r.budgetTokens, { ...r.params, late: undefined }]);
  const plain = new Map(rows.filter((r) => !r.params.late).map((r) => [key(r), r]));
  return rows.flatMap((r) => {
    const p = r.params.late ? plain.get(key(r)) : undefined;
    const d = p ? difference(r, p, metric) : null;
    return d ? [`${r.strategy} · ${r.retriever}${r.budgetTokens !== null ? ` @${r.budgetTokens}` : ''}: ${differenceWords(d)}`] : [];
  });
}
