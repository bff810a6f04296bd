import { describe, expect, it } from 'vitest';
import { recommend, sweepSize, defaultSweep } from '../../core/eval/sweep';
import { METRIC_NAMES, type Metrics } from '../../core/eval/metrics';
import type { EvalPointView, EvalRunResult } from '../../worker/protocol';
import { splitByHits } from '../results/format';
import {
  drillPoints,
  estimatePoints,
  formatMargin,
  intervalWords,
  paramsInWords,
  paretoFrontier,
  parseBudgets,
  pointInWords,
  pointQuery,
  queryInWords,
  recommendationSentence,
  recommendationsFor,
  rrfGrid,
  runSpec,
  vsBaseline,
  windowSeries,
  type RunChoice,
} from './analysis';
import { csvCell, exportName, pointsCsv, pointsJson } from './analysis-export';
import { filterQuestions, markAnswers, pageOf } from './question-rows';

function metrics(v: number, tokens = 500): Metrics {
  return { hitAt1: v / 2, hitAt5: v, answerInContext: v, recallAt5: v, mrr: v / 2, ndcg10: v / 1.5, contextPrecision: v / 3, meanContextTokens: tokens };
}

function pt(p: Partial<EvalPointView> & Pick<EvalPointView, 'strategy' | 'retriever'>, v: number, tokens = 500): EvalPointView {
  return { budgetTokens: 512, params: { retriever: p.retriever, topK: 50 }, rerank: false, headers: false, ...p, metrics: metrics(v, tokens) };
}

const choice: RunChoice = {
  strategies: ['naive', 'sentence', 'window', 'automerge'],
  retrievers: ['bm25', 'vector', 'hybrid'],
  budgets: [256, 512],
  windows: true,
  thresholds: true,
  rrfGrid: false,
  headers: false,
  rerank: false,
  metric: 'answerInContext',
};

describe('parseBudgets', () => {
  it('reads commas, spaces and semicolons, dedupes and sorts', () => {
    expect(parseBudgets('512, 256;256  1024')).toEqual({ budgets: [256, 512, 1024], error: null });
  });
  it('refuses words, small numbers and empty input', () => {
    expect(parseBudgets('256, abc').error).toMatch(/abc/);
    expect(parseBudgets('8').error).toMatch(/at least 16/);
    expect(parseBudgets('-20').error).toMatch(/not a number/);
    expect(parseBudgets('  ').error).toMatch(/at least one/);
    expect(parseBudgets('16').budgets).toEqual([16]);
  });
});

describe('runSpec and estimatePoints', () => {
  it('drops vector retrievers without an embedder and rerank without a reranker', () => {
    const spec = runSpec({ ...choice, rerank: true }, { embedder: false, reranker: false });
    expect(spec.retrievers).toEqual(['bm25']);
    expect(spec.rerank).toBe(false);
  });
  it('matches sweepSize for the default grid (1 + 1 + 36 + 9 strategy points × 3 retrievers × 2 budgets)', () => {
    const spec = runSpec(choice, { embedder: true, reranker: false });
    expect(estimatePoints(spec)).toBe(47 * 3 * 2);
    expect(estimatePoints(spec)).toBe(sweepSize(defaultSweep({ strategies: spec.strategies, rrfC: [60], bm25Weights: [0.5] })));
  });
  it('multiplies hybrid by 25 with the RRF grid, and everything by 2 for headers and rerank', () => {
    const base = runSpec(choice, { embedder: true, reranker: true });
    expect(estimatePoints({ ...base, rrfGrid: true })).toBe(47 * (1 + 1 + 25) * 2);
    expect(estimatePoints({ ...base, headers: true, rerank: true })).toBe(47 * 3 * 2 * 4);
    expect(estimatePoints({ ...base, windows: false, thresholds: false })).toBe(4 * 3 * 2);
  });
  it('compares late chunking off and on only when the embedder can, measuring every point twice', () => {
    expect(runSpec({ ...choice, late: true }, { embedder: true, reranker: false }).late).toBeUndefined();
    expect(runSpec({ ...choice, late: true }, { embedder: true, reranker: false, late: false }).late).toBeUndefined();
    const late = runSpec({ ...choice, late: true }, { embedder: true, reranker: false, late: true });
    expect(late.late).toBe(true);
    expect(estimatePoints(late)).toBe(47 * 3 * 2 * 2);
    expect(estimatePoints({ ...late, headers: true })).toBe(47 * 3 * 2 * 4);
  });
  it('replays a point with the vectors it was measured with', () => {
    const on = pt({ strategy: 'window', retriever: 'vector', params: { before: 2, after: 2, late: true } }, 0.5);
    expect(pointQuery(on)).toMatchObject({ late: true, headers: false });
    expect(pointQuery(pt({ strategy: 'window', retriever: 'vector', params: { before: 2, after: 2 } }, 0.5)).late).toBe(false);
    expect(queryInWords(pointQuery(on))).toBe('±2 · late chunking');
    expect(paramsInWords(on)).toBe('window ±2 sentences; late chunking on');
  });
  it('replays a point measured without contexts without them, whatever the engine has now', () => {
    const off = pt({ strategy: 'window', retriever: 'bm25', params: { before: 2, after: 2 } }, 0.5);
    expect(pointQuery(off).contextual).toBe(false);
    const on = { ...pt({ strategy: 'window', retriever: 'bm25', params: { before: 2, after: 2 } }, 0.5), contextual: true };
    expect(pointQuery(on).contextual).toBe(true);
    expect(queryInWords(pointQuery(on))).toBe('±2 · contextual');
  });
});

