import { describe, expect, it } from 'vitest';
import type { LabelledQuestion } from '../questions/types';
import { labelledGoldenInputs, runMetrics } from './golden';

const q = (id: string, over: Partial<LabelledQuestion>): LabelledQuestion => ({ id, question: `question ${id}`, answers: [], source: { kind: 'marked' }, ...over });

describe('labelledGoldenInputs: the question set as a bundle\'s golden questions', () => {
  it('keeps gold spans as targets by document and their texts as answers; counts what it leaves out', () => {
    const { inputs, left } = labelledGoldenInputs(
      [
        q('a', { answers: [{ doc: 'd1', start: 10, end: 20, text: 'ten to 20' }, { doc: 'd1', start: 40, end: 45, text: 'forty' }, { doc: 'd2', start: 0, end: 3, text: 'ten to 20' }] }),
        q('b', { unanswerable: true }),
        q('c', { answers: [{ doc: 'gone', start: 0, end: 4, text: 'gone' }] }),
        q('d', { answers: [{ doc: 'd1', start: 1, end: 2, text: 'x' }], missingDocs: ['old'] }),
        q('f', { documents: ['d1'] }),
        q('e', { answers: [{ doc: 'gone', start: 0, end: 4, text: 'gone' }, { doc: 'd2', start: 5, end: 9, text: 'five' }], source: { kind: 'generated', model: 'm' } }),
      ],
      ['d1', 'd2'],
    );
    expect(inputs).toEqual([
      {
        id: 'a',
        question: 'question a',
        answers: ['ten to 20', 'forty'],
        targets: [
          { doc: 'd1', grade: 1, spans: [{ start: 10, end: 20 }, { start: 40, end: 45 }] },
          { doc: 'd2', grade: 1, spans: [{ start: 0, end: 3 }] },
        ],
      },
      { id: 'e', question: 'question e', answers: ['five'], targets: [{ doc: 'd2', grade: 1, spans: [{ start: 5, end: 9 }] }] },
    ]);
    expect(left).toEqual({ unanswerable: 1, documentLevel: 1, missing: 2 });
  });

  it('a question that needs every answer keeps one target per part, or is left out when a part is gone', () => {
    const parts = [{ doc: 'd1', start: 10, end: 20, text: 'ten to 20' }, { doc: 'd1', start: 40, end: 45, text: 'forty' }];
    const { inputs, left } = labelledGoldenInputs([q('all', { answers: parts, needs: 'all' }), q('lost', { answers: [...parts, { doc: 'gone', start: 0, end: 4, text: 'gone' }], needs: 'all' })], ['d1']);
    expect(inputs).toEqual([
      {
        id: 'all',
        question: 'question all',
        answers: ['ten to 20', 'forty'],
        targets: [
          { doc: 'd1', grade: 1, spans: [{ start: 10, end: 20 }] },
          { doc: 'd1', grade: 1, spans: [{ start: 40, end: 45 }] },
        ],
        needs: 'all',
      },
    ]);
    expect(left).toEqual({ unanswerable: 0, documentLevel: 0, missing: 1 });
    // The bundle's metrics judge it the same way: one of its two parts handed over is not enough.
    const golden = { ...inputs[0]!, id: 'all', language: 'en', terms: [], vector: null, answers: inputs[0]!.answers!, targets: inputs[0]!.targets! };
    const half = [{ doc: 'd1', start: 0, end: 30, text: 'ten to 20', tokens: 5 }];
    expect(runMetrics([golden], [half], false)).toMatchObject({ answerInContext: 0, hitAt1: 0, recallAt5: 0.5 });
    expect(runMetrics([golden], [[...half, { doc: 'd1', start: 35, end: 50, text: 'forty', tokens: 5 }]], false)).toMatchObject({ answerInContext: 1, hitAt5: 1, mrr: 0.5 });
  });
});
