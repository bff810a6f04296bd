import { describe, expect, it } from 'vitest';
import type { LabelledQuestion } from '../core/questions/types';
import { answersAfterMarking, answersInWords, blockSentences, findQuestion, mergeSpans, needsAfterMarking, questionKey } from './question-marks';

const TEXT = 'Tea grows on hills. It is picked by hand.  Then it dries. Rain falls.';
const at = (part: string) => ({ doc: 'd', start: TEXT.indexOf(part), end: TEXT.indexOf(part) + part.length, text: part });

describe('marking answers', () => {
  it('a question is found whatever its case, spacing or final punctuation; marked ones first', () => {
    expect(questionKey('  How is TEA   picked?? ')).toBe('how is tea picked');
    const qs: LabelledQuestion[] = [
      { id: 'g', question: 'How is tea picked', answers: [], source: { kind: 'generated' } },
      { id: 'm', question: 'how is tea picked?', answers: [], source: { kind: 'marked' } },
    ];
    expect(findQuestion(qs, 'How is tea picked ?')?.id).toBe('m');
    expect(findQuestion(qs, 'Where does tea grow?')).toBeNull();
    expect(findQuestion(qs, '  ')).toBeNull();
  });

  it('sentences side by side become one span; apart they stay two', () => {
    expect(mergeSpans([at('Then it dries.'), at('It is picked by hand.')], TEXT)).toEqual([at('It is picked by hand.  Then it dries.')]);
    expect(mergeSpans([at('Tea grows on hills.'), at('Then it dries.')], TEXT)).toEqual([at('Tea grows on hills.'), at('Then it dries.')]);
    // Offsets into a block's text that starts at `from`.
    const from = TEXT.indexOf('It');
    expect(mergeSpans([at('It is picked by hand.'), at('Then it dries.')], TEXT.slice(from), from)).toEqual([at('It is picked by hand.  Then it dries.')]);
  });

  it('marking in a block replaces the answers inside it and keeps the others', () => {
    const region = { doc: 'd', start: TEXT.indexOf('It'), end: TEXT.indexOf(' Rain') };
    const before = [at('Tea grows on hills.'), at('It is picked by hand.'), { doc: 'e', start: 0, end: 3, text: 'abc' }];
    // Untick "It is picked…", tick "Then it dries."
    expect(answersAfterMarking(before, region, [at('Then it dries.')], TEXT, 0)).toEqual([at('Tea grows on hills.'), at('Then it dries.'), { doc: 'e', start: 0, end: 3, text: 'abc' }]);
    // A span reaching out of the block is kept whole while part of it stays ticked, dropped when unticked.
    const wide = [at('Tea grows on hills. It is picked by hand.')];
    expect(answersAfterMarking(wide, region, [at('It is picked by hand.')], TEXT, 0)).toEqual(wide);
    expect(answersAfterMarking(wide, region, [], TEXT, 0)).toEqual([]);
  });

  it('a block’s sentences are clipped to the block, their text from the block', () => {
    const block = { docId: 'd', start: 4, end: 40, text: TEXT.slice(4, 40) };
    expect(blockSentences(block, [{ start: 0, end: 19 }, { start: 20, end: 41 }, { start: 43, end: 57 }])).toEqual([
      { doc: 'd', start: 4, end: 19, text: 'grows on hills.' },
      { doc: 'd', start: 20, end: 40, text: 'It is picked by hand' },
    ]);
  });

  it('answers in words for lists', () => {
    expect(answersInWords({ answers: [], unanswerable: true })).toBe('Not answerable from these documents');
    expect(answersInWords({ answers: [at('Tea grows on hills.'), at('Rain falls.')] }, 10)).toBe('Tea grows… (+1 more)');
    expect(answersInWords({ answers: [at('Tea grows on hills.'), at('Rain falls.')], needs: 'all' }, 10)).toBe('Tea grows… (+1 more, all needed)');
  });

  it('a second span marked "also needed" makes the question need all its answers; marked as an alternative, any one', () => {
    const hills = at('Tea grows on hills.');
    const rain = at('Rain falls.');
    // The first mark, then a second one in another block "also needed".
    const first = answersAfterMarking([], { doc: 'd', start: 0, end: 19 }, [hills], TEXT, 0);
    expect(needsAfterMarking(null, first, undefined)).toEqual({});
    const region = { doc: 'd', start: TEXT.indexOf('Rain'), end: TEXT.length };
    const both = answersAfterMarking(first, region, [rain], TEXT, 0);
    expect(both).toEqual([hills, rain]);
    expect(needsAfterMarking({}, both, undefined, 'all')).toEqual({ needs: 'all' });
    // Marked as an alternative: any one is enough (SQuAD's rule, the default).
    expect(needsAfterMarking({ needs: 'all' }, both, undefined, 'any')).toEqual({});
    // No choice (a selection marked in a block): the question keeps its rule.
    expect(needsAfterMarking({ needs: 'all' }, both, undefined)).toEqual({ needs: 'all' });
    expect(needsAfterMarking({}, both, undefined)).toEqual({});
    // Unticking the second leaves one answer: nothing more to need.
    const one = answersAfterMarking(both, region, [], TEXT, 0);
    expect(needsAfterMarking({ needs: 'all' }, one, undefined)).toEqual({});
    // A relevant document no span lies in counts as a part.
    expect(needsAfterMarking({ needs: 'all' }, one, ['other'])).toEqual({ needs: 'all' });
  });
});