describe('words', () => {
  it('says the parameters of a point', () => {
    expect(paramsInWords(pt({ strategy: 'window', retriever: 'bm25', params: { before: 2, after: 2 } }, 0.5))).toBe('window ±2 sentences');
    expect(paramsInWords(pt({ strategy: 'window', retriever: 'bm25', params: { before: 1, after: 3 } }, 0.5))).toBe('window 1 before, 3 after');
    expect(
      paramsInWords(pt({ strategy: 'automerge', retriever: 'hybrid', rerank: true, headers: true, params: { threshold: 0.3, rrfC: 60, weights: { bm25: 0.25, vector: 0.75 } } }, 0.5)),
    ).toBe('merge threshold 0.3; RRF c 60, weights BM25 0.25 / vector 0.75; headers on; reranked');
  });
  it('formats margins with a sign', () => {
    expect(formatMargin(0.0412)).toBe('+0.041');
    expect(formatMargin(-0.002)).toBe('−0.002');
    expect(formatMargin(0)).toBe('±0.000');
  });
  it('writes the recommendation sentence', () => {
    const points = [
      pt({ strategy: 'naive', retriever: 'bm25', params: { chunkTokens: 128 } }, 0.832),
      pt({ strategy: 'window', retriever: 'bm25', params: { before: 2, after: 2 } }, 0.873),
    ];
    const [rec] = recommend(points, 'answerInContext');
    expect(recommendationSentence(rec!)).toBe('At 512 tokens the best is sentence windows (BM25; window ±2 sentences) with answer in context 0.873, +0.041 over the best naive chunks.');
    const [only] = recommend([points[0]!], 'answerInContext');
    expect(recommendationSentence(only!)).toBe('At 512 tokens the best is naive chunks (BM25; 128-token chunks) with answer in context 0.832, ±0.000 over the best naive chunks: the baseline itself is best.');
    const [none] = recommend([points[1]!], 'answerInContext');
    expect(recommendationSentence(none!)).toMatch(/not measured/);
  });
});

