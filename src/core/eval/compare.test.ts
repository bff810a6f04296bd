import { describe, expect, it } from 'vitest';
import { pairedDifference } from './bootstrap';
import { baselineDifferences, difference, differenceWords, NOT_DISTINGUISHABLE } from './compare';
import type { Metrics } from './metrics';
import type { EvalRow } from './run-eval';

const m = (answerInContext: number): Metrics => ({ hitAt1: 0, hitAt5: 0, answerInContext, recallAt5: 0, mrr: 0, ndcg10: 0, contextPrecision: 0, meanContextTokens: 0 });

function row(strategy: EvalRow['strategy'], answers: number[], retriever: EvalRow['retriever'] = 'bm25', budgetTokens = 512): EvalRow {
  const perQuestion = answers.map(m);
  return { strategy, retriever, params: { retriever, topK: 50 }, budgetTokens, metrics: m(answers.reduce((s, x) => s + x, 0) / answers.length), perQuestion };
}

describe('differences from the baseline', () => {
  // 40 questions: the window finds 10 more answers than naive chunks and loses none; the sentence strategy trades 2 for 2.
  const naive = Array.from({ length: 40 }, (_, i) => (i < 20 ? 1 : 0));
  const window = naive.map((x, i) => (i < 30 ? 1 : x));
  const sentence = naive.map((x, i) => (i === 0 || i === 1 ? 0 : i === 20 || i === 21 ? 1 : x));

  it('pairs each strategy with the baseline measured under the same conditions', () => {
    const rows = [row('naive', naive), row('window', window), row('sentence', sentence), row('window', window, 'vector')];
    const [base, w, s, noBase] = baselineDifferences(rows, 'answerInContext');
    expect(base).toBeNull();
    expect(noBase).toBeNull(); // no naive row was measured with the vector retriever
    expect(w).toEqual(pairedDifference(Float64Array.from(window), Float64Array.from(naive)));
    expect(w!.mean).toBe(0.25);
    expect(w!.distinguishable).toBe(true);
    expect(w!.low).toBeGreaterThan(0);
    expect(s!.mean).toBe(0);
    expect(s!.distinguishable).toBe(false);
    expect(differenceWords(s!)).toMatch(new RegExp(`^±0\\.000 \\(−0\\.\\d{3} to \\+0\\.\\d{3}\\): ${NOT_DISTINGUISHABLE}$`));
    expect(differenceWords(w!)).toMatch(/^\+0\.250 \(\+0\.\d{3} to \+0\.\d{3}\)$/);
  });

  it('needs per-question metrics over the same questions', () => {
    expect(difference(row('window', window), { perQuestion: undefined }, 'answerInContext')).toBeNull();
    expect(difference(row('window', [1, 0]), row('naive', [1, 0, 1]), 'answerInContext')).toBeNull();
  });
});
