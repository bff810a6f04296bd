import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { RetrievalEngine } from '../core/engine';
import { DatasetError } from '../core/eval/dataset';
import { pointParams } from '../core/eval/sweep';
import { TEST_EMBEDDER_ID, TEST_STATIC_EMBEDDER_ID } from '../core/embed/models';
import { TransformersEmbedder } from '../core/embed/transformers-embedder';
import { retrievalParams } from '../core/retrieve/params';
import { setupNode } from '../node/setup';
import { readEvalFiles, replayQuestion, runEvaluation, sweepSpecFor } from './evaluation';
import type { EvalProgressMessage, EvalRunSpec, InputFileMessage } from './protocol';

const enc = new TextEncoder();
const file = (name: string, text: string): InputFileMessage => ({ name, bytes: enc.encode(text).buffer as ArrayBuffer });

const SQUAD = JSON.stringify({
  data: [
    {
      title: 'Harbour',
      paragraphs: [
        {
          context: 'The lighthouse keeper lived alone on the rocky island. His name was Tomas Varga. Storms closed the harbour for weeks each winter.',
          qas: [
            { id: 'q1', question: 'Who was the lighthouse keeper on the rocky island?', answers: [{ text: 'Tomas Varga', answer_start: 66 }] },
            { id: 'q2', question: 'What closed the harbour in winter?', answers: [{ text: 'Storms', answer_start: 82 }] },
          ],
        },
      ],
    },
  ],
});

const spec: EvalRunSpec = {
  strategies: ['sentence', 'window'],
  retrievers: ['bm25'],
  budgets: [20, 40],
  windows: true,
  thresholds: false,
  rrfGrid: false,
  headers: false,
  rerank: false,
  current: retrievalParams({ window: { before: 1, after: 2, bySection: false } }),
  metric: 'answerInContext',
};

