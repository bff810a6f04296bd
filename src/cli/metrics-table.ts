/** The eval and sweep tables: each metric with its interval, and each row's difference from the baseline. */
import { baselineDifferences, difference, differenceWords } from '../core/eval/compare';
import { paramsInWords } from '../core/eval/describe';
import { METRIC_LABELS, type MetricName } from '../core/eval/metrics';
import type { EvalRow } from '../core/eval/run-eval';
import { DEFAULT_LEXICAL, lexicalLabel, type LexicalParams } from '../core/index/lexical-index';
import { BASELINE } from '../core/strategies/registry';
import { renderTable } from './table';

export function metricsTable(rows: EvalRow[], withBudget: boolean, extra?: (r: EvalRow) => string, metric: MetricName = 'answerInContext', baseline?: EvalRow | null): string {
  // Each metric with its 95 % bootstrap interval; each strategy's paired difference from naive chunks on `metric`.
  const cell = (r: EvalRow, k: MetricName, digits = 3) => {
    const v = r.metrics[k].toFixed(digits);
    const iv = r.intervals?.[k];
    return iv ? `${v} (${iv.low.toFixed(digits)}–${iv.high.toFixed(digits)})` : v;
  };
  // A sweep compares with the baseline's best point; a plain eval with naive chunks under the same conditions.
  const diffs = baseline !== undefined ? rows.map((r) => (baseline && r !== baseline ? difference(r, baseline, metric) : null)) : baselineDifferences(rows, metric);
  return renderTable(
    [...(withBudget ? ['budget'] : []), 'retriever', 'strategy', ...(extra ? ['params'] : []), 'hit@1', 'hit@5', 'answer in ctx', 'recall@5', 'MRR', 'nDCG@10', 'ctx precision', 'ctx tokens', `${METRIC_LABELS[metric]} vs ${BASELINE}`],
    rows.map((r, i) => [
      ...(withBudget ? [r.budgetTokens ?? 'none'] : []),
      retrieverCell(r),
      r.strategy,
      ...(extra ? [extra(r)] : []),
      cell(r, 'hitAt1'),
      cell(r, 'hitAt5'),
      cell(r, 'answerInContext'),
      cell(r, 'recallAt5'),
      cell(r, 'mrr'),
      cell(r, 'ndcg10'),
      cell(r, 'contextPrecision'),
      cell(r, 'meanContextTokens', 1),
      diffs[i] ? differenceWords(diffs[i]!) : '–',
    ]),
  );
}

/** "bm25", or "bm25 (Lucene BM25 · stem)" when the lexical model is not the default. */
function retrieverCell(r: EvalRow): string {
  const l = r.params.lexical as LexicalParams | undefined;
  return l && lexicalLabel(l) !== lexicalLabel(DEFAULT_LEXICAL) ? `${r.retriever} (${lexicalLabel(l)})` : r.retriever;
}

/** The parameters of a sweep point in a few words (as the evaluation lab says them). */
export function pointLabel(r: EvalRow): string {
  return paramsInWords(r) || '–';
}
