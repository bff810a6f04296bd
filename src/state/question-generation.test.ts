import { describe, expect, it } from 'vitest';
import type { LabelledQuestion } from '../core/questions/types';
import { defaultQuestionSettings, reviewRun, settingsProblems, type QuestionRun } from './question-generation';

const q = (id: string, copyShare: number): LabelledQuestion => ({ id, question: `q ${id}`, answers: [{ doc: 'd', start: 0, end: 1, text: 'x' }], source: { kind: 'generated', model: 'm' }, copyShare });

const run = (passed: LabelledQuestion[]): QuestionRun => ({
  state: 'done',
  model: 'm',
  progress: null,
  passed,
  rejected: [
    { reason: 'duplicate', detail: 'near-duplicate of "q a"', passage: [], type: 'specific' },
    { reason: 'not-json', detail: 'no JSON object', passage: [], type: 'specific' },
    { reason: 'duplicate', detail: 'near-duplicate of "q b"', passage: [], type: 'specific' },
  ],
  info: null,
  error: null,
  retry: null,
  added: null,
  adding: false,
  addError: null,
});

describe('the review of a generation run', () => {
  it('drops the questions that copy more than the threshold and counts them with the other rejections', () => {
    const r = run([q('a', 0.2), q('b', 0.8), q('c', 0.81), q('d', 1)]);
    const at80 = reviewRun(r, 0.8);
    expect(at80.kept.map((x) => x.id)).toEqual(['a', 'b']);
    expect(at80.copied.map((x) => x.id)).toEqual(['c', 'd']);
    expect(at80.counts).toEqual({ duplicate: 2, 'not-json': 1, 'copies-passage': 2 });
    // Moved both ways after the run.
    expect(reviewRun(r, 1).kept).toHaveLength(4);
    expect(reviewRun(r, 1).counts).toEqual({ duplicate: 2, 'not-json': 1 });
    expect(reviewRun(r, 0.1).kept).toEqual([]);
  });
});

describe('settings that keep a run from starting', () => {
  it('names each problem: no question asked, no kind, a prompt without its passage', () => {
    const s = defaultQuestionSettings();
    expect(settingsProblems(s)).toEqual([]);
    s.n = 0;
    s.kinds = [];
    expect(settingsProblems(s)).toEqual(['ask for at least one question', 'choose at least one kind of question']);
    const t = defaultQuestionSettings();
    t.kinds = ['specific', 'multi-passage'];
    t.prompts.specific.user = 'Ask about {title}';
    t.prompts['multi-passage'].user = '{passage_a} only';
    expect(settingsProblems(t)).toEqual(['the specific prompt must contain {passage}', 'the multi-passage prompt must contain {passage_b}']);
  });
});
