import { describe, expect, it } from 'vitest';
import type { LabelledQuestion } from '../questions/types';
import { labelledGoldenInputs } from './golden';

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
});