describe('chart data', () => {
  const points: EvalPointView[] = [];
  for (const r of ['bm25', 'hybrid'] as const)
    for (let b = 0; b <= 2; b++)
      for (let a = 0; a <= 2; a++)
        for (const c of r === 'hybrid' ? [10, 60] : [undefined])
          for (const w of r === 'hybrid' ? [0.25, 0.75] : [undefined])
            points.push(
              pt(
                { strategy: 'window', retriever: r, params: { before: b, after: a, ...(c ? { rrfC: c, weights: { bm25: w!, vector: 1 - w! } } : {}) } },
                0.1 * (b + a) + (c === 60 ? 0.05 : 0) + (w === 0.75 ? 0.01 : 0),
              ),
            );
  points.push(pt({ strategy: 'naive', retriever: 'bm25' }, 0.3), pt({ strategy: 'naive', retriever: 'bm25' }, 0.35, 400));
  it('keeps symmetric windows only, best over the other parameters', () => {
    const s = windowSeries(points, 'answerInContext');
    expect(s.swept).toBe(true);
    expect(s.lines.filter((l) => l.retriever === 'bm25').map((l) => l.k)).toEqual([0, 1, 2]);
    const h2 = s.lines.find((l) => l.retriever === 'hybrid' && l.k === 2)!;
    expect(h2.value).toBeCloseTo(0.46);
    expect(s.naive).toEqual([{ retriever: 'bm25', budget: 512, value: 0.35 }]);
    expect(windowSeries(points.filter((p) => (p.params as { before?: number }).before === 1 || p.strategy === 'naive'), 'answerInContext').swept).toBe(false);
  });
  it('builds the RRF grid for the window strategy at the first budget', () => {
    const g = rrfGrid(points, 'answerInContext')!;
    expect(g.strategy).toBe('window');
    expect(g.cells).toHaveLength(4);
    expect(g.cells.find((c) => c.c === 60 && c.w === 0.75)!.value).toBeCloseTo(0.46);
    expect(rrfGrid(points.filter((p) => p.retriever !== 'hybrid' || (p.params as { rrfC?: number }).rrfC === 60), 'answerInContext')).toBeNull();
  });
  it('turns the best points of the first budget into replayable queries', () => {
    const recs = recommend([...points, pt({ strategy: 'window', retriever: 'bm25', budgetTokens: 256, params: { before: 1, after: 1 } }, 0.2)], 'answerInContext');
    const q = drillPoints(recs);
    expect(q.map((x) => [x.strategy, x.budgetTokens])).toEqual([['window', 256]]);
    expect(q[0]!.params.window).toEqual({ before: 1, after: 1, bySection: false });
    const q512 = drillPoints(recommend(points, 'answerInContext'));
    expect(q512.map((x) => x.strategy)).toEqual(['naive', 'window']);
    expect(q512[1]!.params.rrf).toEqual({ c: 60, weights: { bm25: 0.75, vector: 0.25 } });
  });
  it('recomputes recommendations only when the metric changed', () => {
    const recs = recommend(points, 'answerInContext');
    const result = { set: { name: 's', format: 'squad', questions: 1, docs: 1, skipped: [] }, points, recommendations: recs, questions: [], ms: 1 } as EvalRunResult;
    expect(recommendationsFor(result, 'answerInContext')).toBe(recs);
    expect(recommendationsFor(result, 'mrr')[0]!.metric).toBe('mrr');
  });
});

describe('exports', () => {
  it('quotes CSV cells that need it', () => {
    expect(csvCell('a')).toBe('a');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('');
  });
  it('writes one CSV row per point with params as JSON and every metric', () => {
    const csv = pointsCsv([pt({ strategy: 'window', retriever: 'hybrid', params: { before: 1, after: 2, weights: { bm25: 0.5, vector: 0.5 } } }, 0.5)]);
    const [head, row] = csv.trim().split('\r\n');
    const lowHigh = 'hitAt1_low,hitAt1_high,hitAt5_low,hitAt5_high,answerInContext_low,answerInContext_high,recallAt5_low,recallAt5_high,mrr_low,mrr_high,ndcg10_low,ndcg10_high,contextPrecision_low,contextPrecision_high,meanContextTokens_low,meanContextTokens_high';
    expect(head).toBe(`strategy,retriever,budget_tokens,headers,rerank,params,hitAt1,hitAt5,answerInContext,recallAt5,mrr,ndcg10,contextPrecision,meanContextTokens,${lowHigh}`);
    expect(row).toBe(`window,hybrid,512,false,false,"{""before"":1,""after"":2,""weights"":{""bm25"":0.5,""vector"":0.5}}",0.25,0.5,0.5,0.5,0.25,0.333333,0.166667,500${',,'.repeat(8)}`);
    // With intervals, each metric's low and high follow.
    const withIv = pointsCsv([{ ...pt({ strategy: 'naive', retriever: 'bm25' }, 0.5), intervals: Object.fromEntries(METRIC_NAMES.map((m) => [m, { low: 0.1, high: 0.9 }])) as EvalPointView['intervals'] }]);
    expect(withIv.trim().split('\r\n')[1]!.endsWith(',0.1,0.9'.repeat(8))).toBe(true);
  });
  it('writes JSON with points and recommendations', () => {
    const points = [pt({ strategy: 'naive', retriever: 'bm25' }, 0.5)];
    const result = { set: { name: 'x.json', format: 'squad', questions: 1, docs: 1, skipped: [] }, points, recommendations: [], questions: [{ id: 'q', question: 'Q?', answers: [] }], ms: 12.3 } as EvalRunResult;
    const j = JSON.parse(pointsJson(result, recommend(points)));
    expect(j.points).toHaveLength(1);
    expect(j.points[0].metrics.answerInContext).toBe(0.5);
    expect(j.recommendations[0].sentence).toMatch(/^At 512 tokens/);
    expect(exportName('xquad.en.json', 'csv')).toBe('xquad.en-sweep.csv');
    expect(exportName('BEIR set', 'json')).toBe('BEIR-set-sweep.json');
  });
});

