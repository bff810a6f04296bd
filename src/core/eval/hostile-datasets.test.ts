/**
 * Issue 28, cases 7–9: dataset fields of the wrong type are skipped with the field named
 * (never a TypeError), numeric strings are numbers, a byte-order mark is never data,
 * duplicate BEIR ids are reported, and a set without questions is refused with why.
 */
import { describe, expect, it } from 'vitest';
import { readBeir } from './beir';
import { DatasetError } from './dataset';
import { metricIntervals, scoreQuestion } from './metrics';
import { readSimpleSet } from './simple';
import { readSquad, readSquadText } from './squad';

const CONTEXT = 'The Rhine flows north. It reaches the sea at Rotterdam, the largest port.';
const squad = (qas: unknown[]) => ({ data: [{ title: 'Rhine', paragraphs: [{ context: CONTEXT, qas }] }] });
const good = { id: 'ok', question: 'Where does the Rhine reach the sea?', answers: [{ text: 'Rotterdam', answer_start: 45 }] };

describe('case 7: SQuAD field types', () => {
  it.each([
    ['a null answer', { id: 'n', question: 'q?', answers: [null] }, 'question n: "answers[0]" is null, not an object'],
    ['a numeric answer text', { id: 't', question: 'q?', answers: [{ text: 42, answer_start: 0 }] }, 'question t: "answers[0].text" is a number, not text'],
    ['a numeric question', { id: 'q', question: 7, answers: [{ text: 'Rotterdam' }] }, 'question q: "question" is a number, not text'],
    ['answer_start_candidates that is no list', { id: 'c', question: 'q?', answers: [{ text: 'Rotterdam', answer_start_candidates: 45 }] }, 'question c: "answers[0].answer_start_candidates" is a number, not a list'],
    ['an answer_start that is no number', { id: 's', question: 'q?', answers: [{ text: 'Rotterdam', answer_start: 'soon' }] }, 'question s: "answers[0].answer_start" is "soon", not a whole number ≥ 0'],
  ])('%s is a skipped question naming the field; the rest is read', (_, qa, skipped) => {
    const set = readSquad(squad([qa, good]));
    expect(set.skipped).toEqual([skipped]);
    expect(set.questions.map((q) => q.id)).toEqual(['ok']);
  });

  it('"answer_start": "26" is read as 26: the gold span is the answer, so a block holding it scores hit@1 1', () => {
    const set = readSquad(squad([{ id: 'n', question: 'Where does it reach the sea?', answers: [{ text: 'Rotterdam', answer_start: '45' }] }]));
    const doc = set.docs[0]!;
    const spans = set.questions[0]!.targets[0]!.spans!;
    expect(spans.map((s) => doc.text.slice(s.start, s.end))).toEqual(['Rotterdam']);
    const m = scoreQuestion(set.questions[0]!, [{ doc: doc.id, start: 23, end: doc.text.length, text: doc.text.slice(23), tokens: 10 }]);
    expect(m.hitAt1).toBe(1);
  });

  it('the offset string is used, not concatenated: "10" points where the text is, a stale one falls back to search', () => {
    // "Rotterdam" occurs once; "10" is stale: found by search at 45 (not at "1"+"0" or 100).
    const set = readSquad(squad([{ id: 'x', question: 'port?', answers: [{ text: 'Rotterdam', answer_start: '10', answer_start_candidates: ['45'] }] }]));
    expect(set.questions[0]!.targets[0]!.spans).toEqual([{ start: 45, end: 54 }]);
  });
});

describe('case 8: a set with 0 questions', () => {
  it('SQuAD: refused, saying why', () => {
    expect(() => readSquad(squad([{ id: 'u', question: 'q?', is_impossible: true, answers: [] }]))).toThrow(new DatasetError('the SQuAD file has no usable question (question u: unanswerable (asked by answer runs only))'));
  });

  it('metrics of no question are refused instead of NaN intervals', () => {
    expect(() => metricIntervals([])).toThrow(DatasetError);
    expect(() => metricIntervals([])).toThrow('no questions to measure: every question of the set was skipped or has no document in the corpus');
  });
});

describe('case 9: byte-order marks and duplicate ids', () => {
  it('SQuAD JSON with a BOM is read', () => {
    const set = readSquadText('\ufeff' + JSON.stringify(squad([good])));
    expect(set.questions.map((q) => q.id)).toEqual(['ok']);
  });

  const corpus = ['{"_id": "d1", "title": "One", "text": "First document text."}', '{"_id": "d2", "text": "Second document text."}', '{"_id": "d1", "text": "A second d1."}'].join('\n');
  const queries = ['{"_id": "q1", "text": "first"}', '{"_id": "q2", "text": "second"}', '{"_id": "q1", "text": "first again"}'].join('\n');
  const qrels = 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n';

  it('BEIR files with a BOM lose neither their first document nor their first query', () => {
    const set = readBeir({ corpus: '\ufeff' + corpus, queries: '\ufeff' + queries, qrels: '\ufeff' + qrels });
    expect(set.docs.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(set.questions.map((q) => q.id)).toEqual(['q1', 'q2']);
  });

  it('BEIR duplicate document ids and query ids are reported, and each query is evaluated once', () => {
    const set = readBeir({ corpus, queries, qrels });
    expect(set.skipped).toEqual(['corpus line 3: duplicate _id "d1" (line 1 kept)', 'queries line 3: duplicate _id "q1" (line 1 kept)']);
    expect(set.questions.map((q) => [q.id, q.question])).toEqual([
      ['q1', 'first'],
      ['q2', 'second'],
    ]);
    expect(set.docs[0]!.text).toBe('One\n\nFirst document text.');
  });

  it('a JSONL question set with a BOM reads its first line', () => {
    const docs = readSquad(squad([good])).docs;
    const set = readSimpleSet('\ufeff{"question": "port?", "answer": "Rotterdam"}\n{"question": 5, "answer": "Rhine"}', 'set.jsonl', docs);
    expect(set.questions.map((q) => q.id)).toEqual(['line-1']);
    expect(set.skipped).toEqual(['line 2: "question" is number, not text']);
  });
});
