import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import type { EvalSet } from './dataset';
import { evaluate } from './run-eval';
import { defaultSweep, recommend, sweep, sweepSize, type SweepPoint } from './sweep';

// The question's words are in one sentence; its answer is in the next one.
const TEXT = [
  '# Harbour',
  'The lighthouse keeper lived alone on the rocky island.',
  'His name was Tomas Varga.',
  'Fishing boats passed the island every morning.',
  'Storms closed the harbour for weeks each winter.',
  'The keeper kept a diary of every ship.',
  'Gulls nested on the cliffs below the lamp.',
].join('\n\n');

function setup(): { engine: RetrievalEngine; set: EvalSet } {
  const doc = documentFromText(TEXT, 'harbour.md', 'md');
  const engine = new RetrievalEngine({ counter: { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length } });
  engine.addDocuments([doc]);
  const at = (s: string) => ({ start: doc.text.indexOf(s), end: doc.text.indexOf(s) + s.length });
  const set: EvalSet = {
    name: 'harbour',
    docs: [doc],
    skipped: [],
    questions: [
      { id: 'q1', question: 'Who was the lighthouse keeper living alone on the rocky island?', answers: ['Tomas Varga'], targets: [{ doc: doc.id, grade: 1, spans: [at('Tomas Varga')] }] },
      { id: 'q2', question: 'What closed the harbour each winter?', answers: ['Storms'], targets: [{ doc: doc.id, grade: 1, spans: [at('Storms')] }] },
    ],
  };
  return { engine, set };
}

const spec = defaultSweep({
  strategies: ['naive', 'sentence', 'window'],
  retrievers: ['bm25'],
  budgets: [12, 40],
  windows: [
    { before: 0, after: 0 },
    { before: 0, after: 1 },
    { before: 1, after: 1 },
  ],
  topK: 3,
});

const find = (points: SweepPoint[], strategy: string, budget: number, w?: [number, number]) =>
  points.find((p) => p.strategy === strategy && p.budgetTokens === budget && (!w || (p.params.before === w[0] && p.params.after === w[1])))!;

describe('parameter sweep', () => {
  it('measures every point once: (naive + sentence + 3 windows) × 2 budgets', async () => {
    const { engine, set } = setup();
    const points = await sweep(engine, set, spec);
    expect(sweepSize(spec)).toBe(10);
    expect(points).toHaveLength(10);
    expect(new Set(points.map((p) => JSON.stringify([p.strategy, p.params, p.budgetTokens]))).size).toBe(10);
  });

  it('a 0/0 window equals sentence hits, and the answer in the next sentence needs after ≥ 1', async () => {
    const { engine, set } = setup();
    const points = await sweep(engine, set, spec);
    expect(find(points, 'window', 40, [0, 0]).metrics).toEqual(find(points, 'sentence', 40).metrics);
    // q1's words are in the keeper sentence; "Tomas Varga" is the next sentence.
    expect(find(points, 'sentence', 40).metrics.answerInContext).toBe(0.5);
    expect(find(points, 'window', 40, [0, 1]).metrics.answerInContext).toBe(1);
    expect(find(points, 'window', 40, [1, 1]).metrics.answerInContext).toBe(1);
    // At 12 tokens "keeper … island." (9) + "His name was Tomas Varga." (5) does not fit: the
    // window shrinks to its hit and loses q1's answer again; q2's answer is in its hit.
    expect(find(points, 'window', 12, [0, 1]).metrics.answerInContext).toBe(0.5);
    expect(find(points, 'window', 12, [0, 1]).metrics.meanContextTokens).toBeLessThanOrEqual(12);
  });

  it('gives the same metrics as a plain evaluation of the same point', async () => {
    const { engine, set } = setup();
    const points = await sweep(engine, set, spec);
    const [plain] = await evaluate(engine, set, ['window'], { retriever: 'bm25', topK: 3, budgetTokens: 40, window: { before: 0, after: 1, bySection: false } });
    expect(find(points, 'window', 40, [0, 1]).metrics).toEqual(plain!.metrics);
  });

  it('recommends the best point per budget with its margin over the naive baseline, ties to the cheaper context', async () => {
    const { engine, set } = setup();
    const points = await sweep(engine, set, spec);
    const recs = recommend(points, 'answerInContext');
    expect(recs.map((r) => r.budgetTokens)).toEqual([12, 40]);
    const at40 = recs[1]!;
    expect(at40.best.metrics.answerInContext).toBe(1);
    expect(at40.margin).toBe(at40.best.metrics.answerInContext - at40.baseline!.metrics.answerInContext);
    // Among points reaching 1, the one handing over fewest tokens wins.
    const full = points.filter((p) => p.budgetTokens === 40 && p.metrics.answerInContext === 1);
    expect(at40.best.metrics.meanContextTokens).toBe(Math.min(...full.map((p) => p.metrics.meanContextTokens)));
    expect(at40.byStrategy.map((p) => p.strategy).sort()).toEqual(['naive', 'sentence', 'window']);
  });

  it('the hybrid grid covers every c × weight, and 0 weight means that list is off', async () => {
    const small = defaultSweep({ strategies: ['sentence'], retrievers: ['hybrid'], budgets: [40], rrfC: [1, 60], bm25Weights: [0, 1], topK: 3 });
    expect(sweepSize(small)).toBe(4);
    const { engine, set } = setup();
    // Without vectors hybrid falls back to BM25; the grid is still measured point by point.
    const points = await sweep(engine, set, small);
    const grid = points.map((p) => [p.params.rrfC, (p.params.weights as { bm25: number; vector: number }).bm25, (p.params.weights as { vector: number }).vector]);
    expect(grid.sort()).toEqual([
      [1, 0, 1],
      [1, 1, 0],
      [60, 0, 1],
      [60, 1, 0],
    ]);
  });

  it('stops when cancelled', async () => {
    const { engine, set } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(sweep(engine, set, spec, { signal: controller.signal })).rejects.toThrow(/cancelled/);
  });
});
