import { describe, expect, it } from 'vitest';
import type { Metrics } from '../../core/eval/metrics';
import type { EvalPointView, EvalRunResult } from '../../worker/protocol';
import { disagreementSentence, pointsOfSource, sourceDisagreements } from './by-source';

const m = (v: number): Metrics => ({ hitAt1: v, hitAt5: v, answerInContext: v, recallAt5: v, mrr: v, ndcg10: v, contextPrecision: v, meanContextTokens: 100 });

function point(strategy: EvalPointView['strategy'], retriever: EvalPointView['retriever'], per: number[]): EvalPointView {
  return { strategy, retriever, budgetTokens: 256, params: { retriever, topK: 50 }, rerank: false, headers: false, metrics: m(per.reduce((a, b) => a + b, 0) / per.length), perQuestion: per.map(m) };
}

// Questions 1–2 marked, 3–4 generated: sentence windows find the marked ones, naive chunks the generated ones.
const result: Pick<EvalRunResult, 'points' | 'questions'> = {
  questions: [
    { id: 'a', question: 'A?', answers: [], source: 'marked' },
    { id: 'b', question: 'B?', answers: [], source: 'marked' },
    { id: 'c', question: 'C?', answers: [], source: 'generated' },
    { id: 'd', question: 'D?', answers: [], source: 'generated' },
  ],
  points: [point('window', 'bm25', [1, 1, 0, 0]), point('naive', 'bm25', [0, 0, 1, 1]), point('sentence', 'bm25', [1, 0, 1, 0])],
};

describe('marked and generated questions measured apart', () => {
  it('recomputes each point on one source’s questions only', () => {
    const marked = pointsOfSource(result, 'marked');
    expect(marked.map((p) => [p.strategy, p.metrics.answerInContext, p.perQuestion!.length])).toEqual([
      ['window', 1, 2],
      ['naive', 0, 2],
      ['sentence', 0.5, 2],
    ]);
    expect(pointsOfSource(result, 'imported')).toEqual([]);
  });

  it('points out a budget whose best strategy differs, in words', () => {
    const d = sourceDisagreements(result, 'answerInContext');
    expect(d.map((x) => [x.budgetTokens, x.marked.best.strategy, x.generated.best.strategy])).toEqual([[256, 'window', 'naive']]);
    expect(disagreementSentence(d[0]!, { marked: 2, generated: 2 })).toBe(
      'At 256 tokens the recommendation differs: your 2 marked questions favour sentence windows (BM25) (answer in context 1.000), the 2 generated ones naive chunks (BM25) (1.000). ' +
        "Generated questions tend to reuse their passage's words, which favours BM25; the questions you marked are closer to what you ask.",
    );
    // Agreeing sources say nothing.
    const same = { ...result, points: [point('window', 'bm25', [1, 1, 1, 1]), point('naive', 'bm25', [0, 0, 0, 0])] };
    expect(sourceDisagreements(same, 'answerInContext')).toEqual([]);
  });
});
