import { describe, expect, it } from 'vitest';
import { describeSources, toEvalSet } from './evaluate-set';
import { answerParts, needsAll } from './needs';
import { towerCorpus } from './test-corpus';
import type { LabelledQuestion, QuestionSet } from './types';

const corpus = towerCorpus();
const [tower, bridge] = corpus.docs as [typeof corpus.docs[0], typeof corpus.docs[0]];
const span = (doc: typeof tower, text: string) => {
  const start = doc.text.indexOf(text);
  return { doc: doc.id, start, end: start + text.length, text };
};
const q = (id: string, kind: 'marked' | 'generated' | 'imported', extra: Partial<LabelledQuestion> = {}): LabelledQuestion => ({
  id,
  question: `question ${id}?`,
  answers: [span(tower, 'March 1889')],
  source: kind === 'generated' ? { kind, model: 'Qwen2.5-0.5B' } : kind === 'imported' ? { kind, file: 'old.jsonl' } : { kind },
  ...extra,
});

const SET: QuestionSet = {
  questions: [
    q('m1', 'marked'),
    q('m2', 'marked', { answers: [span(tower, '674 steps'), span(bridge, 'May 1937')] }),
    q('m3', 'marked', { answers: [], unanswerable: true }),
    q('g1', 'generated'),
    q('g2', 'generated', { answers: [{ doc: 'gone', start: 0, end: 4, text: 'Gone' }] }),
    q('g3', 'generated', { answers: [{ ...span(tower, 'Gustave Eiffel'), start: 3, end: 17 }] }),
    q('g4', 'generated', { answers: [{ ...span(tower, 'Gustave Eiffel'), text: 'Gustavo Eiffel' }] }),
    q('i1', 'imported', { answers: [], documents: [bridge.id] }),
  ],
  runs: [
    { model: 'Qwen2.5-0.5B', asked: 6, kept: 4, rejected: { duplicate: 1, 'dont-know': 1 } },
    { model: 'Qwen2.5-0.5B', asked: 3, kept: 0, rejected: { error: 3 } },
  ],
};

describe('toEvalSet', () => {
  it('makes targets per document from the spans, and counts what cannot be scored', () => {
    const { set, leftOut } = toEvalSet(SET, corpus.docs);
    expect(set.questions.map((x) => x.id)).toEqual(['m1', 'm2', 'g1', 'g3', 'i1']);
    expect(set.questions[1]).toEqual({
      id: 'm2',
      question: 'question m2?',
      answers: ['674 steps', 'May 1937'],
      targets: [
        { doc: tower.id, grade: 1, spans: [{ start: span(tower, '674 steps').start, end: span(tower, '674 steps').end }] },
        { doc: bridge.id, grade: 1, spans: [{ start: 0 + bridge.text.indexOf('May 1937'), end: bridge.text.indexOf('May 1937') + 8 }] },
      ],
    });
    // A span whose offsets moved is found again by its text; document-level questions have no spans.
    expect(set.questions[3]!.targets).toEqual([{ doc: tower.id, grade: 1, spans: [{ start: span(tower, 'Gustave Eiffel').start, end: span(tower, 'Gustave Eiffel').end }] }]);
    expect(set.questions[4]).toEqual({ id: 'i1', question: 'question i1?', answers: [], targets: [{ doc: bridge.id, grade: 1 }] });
    expect(leftOut).toEqual({ unanswerable: 1, missingDocs: 1, staleSpans: 1, otherKind: 0 });
    expect(set.skipped).toEqual([
      'question m3: marked not answerable from these documents (not scored)',
      'question g2: no document "gone" among the current documents',
      'question g4: its answer\'s text is no longer in "The tower"; mark it again',
    ]);
    expect(set.docs).toBe(corpus.docs);
    expect(toEvalSet(SET, corpus.docs, { includeDocs: false }).set.docs).toEqual([]);
  });
  it('takes only marked or only generated questions', () => {
    expect(toEvalSet(SET, corpus.docs, { only: 'marked' }).set.questions.map((x) => x.id)).toEqual(['m1', 'm2']);
    expect(toEvalSet(SET, corpus.docs, { only: 'generated' })).toMatchObject({ leftOut: { otherKind: 4, missingDocs: 1, staleSpans: 1 } });
  });
});

describe('toEvalSet: questions that need every answer', () => {
  it('an all-of question gets one target per part and says so; with one part it is an ordinary question', () => {
    const steps = span(tower, '674 steps');
    const opened = span(tower, 'March 1889');
    const set: QuestionSet = {
      questions: [
        q('both', 'generated', { answers: [steps, opened], needs: 'all' }),
        q('either', 'marked', { answers: [steps, opened] }),
        q('one', 'marked', { answers: [steps], needs: 'all' }),
        q('doc', 'imported', { answers: [steps], documents: [tower.id, bridge.id], needs: 'all' }),
      ],
    };
    const [both, either, one, doc] = toEvalSet(set, corpus.docs).set.questions;
    expect(both).toEqual({
      id: 'both',
      question: 'question both?',
      answers: ['674 steps', 'March 1889'],
      targets: [
        { doc: tower.id, grade: 1, spans: [{ start: steps.start, end: steps.end }] },
        { doc: tower.id, grade: 1, spans: [{ start: opened.start, end: opened.end }] },
      ],
      needs: 'all',
    });
    // Any-of (the default): one target, its spans alternatives.
    expect(either!.targets).toEqual([{ doc: tower.id, grade: 1, spans: [{ start: steps.start, end: steps.end }, { start: opened.start, end: opened.end }] }]);
    expect(either!.needs).toBeUndefined();
    expect(one!.needs).toBeUndefined();
    // A relevant document no span lies in is a part of its own.
    expect(doc).toMatchObject({ needs: 'all', targets: [{ doc: tower.id, spans: [{ start: steps.start }] }, { doc: bridge.id, grade: 1 }] });
  });

  it('counts the parts: spans, and documents no span lies in', () => {
    const steps = span(tower, '674 steps');
    expect(answerParts({ answers: [steps, steps] })).toBe(2);
    expect(answerParts({ answers: [steps], documents: [tower.id, bridge.id, bridge.id] })).toBe(2);
    expect(needsAll({ answers: [steps], documents: [bridge.id], needs: 'all' })).toBe(true);
    expect(needsAll({ answers: [steps], documents: [tower.id], needs: 'all' })).toBe(false);
    expect(needsAll({ answers: [steps, steps], needs: 'all', unanswerable: true })).toBe(false);
    expect(needsAll({ answers: [steps, steps] })).toBe(false);
  });
});

describe('describeSources', () => {
  it('says where the questions came from, with the runs\' asked and rejected counts', () => {
    expect(describeSources(SET)).toBe('3 marked by you · 4 generated by Qwen2.5-0.5B, of 9 asked; 5 rejected · 1 imported from old.jsonl');
    expect(describeSources(SET, { only: 'marked' })).toBe('3 marked by you');
    const { leftOut } = toEvalSet(SET, corpus.docs);
    expect(describeSources(SET, { leftOut })).toBe(
      '3 marked by you · 4 generated by Qwen2.5-0.5B, of 9 asked; 5 rejected · 1 imported from old.jsonl · not scored: 1 unanswerable, 1 with a missing document, 1 with a moved answer',
    );
    expect(describeSources({ questions: [q('x', 'generated', { source: { kind: 'generated', model: 'llama3' } })] })).toBe('1 generated by llama3');
    expect(describeSources({ questions: [] })).toBe('no questions');
  });
});