describe('question list', () => {
  const qs = Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, question: i % 2 ? `Where is Zürich ${i}?` : `Who wrote ${i}?`, answers: [i === 4 ? 'Goethe' : 'x'] }));
  it('filters by words, accents folded, over question and answers', () => {
    expect(filterQuestions(qs, 'zurich').length).toBe(30);
    expect(filterQuestions(qs, 'goethe').map((q) => q.id)).toEqual(['q4']);
    expect(filterQuestions(qs, '  ').length).toBe(60);
  });
  it('pages 25 at a time and clamps the page', () => {
    expect(pageOf(qs, 0).items).toHaveLength(25);
    expect(pageOf(qs, 2)).toMatchObject({ page: 2, pages: 3 });
    expect(pageOf(qs, 2).items).toHaveLength(10);
    expect(pageOf(qs, 9).page).toBe(2);
    expect(pageOf([], 3)).toMatchObject({ page: 0, pages: 1, items: [] });
  });
});

describe('markAnswers', () => {
  it('marks answers inside and across hit pieces, keeping every character', () => {
    const text = 'The capital is New  York. It is big. new york again.';
    const pieces = markAnswers(splitByHits(text, [[0, 25]]), ['New York']);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.answer).map((p) => [p.text, p.hit])).toEqual([
      ['New  York', true],
      ['new york', false],
    ]);
  });
  it('leaves pieces alone without answers and escapes regex characters', () => {
    expect(markAnswers([{ text: 'a', hit: false }], [])).toEqual([{ text: 'a', hit: false, answer: false }]);
    expect(markAnswers([{ text: 'cost $5 (approx.)', hit: false }], ['$5 (approx.)']).filter((p) => p.answer)).toHaveLength(1);
  });
});

describe('differences the lab can trust', () => {
  // 60 questions: naive chunks find the first 30 answers; windows find those and 2 more (not distinguishable), or 15 more (distinguishable).
  const per = (found: number) => Array.from({ length: 60 }, (_, i) => metrics(i < found ? 1 : 0));
  const point = (strategy: EvalPointView['strategy'], found: number): EvalPointView => ({ ...pt({ strategy, retriever: 'bm25' }, found / 60), perQuestion: per(found) });

  it('says when the best is not distinguishable from the baseline on these questions', () => {
    const [rec] = recommend([point('naive', 30), point('window', 32)]);
    expect(recommendationSentence(rec!)).toMatch(/, \+0\.033 over the best naive chunks \(paired 95 % interval [−±+]0\.\d{3} to \+0\.\d{3}\): not distinguishable on these questions\.$/);
    expect(vsBaseline(rec!, rec!.best as EvalPointView)!.distinguishable).toBe(false);
  });

  it('gives the paired interval, without the warning, when it excludes 0', () => {
    const [rec] = recommend([point('naive', 30), point('window', 45)]);
    const d = vsBaseline(rec!, rec!.best as EvalPointView)!;
    expect(d.distinguishable).toBe(true);
    expect(d.low).toBeGreaterThan(0);
    expect(recommendationSentence(rec!)).toBe(
      `At 512 tokens the best is ${pointInWords(rec!.best)} with answer in context 0.750, +0.250 over the best naive chunks (paired 95 % interval ${intervalWords(d)}).`,
    );
    expect(vsBaseline(rec!, rec!.baseline as EvalPointView)).toBeNull();
  });
});

describe('paretoFrontier', () => {
  it('keeps the points nothing beats on both tokens and the metric, cheapest first', () => {
    const a = pt({ strategy: 'naive', retriever: 'bm25' }, 0.5, 100);
    const b = pt({ strategy: 'window', retriever: 'bm25' }, 0.7, 300);
    const c = pt({ strategy: 'sentence', retriever: 'bm25' }, 0.6, 400); // dominated by b
    const d = pt({ strategy: 'automerge', retriever: 'bm25' }, 0.8, 500);
    const e = pt({ strategy: 'window', retriever: 'vector' }, 0.5, 200); // as good as a, dearer
    const f = pt({ strategy: 'naive', retriever: 'vector' }, 0.7, 300); // ties b exactly: the first kept
    expect(paretoFrontier([c, d, e, a, b, f], 'answerInContext')).toEqual([a, b, d]);
    expect(paretoFrontier([], 'answerInContext')).toEqual([]);
  });
});
