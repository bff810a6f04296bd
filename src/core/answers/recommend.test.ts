import { describe, expect, it } from 'vitest';
import type { Metrics } from '../eval/metrics';
import { ANSWER_METRICS, type AnswerPointResult } from './answer-metrics';
import { answerPareto, recommendByAnswers, type AnsweredPoint } from './recommend';

const metrics = (answerInContext: number, meanContextTokens: number): Metrics => ({ hitAt1: 0, hitAt5: 0, answerInContext, recallAt5: 0, mrr: 0, ndcg10: 0, contextPrecision: 0, meanContextTokens });

/** A point whose per-question F1 is `f1` and whose prompts are `tokens` long. */
function point(strategy: AnsweredPoint['strategy'], window: number, inContext: number, f1: number[], tokens: number, budget = 512): AnsweredPoint {
  const per = Object.fromEntries(ANSWER_METRICS.map((m) => [m, new Float64Array(f1.length).fill(Number.NaN)])) as AnswerPointResult['perQuestion'];
  per.answerF1 = Float64Array.from(f1);
  per.promptTokens = new Float64Array(f1.length).fill(tokens);
  const mean = f1.reduce((a, b) => a + b, 0) / f1.length;
  return {
    strategy,
    retriever: 'bm25',
    budgetTokens: budget,
    params: { before: window, after: window },
    metrics: metrics(inContext, tokens),
    order: 'score',
    answer: {
      ref: { point: 0, order: 'score' },
      metrics: { answerExact: null, answerF1: mean, abstention: null, judgeCorrect: null, faithfulness: null, promptTokens: tokens, answerMs: 10 },
      intervals: {},
      perQuestion: per,
      counts: { questions: f1.length, asked: f1.length, answered: f1.length, failed: 0, unanswerable: 0, abstainedAnswerable: 0, judged: 0, judgeFailed: 0 },
    },
  };
}

describe('recommending by the answers', () => {
  // Answer in context rises with the window; the answers peak at ±1 and fall as noise grows.
  const w0 = point('window', 0, 0.5, [1, 0, 0, 1], 100);
  const w1 = point('window', 1, 0.75, [1, 1, 1, 0], 200);
  const w3 = point('window', 3, 1, [1, 0, 0, 0], 400);
  const naive = point('naive', 0, 0.75, [0, 1, 0, 0], 300);

  it('chooses the best point by the answer metric and says that answer in context would choose another', () => {
    const [rec] = recommendByAnswers([w0, w1, w3, naive], 'answerF1');
    expect(rec!.best).toBe(w1);
    expect(rec!.bestByContext).toBe(w3);
    expect(rec!.differs).toBe(true);
    // Paired over the 4 questions: w1 − w3 = [0, 1, 1, 0], mean 0.5.
    expect(rec!.overContext!.mean).toBe(0.5);
    expect(rec!.baseline).toBe(naive);
    expect(rec!.margin).toBe(0.5);
    expect(rec!.byStrategy).toEqual([w1, naive]);
  });

  it('breaks ties by fewer prompt tokens, and says when both choose the same point', () => {
    const cheap = point('window', 2, 1, [1, 1, 1, 0], 150);
    const [rec] = recommendByAnswers([w1, cheap], 'answerF1');
    expect(rec!.best).toBe(cheap);
    expect(rec!.bestByContext).toBe(cheap);
    expect(rec!.differs).toBe(false);
    expect(rec!.overContext).toBeNull();
  });

  it('ranks per budget and leaves out points without the metric', () => {
    const small = point('window', 0, 0.5, [0, 1, 0, 0], 90, 256);
    const recs = recommendByAnswers([w1, small, w3], 'answerF1');
    expect(recs.map((r) => [r.budgetTokens, r.best])).toEqual([
      [256, small],
      [512, w1],
    ]);
    expect(recommendByAnswers([w1], 'judgeCorrect')).toEqual([]);
  });

  it('keeps the Pareto front of answer accuracy against prompt tokens', () => {
    expect(answerPareto([w3, naive, w1, w0], 'answerF1')).toEqual([w0, w1]);
  });
});

describe('where the context and the answer disagree', () => {
  const outcome = (o: Partial<import('./answer-metrics').AnswerOutcome>): import('./answer-metrics').AnswerOutcome => ({ answer: 'x', reply: 'x', failed: null, exact: 0, f1: 0, abstained: false, promptTokens: 10, ms: 1, cached: false, ...o });
  it('lists answers missed in their context and answers right without it', async () => {
    const { disagreements, rightness } = await import('./disagreements');
    const outcomes = [
      outcome({ exact: 1, f1: 1 }), // right, in context
      outcome({ exact: 0, f1: 0.2 }), // wrong, in context: missed
      outcome({ abstained: true, exact: 0, f1: 0 }), // abstained, in context: missed
      outcome({ exact: 0, f1: 0.9 }), // right by F1, not in context
      outcome({ exact: 0, f1: 0.6 }), // partial: neither
      outcome({ failed: 'the reply is empty', answer: '', exact: null, f1: null }), // failed: neither
      outcome({ exact: 0, f1: 0.1, judge: { correct: 1 } }), // the judge says right, not in context
    ];
    expect(outcomes.map(rightness)).toEqual(['right', 'wrong', 'wrong', 'right', 'partial', null, 'right']);
    const slots = Int32Array.from([0, 1, 2, 3, 4, 5, 6, -1]);
    const inContext = [1, 1, 1, 0, 1, 1, 0, 1];
    expect(disagreements(slots, outcomes, inContext, () => false)).toEqual({ missed: [1, 2], rightWithout: [3, 6] });
    expect(disagreements(slots, outcomes, inContext, (q) => q === 1)).toEqual({ missed: [2], rightWithout: [3, 6] });
  });
});
