/** The answer table of eval --answers: each answered point's answer metrics with intervals, beside its answer in context. */
import { BLOCK_ORDER_WORDS } from '../core/answers/block-order';
import type { AnswerMetricName, AnswerPointResult } from '../core/answers/answer-metrics';
import type { EvalRow } from '../core/eval/run-eval';
import { pointLabel } from './metrics-table';
import { renderTable } from './table';

export interface AnsweredRow {
  row: EvalRow;
  answer: AnswerPointResult;
}

function cell(a: AnswerPointResult, m: AnswerMetricName, digits = 3): string {
  const v = a.metrics[m];
  if (v === null) return '–';
  const iv = a.intervals[m];
  return iv && iv.low !== iv.high ? `${v.toFixed(digits)} (${iv.low.toFixed(digits)}–${iv.high.toFixed(digits)})` : v.toFixed(digits);
}

export function answersTable(rows: readonly AnsweredRow[], withBudget: boolean): string {
  const judge = rows.some((r) => r.answer.counts.judged + r.answer.counts.judgeFailed > 0);
  const abstention = rows.some((r) => r.answer.metrics.abstention !== null);
  return renderTable(
    [...(withBudget ? ['budget'] : []), 'retriever', 'strategy', 'params', 'order', 'answer in ctx', 'answer exact', 'answer F1', ...(abstention ? ['abstained right'] : []), ...(judge ? ['judged correct', 'faithful'] : []), 'prompt tokens', 'ms/answer', 'failed'],
    rows.map(({ row, answer: a }) => [
      ...(withBudget ? [row.budgetTokens ?? 'none'] : []),
      row.retriever,
      row.strategy,
      pointLabel(row),
      BLOCK_ORDER_WORDS[a.ref.order],
      row.metrics.answerInContext.toFixed(3),
      cell(a, 'answerExact'),
      cell(a, 'answerF1'),
      ...(abstention ? [cell(a, 'abstention')] : []),
      ...(judge ? [cell(a, 'judgeCorrect'), cell(a, 'faithfulness')] : []),
      a.metrics.promptTokens === null ? '–' : a.metrics.promptTokens.toFixed(1),
      a.metrics.answerMs === null ? '–' : Math.round(a.metrics.answerMs),
      `${a.counts.failed}${a.counts.judgeFailed ? ` (+${a.counts.judgeFailed} judge)` : ''}`,
    ]),
  );
}
