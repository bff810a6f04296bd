import { describe, expect, it } from 'vitest';
import { retrievalParams } from '../core/retrieve/params';
import { file, labHarness } from './lab-harness';
import type { EvalRunSpec } from './protocol';
import type { NewQuestion } from './question-protocol';
import { describeSources } from '../core/questions/evaluate-set';

/** The question set as the page sees it: the lab served over a MessageChannel, storage in fake-indexeddb. */
const { startLab, freshStorage } = labHarness();

const TEA = 'Black tea is fully oxidised before drying. Green tea is steamed to stop oxidation. Oolong sits between the two.';
const HARBOUR = 'The harbour opens at dawn. Fishing boats leave before six.';

const span = (doc: string, text: string, part: string) => ({ doc, start: text.indexOf(part), end: text.indexOf(part) + part.length, text: part });

describe('the question set in the worker', () => {
  it('keeps marked questions across a reload; a removed document leaves its question saying so, and adding it back restores it', async () => {
    freshStorage();
    const first = await startLab({ fresh: true });
    const added = await first.client.request('addText', { name: 'Pasted text 1', text: TEA }).promise;
    const tea = added.added[0]!.id;
    const harbour = (await first.client.request('addText', { name: 'Pasted text 2', text: HARBOUR }).promise).added[0]!.id;
    const r = await first.client.request('questionsAdd', {
      questions: [
        { question: '  How is green tea treated? ', answers: [span(tea, TEA, 'Green tea is steamed to stop oxidation.')], source: { kind: 'marked' } },
        { question: 'When do the boats leave?', answers: [span(harbour, HARBOUR, 'Fishing boats leave before six.')], source: { kind: 'marked' } },
        { question: 'Who owns the harbour?', answers: [], unanswerable: true, source: { kind: 'marked' } },
      ],
    }).promise;
    expect(r.skipped).toEqual([]);
    expect(r.added).toHaveLength(3);
    expect(r.set.questions.map((q) => q.question)).toEqual(['How is green tea treated?', 'When do the boats leave?', 'Who owns the harbour?']);

    // A reload: a new lab over the same storage.
    const second = await startLab();
    const listed = await second.client.request('questionsList', {}).promise;
    expect(listed.questions.map((q) => [q.question, q.answers.map((a) => a.text), q.unanswerable ?? false])).toEqual([
      ['How is green tea treated?', ['Green tea is steamed to stop oxidation.'], false],
      ['When do the boats leave?', ['Fishing boats leave before six.'], false],
      ['Who owns the harbour?', [], true],
    ]);

    // Adding a document keeps the set as it is.
    await second.client.request('addText', { name: 'Pasted text 3', text: 'Rain fell all week in the valley.' }).promise;
    expect((await second.client.request('questionsList', {}).promise).questions.every((q) => !q.missingDocs)).toBe(true);

    await second.client.request('removeDocument', { docId: harbour }).promise;
    const after = await second.client.request('questionsList', {}).promise;
    expect(after.questions).toHaveLength(3);
    expect(after.questions.map((q) => q.missingDocs ?? [])).toEqual([[], [harbour], []]);
    // And after another reload it still says so.
    const third = await startLab();
    expect((await third.client.request('questionsList', {}).promise).questions[1]!.missingDocs).toEqual([harbour]);
    // The same text added again has the same id: the question is whole again.
    await third.client.request('addText', { name: 'Pasted text 2', text: HARBOUR }).promise;
    expect((await third.client.request('questionsList', {}).promise).questions[1]!.missingDocs).toBeUndefined();
  });

  it('adds many at once, skipping with one line each the questions whose spans do not fit their document', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    const tea = (await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise).added[0]!.id;
    const questions: NewQuestion[] = [
      { id: 'g1', question: 'What sits between black and green tea?', answers: [span(tea, TEA, 'Oolong')], source: { kind: 'generated', model: 'TestLM' }, type: 'specific' },
      { id: 'g2', question: 'Out of range?', answers: [{ doc: tea, start: 100, end: 200, text: 'x' }], source: { kind: 'generated', model: 'TestLM' } },
      { id: 'g3', question: 'Wrong text?', answers: [{ doc: tea, start: 0, end: 5, text: 'Green' }], source: { kind: 'generated', model: 'TestLM' } },
      { id: 'g1', question: 'Taken id, unknown document', answers: [{ doc: 'gone-doc', start: 0, end: 4, text: 'Rain' }], source: { kind: 'imported', file: 'set.jsonl' } },
      { question: '', answers: [], source: { kind: 'marked' } },
      { id: 'b1', question: 'Which document is about tea?', answers: [], documents: [tea], source: { kind: 'imported', file: 'qrels.tsv' } },
    ];
    const r = await client.request('questionsAdd', { questions, run: { model: 'TestLM', asked: 4, kept: 1, rejected: { 'answer-not-found': 2, duplicate: 1 } } }).promise;
    expect(r.skipped).toEqual([
      `"Out of range?" was not added: an answer span (100–200) falls outside "Pasted text 1" (${TEA.length} characters).`,
      '"Wrong text?" was not added: an answer span\'s text differs from "Pasted text 1" at 0–5.',
      'question 5 was not added: it has no question text.',
    ]);
    expect(r.added[0]).toBe('g1');
    expect(r.added[1]).not.toBe('g1');
    expect(r.set.questions[1]!.missingDocs).toEqual(['gone-doc']);
    // Relevant documents without spans (a BEIR import) are an answer too.
    expect(r.set.questions[2]).toMatchObject({ id: 'b1', answers: [], documents: [tea] });
    expect(describeSources(r.set)).toBe('1 generated by TestLM, of 4 asked; 3 rejected · 1 imported from set.jsonl · 1 imported from qrels.tsv');

    // Update and delete.
    const edited = await client.request('questionsUpdate', { question: { ...r.set.questions[0]!, question: 'Which tea sits between the two?' } }).promise;
    expect(edited.questions[0]!.question).toBe('Which tea sits between the two?');
    const left = await client.request('questionsDelete', { ids: ['g1'] }).promise;
    expect(left.questions.map((q) => q.question)).toEqual(['Taken id, unknown document', 'Which document is about tea?']);
  });

  it('evaluates on the question set like on an imported one, saying where its questions came from; unanswerable ones are counted, not measured', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    const tea = (await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise).added[0]!.id;
    await client.request('questionsAdd', {
      questions: [
        { question: 'How is green tea treated?', answers: [span(tea, TEA, 'Green tea is steamed to stop oxidation.')], source: { kind: 'marked' } },
        { question: 'What happens to black tea before drying?', answers: [span(tea, TEA, 'Black tea is fully oxidised before drying.')], source: { kind: 'marked' } },
        { question: 'Is tea grown on the moon?', answers: [], unanswerable: true, source: { kind: 'marked' } },
        { question: 'Which tea sits between the two?', answers: [span(tea, TEA, 'Oolong sits between the two.')], source: { kind: 'generated', model: 'TestLM' } },
      ],
    }).promise;
    const spec: EvalRunSpec = {
      strategies: ['sentence'],
      retrievers: ['bm25'],
      budgets: [40],
      windows: false,
      thresholds: false,
      rrfGrid: false,
      headers: false,
      rerank: false,
      current: retrievalParams(),
      metric: 'answerInContext',
      questions: { subset: 'all' },
    };
    const all = await client.request('evalRun', { spec }).promise;
    expect(all.set).toMatchObject({ name: 'Question set', format: 'questions', questions: 3 });
    expect(all.questionSet).toEqual({
      subset: 'all',
      sources: '3 marked by you · 1 generated by TestLM · not scored: 1 unanswerable',
      counts: { marked: 2, generated: 1, imported: 0 },
      unanswerable: 1,
      missing: 0,
    });
    expect(all.questions.map((q) => q.source)).toEqual(['marked', 'marked', 'generated']);
    // Each question's own sentence is the best BM25 hit: every answer is in the context.
    expect(all.points[0]!.metrics.answerInContext).toBe(1);
    expect(all.points[0]!.perQuestion).toHaveLength(3);

    const marked = await client.request('evalRun', { spec: { ...spec, questions: { subset: 'generated' } } }).promise;
    expect(marked.questionSet?.counts).toEqual({ marked: 0, generated: 1, imported: 0 });
    expect(marked.questions.map((q) => q.question)).toEqual(['Which tea sits between the two?']);
    // Replays read the set the last run measured.
    const replay = await client.request('evalQuestion', { questionId: marked.questions[0]!.id, points: [{ strategy: 'sentence', retriever: 'bm25', budgetTokens: 40, params: {}, headers: false, rerank: false }] }).promise;
    expect(replay.points[0]!.found).toBe(true);
  });

  it('a question that needs both its sentences is found only when both are handed over; one answer left needs nothing more', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    const tea = (await client.request('addText', { name: 'Pasted text 1', text: TEA }).promise).added[0]!.id;
    const black = span(tea, TEA, 'Black tea is fully oxidised before drying.');
    const green = span(tea, TEA, 'Green tea is steamed to stop oxidation.');
    const added = await client.request('questionsAdd', {
      questions: [
        { id: 'all', question: 'How are black tea and green tea treated?', answers: [black, green], needs: 'all', source: { kind: 'marked' } },
        { id: 'any', question: 'How is black tea or green tea treated?', answers: [black, green], source: { kind: 'marked' } },
        { id: 'bad', question: 'Both?', answers: [black], needs: 'both' as 'all', source: { kind: 'marked' } },
      ],
    }).promise;
    expect(added.skipped).toEqual(['"Both?" was not added: its "needs" is neither "all" nor absent (any one answer).']);
    expect(added.set.questions.map((q) => [q.id, q.needs ?? 'any'])).toEqual([
      ['all', 'all'],
      ['any', 'any'],
    ]);
    const spec: EvalRunSpec = { strategies: ['sentence'], retrievers: ['bm25'], budgets: [10, 40], windows: false, thresholds: false, rrfGrid: false, headers: false, rerank: false, current: retrievalParams(), metric: 'answerInContext', questions: { subset: 'all' } };
    const r = await client.request('evalRun', { spec }).promise;
    const at = (budget: number) => r.points.find((p) => p.budgetTokens === budget)!.perQuestion!.map((m) => m.answerInContext);
    // One sentence fits 10 tokens: any-of is found, all-of is not; at 40 both sentences are handed over.
    expect(at(10)).toEqual([0, 1]);
    expect(at(40)).toEqual([1, 1]);

    // Unticking one of its two answers leaves nothing more to need.
    const one = await client.request('questionsUpdate', { question: { ...added.set.questions[0]!, answers: [black] } }).promise;
    expect(one.questions[0]!.needs).toBeUndefined();
  });

  it('says why there is nothing to evaluate', async () => {
    freshStorage();
    const { client } = await startLab({ fresh: true });
    await client.request('questionsAdd', { questions: [{ question: 'Anything?', answers: [], unanswerable: true, source: { kind: 'marked' } }] }).promise;
    const spec = { strategies: ['sentence'], retrievers: ['bm25'], budgets: [40], windows: false, thresholds: false, rrfGrid: false, headers: false, rerank: false, current: retrievalParams(), metric: 'answerInContext', questions: { subset: 'all' } } as EvalRunSpec;
    await expect(client.request('evalRun', { spec }).promise).rejects.toThrow(
      'No questions with answers to evaluate (1 marked by you · not scored: 1 unanswerable): mark answers while exploring, or generate questions.',
    );
  });
});