describe('evaluation in the worker', () => {
  it('recognises SQuAD, BEIR and simple sets, and says what is wrong otherwise', () => {
    expect(readEvalFiles([file('set.json', SQUAD)], []).format).toBe('squad');
    const beir = readEvalFiles(
      [file('corpus.jsonl', '{"_id":"d1","title":"T","text":"Vitamin D is made in skin."}'), file('queries.jsonl', '{"_id":"q1","text":"vitamin d"}'), file('test.tsv', 'query-id\tcorpus-id\tscore\nq1\td1\t1')],
      [],
    );
    expect(beir.format).toBe('beir');
    const doc = documentFromText('Black tea is fully oxidised.', 'tea.txt');
    expect(readEvalFiles([file('qa.csv', 'question,answer\nHow is black tea made?,fully oxidised')], [doc]).format).toBe('simple');
    expect(() => readEvalFiles([file('corpus.jsonl', '{}')], [])).toThrow(/needs corpus\.jsonl, queries\.jsonl and a qrels/);
    expect(() => readEvalFiles([file('set.json', '{oops')], [])).toThrow(DatasetError);
    expect(() => readEvalFiles([file('a.pdf', '%PDF'), file('b.json', '{}')], [])).toThrow(/drop one labelled file/);
  });

  it('sweeps only the dimensions asked for; the others keep the view’s values', () => {
    const s = sweepSpecFor(spec, false);
    expect(s.windows).toHaveLength(36);
    expect(s.thresholds).toEqual([spec.current.merge.threshold]);
    expect(s.rrfC).toEqual([60]);
    expect(s.bm25Weights).toEqual([0.5]);
    expect(sweepSpecFor({ ...spec, windows: false }, false).windows).toEqual([{ before: 1, after: 2 }]);
    expect(sweepSpecFor({ ...spec, rerank: true }, false).rerank).toEqual([false]);
    expect(sweepSpecFor({ ...spec, rerank: true }, true).rerank).toEqual([false, true]);
  });

  it('runs a sweep with progress, recommends per budget, and replays a question at a point', async () => {
    const { set, format } = readEvalFiles([file('set.json', SQUAD)], []);
    const engine = new RetrievalEngine();
    engine.addDocuments(set.docs);
    const progress: EvalProgressMessage[] = [];
    const result = await runEvaluation(engine, set, format, spec, (p) => progress.push(p), new AbortController().signal);
    expect(result.points).toHaveLength((1 + 36) * 2);
    expect(result.recommendations.map((r) => r.budgetTokens)).toEqual([20, 40]);
    expect(progress.at(-1)).toEqual({ kind: 'eval', phase: 'sweep', done: 2, total: 2 });
    const best = result.recommendations[1]!.best;
    expect(best.metrics.answerInContext).toBe(1);
    const replay = await replayQuestion(engine, set, 'q1', [{ strategy: best.strategy, retriever: best.retriever, budgetTokens: 40, params: pointParams(best), headers: false, rerank: false }], (b) => ({ ...b, docId: '', docTitle: '', sectionPath: [], hitSpans: [] }));
    expect(replay.points[0]!.found).toBe(true);
    expect(replay.points[0]!.firstRank).toBeGreaterThanOrEqual(1);
    expect(replay.points[0]!.blocks.length).toBeGreaterThanOrEqual(replay.points[0]!.firstRank!);
    expect(replay.points[0]!.totalTokens).toBeLessThanOrEqual(40);
  });

  it('measures contextual retrieval off and on, each point with its intervals, and puts the switch back', async () => {
    const { set, format } = readEvalFiles([file('set.json', SQUAD)], []);
    const engine = new RetrievalEngine();
    engine.addDocuments(set.docs);
    // A context that names what the second question asks about ("winter closure") on the sentence holding its answer.
    const id = engine.corpus.sentences.findIndex((x) => set.docs[0]!.text.slice(x.start, x.end).startsWith('Storms'));
    engine.contexts.store.set(engine.contexts.key('sentence', id), { text: 'Winter closure of the port.', source: 'model test' });
    const result = await runEvaluation(engine, set, format, { ...spec, strategies: ['sentence', 'contextual'], windows: false, budgets: [40], contextual: true, current: retrievalParams({ contextual: { unit: 'sentence' } }) }, () => undefined, new AbortController().signal);
    const words = (p: (typeof result.points)[number]) => `${p.strategy}${p.contextual ? ' contextual' : ''}`;
    expect(result.points.map(words)).toEqual(['sentence', 'contextual', 'sentence contextual', 'contextual contextual']);
    expect(result.points.map((p) => Boolean(p.params.contextual))).toEqual([false, false, true, true]);
    for (const p of result.points) expect(p.intervals?.answerInContext).toBeDefined();
    expect(engine.structure.contextual).toBe(false);
  });

  it('measures late chunking off and on with the same questions, each point with its interval; a replayed late point leaves the engine plain', async () => {
    setupNode();
    const { set, format } = readEvalFiles([file('set.json', SQUAD)], []);
    const engine = new RetrievalEngine({ embedder: await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID }) });
    engine.addDocuments(set.docs);
    const passes = new Set<string>();
    const late = { ...spec, strategies: ['sentence' as const], retrievers: ['vector' as const], windows: false, budgets: [40], late: true };
    const result = await runEvaluation(engine, set, format, late, (p) => void (p.pass && passes.add(`${p.phase} ${p.pass}`)), new AbortController().signal);
    expect(result.points.map((p) => [p.strategy, p.late ?? false, Boolean(p.params.late)])).toEqual([
      ['sentence', false, false],
      ['sentence', true, true],
    ]);
    for (const p of result.points) expect(p.intervals?.answerInContext).toBeDefined();
    expect([...passes]).toEqual(['embed late chunking off', 'sweep late chunking off', 'embed late chunking on', 'sweep late chunking on']);
    expect(engine.structure.vectors).toBe('plain');
    engine.setVectorVariant('late');
    expect(engine.vectorCoverage('sentence')).toEqual({ done: 3, total: 3 });
    engine.setVectorVariant('plain');
    const view = (b: Parameters<Parameters<typeof replayQuestion>[4]>[0]) => ({ ...b, docId: '', docTitle: '', sectionPath: [], hitSpans: [] });
    const replay = await replayQuestion(engine, set, 'q1', [{ strategy: 'sentence', retriever: 'vector', budgetTokens: 40, params: {}, headers: false, late: true, rerank: false }], view);
    expect(replay.points).toHaveLength(1);
    expect(engine.structure.vectors).toBe('plain');
  });

  it('refuses late chunking with the model\'s reason before embedding anything', async () => {
    setupNode();
    const { set, format } = readEvalFiles([file('set.json', SQUAD)], []);
    const engine = new RetrievalEngine({ embedder: await TransformersEmbedder.load({ model: TEST_STATIC_EMBEDDER_ID }) });
    engine.addDocuments(set.docs);
    await expect(runEvaluation(engine, set, format, { ...spec, retrievers: ['vector'], late: true }, () => undefined, new AbortController().signal)).rejects.toThrow(
      `late chunking is not available for ${TEST_STATIC_EMBEDDER_ID}: it is a static model`,
    );
    expect(engine.vectorCoverage('sentence').done).toBe(0);
  });

  it('stops a run when cancelled and restores the header setting', async () => {
    const { set, format } = readEvalFiles([file('set.json', SQUAD)], []);
    const engine = new RetrievalEngine();
    engine.addDocuments(set.docs);
    const controller = new AbortController();
    controller.abort();
    await expect(runEvaluation(engine, set, format, { ...spec, headers: true }, () => undefined, controller.signal)).rejects.toThrow(/cancelled/);
    expect(engine.structure.headers.enabled).toBe(false);
  });
});
