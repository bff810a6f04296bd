import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Document } from '../../types';
import type { QuestionSet } from '../types';
import { detectFormat, exportSet, importSet } from './index';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

function doc(id: string, title: string, fileName: string, text: string): Document {
  return { id, title, language: 'en', text, sections: [{ id: 0, title: '', level: 0, parent: null, start: 0, end: text.length }], pages: [], meta: { fileName, size: text.length, format: 'txt' } };
}
const BRIDGE = doc('bridge', 'Bridge', 'bridge.txt', 'The bridge opened in 1937.\n\nIt is painted orange.');
const TOWER = doc('tower', 'Tower', 'tower.md', 'The tower is 330 metres tall.');
const DOCS = [BRIDGE, TOWER];

const SET: QuestionSet = {
  questions: [
    { id: 'm1', question: 'When did the bridge open?', answers: [{ doc: 'bridge', start: 21, end: 25, text: '1937' }], source: { kind: 'marked' } },
    {
      id: 'g1',
      question: 'What colour is the bridge?',
      answers: [{ doc: 'bridge', start: 42, end: 48, text: 'orange' }],
      source: { kind: 'generated', model: 'mock', passage: [{ doc: 'bridge', start: 28, end: 49, text: 'It is painted orange.' }] },
      type: 'abstract',
      copyShare: 0.5,
    },
    { id: 'u1', question: 'Who built the tower?', answers: [], unanswerable: true, source: { kind: 'marked' } },
    { id: 't1', question: 'How tall is the tower?', answers: [{ doc: 'tower', start: 13, end: 23, text: '330 metres' }], source: { kind: 'imported', file: 'old.jsonl' } },
  ],
};

describe('exports match the hand-written files', () => {
  it('JSONL', () => {
    expect(exportSet('jsonl', SET, DOCS)).toEqual({ files: [{ name: 'questions.jsonl', text: fixture('set.jsonl') }], notes: [] });
  });
  it('SQuAD (the unanswerable question with the first document)', () => {
    const r = exportSet('squad', SET, DOCS);
    expect(r.files).toEqual([{ name: 'questions.squad.json', text: fixture('set.squad.json') }]);
    expect(r.notes).toEqual([]);
  });
  it('BEIR (three files; the unanswerable question noted, not dropped silently)', () => {
    const r = exportSet('beir', SET, DOCS);
    expect(r.files).toEqual([
      { name: 'queries.jsonl', text: fixture('beir/queries.jsonl') },
      { name: 'qrels/test.tsv', text: fixture('beir/qrels/test.tsv') },
      { name: 'corpus.jsonl', text: fixture('beir/corpus.jsonl') },
    ]);
    expect(r.notes).toEqual(['question u1: unanswerable; BEIR has no relevant document for it, left out']);
  });
  it('Ragas', () => {
    expect(exportSet('ragas', SET, DOCS)).toEqual({ files: [{ name: 'questions.ragas.jsonl', text: fixture('set.ragas.jsonl') }], notes: [] });
  });
  it('LlamaIndex', () => {
    const r = exportSet('llamaindex', SET, DOCS);
    expect(r.files).toEqual([{ name: 'questions.llamaindex.json', text: fixture('set.llamaindex.json') }]);
    expect(r.notes).toEqual(['question u1: unanswerable; the dataset needs a relevant node, left out']);
  });
});

describe('a question that needs every answer', () => {
  const both: QuestionSet = {
    questions: [
      {
        id: 'c1',
        question: 'When did the bridge open, and how tall is the tower?',
        answers: [
          { doc: 'bridge', start: 21, end: 25, text: '1937' },
          { doc: 'tower', start: 13, end: 23, text: '330 metres' },
        ],
        needs: 'all',
        source: { kind: 'generated', model: 'mock' },
        type: 'multi-passage',
      },
      SET.questions[0]!,
    ],
  };
  it('JSONL carries "needs": "all" and reads it back', () => {
    const text = exportSet('jsonl', both, DOCS).files[0]!.text;
    expect(text.split('\n')[0]).toBe(
      '{"id":"c1","question":"When did the bridge open, and how tall is the tower?","answers":[{"doc":"bridge","start":21,"end":25,"text":"1937"},{"doc":"tower","start":13,"end":23,"text":"330 metres"}],"needs":"all","source":{"kind":"generated","model":"mock"},"type":"multi-passage"}',
    );
    const back = importSet('jsonl', { f: text }, DOCS, 'both.jsonl');
    expect([back.set, back.skipped]).toEqual([both, []]);
  });
  it('JSONL: a bad "needs" is named; "any" is the default; one answer needs nothing more; a lost answer is never dropped quietly', () => {
    const line = (id: string, needs: string, answers: string) => `{"id":"${id}","question":"${id}?","answers":[${answers}],"needs":"${needs}"}`;
    const a1937 = '{"doc":"bridge","start":21,"end":25,"text":"1937"}';
    const a330 = '{"doc":"tower","start":13,"end":23,"text":"330 metres"}';
    const r = importSet('jsonl', { f: [line('x', 'both', a1937), line('y', 'any', `${a1937},${a330}`), line('z', 'all', a1937), line('w', 'all', `${a1937},{"doc":"tower","start":0,"end":5,"text":"moats"}`), line('v', 'all', `${a1937},{"doc":"castle","start":0,"end":5,"text":"Moats"}`)].join('\n') }, DOCS, 'n.jsonl');
    expect(r.set.questions.map((q) => [q.id, q.needs ?? 'any', q.missingDocs ?? null])).toEqual([
      ['y', 'any', null],
      ['z', 'any', null],
      ['v', 'all', ['castle']],
    ]);
    // The answer into a missing document is kept as given: the question comes back whole with its document.
    expect(r.set.questions[2]!.answers.map((a) => a.doc)).toEqual(['bridge', 'castle']);
    expect(r.skipped).toEqual([
      'line 1: "needs" Invalid option: expected one of "all"|"any"',
      'line 4: answer span 0–5 does not hold "moats" in "Tower", and the text is not found there; left out',
      'line 4: it needs all its answers and one is not in the documents; not imported',
      'line 5: no document "castle" among the current ones; kept, marked as missing its document',
    ]);
  });
  it('SQuAD, BEIR, Ragas and LlamaIndex cannot say it: one note says so', () => {
    const notes = (f: 'squad' | 'beir' | 'ragas' | 'llamaindex') => exportSet(f, both, DOCS).notes;
    const head = '1 question needs all its answers (c1); ';
    const tail = '. The JSONL export keeps "needs": "all".';
    expect(notes('squad')).toEqual([
      `${head}SQuAD has no field for that (its answers are alternatives: any one counts), so they go out as alternatives${tail}`,
      'question c1: SQuAD keeps one context a question; its answers in other documents are left out',
    ]);
    expect(notes('beir')).toEqual([`${head}BEIR has no field for that (its qrels judge each relevant document alone), so their documents go out as separately relevant${tail}`]);
    expect(notes('ragas')).toEqual([`${head}a Ragas test set has no field for that, so their answers go out joined into one reference (" … ")${tail}`]);
    expect(notes('llamaindex')).toEqual([`${head}EmbeddingQAFinetuneDataset has no field for that (a hit is any one relevant node retrieved), so their nodes go out as alternatives${tail}`]);
    const many: QuestionSet = { questions: Array.from({ length: 7 }, (_, i) => ({ ...both.questions[0]!, id: `c${i + 1}` })) };
    expect(exportSet('squad', many, DOCS).notes[0]).toMatch(/^7 questions need all their answers \(c1, c2, c3, c4, c5, …\); SQuAD/);
    expect(exportSet('jsonl', both, DOCS).notes).toEqual([]);
  });
});

const ids = (s: QuestionSet) => s.questions.map((q) => q.id);
const spans = (s: QuestionSet) => s.questions.map((q) => q.answers.map((a) => `${a.doc}:${a.start}-${a.end}:${a.text}`).join('|'));

describe('imports map back onto the current documents', () => {
  it('JSONL round-trips exactly', () => {
    const r = importSet('jsonl', { 'set.jsonl': fixture('set.jsonl') }, DOCS, 'set.jsonl');
    expect(r.skipped).toEqual([]);
    expect(r.set).toEqual(SET);
  });
  it('SQuAD, BEIR, Ragas and LlamaIndex come back as imported questions on the same documents', () => {
    const squad = importSet('squad', { f: fixture('set.squad.json') }, DOCS, 'set.squad.json');
    expect([ids(squad.set), spans(squad.set), squad.skipped]).toEqual([['m1', 'g1', 'u1', 't1'], ['bridge:21-25:1937', 'bridge:42-48:orange', '', 'tower:13-23:330 metres'], []]);
    expect(squad.set.questions[2]).toEqual({ id: 'u1', question: 'Who built the tower?', answers: [], unanswerable: true, source: { kind: 'imported', file: 'set.squad.json' } });
    const beir = importSet('beir', { 'queries.jsonl': fixture('beir/queries.jsonl'), 'qrels/test.tsv': fixture('beir/qrels/test.tsv'), 'corpus.jsonl': fixture('beir/corpus.jsonl') }, DOCS, 'beir');
    expect([beir.set.questions.map((q) => [q.id, q.documents]), beir.skipped]).toEqual([[['m1', ['bridge']], ['g1', ['bridge']], ['t1', ['tower']]], []]);
    const ragas = importSet('ragas', { f: fixture('set.ragas.jsonl') }, DOCS, 'r.jsonl');
    expect([spans(ragas.set), ragas.set.questions[2]!.unanswerable, ragas.skipped]).toEqual([['bridge:21-25:1937', 'bridge:42-48:orange', '', 'tower:13-23:330 metres'], true, []]);
    const li = importSet('llamaindex', { f: fixture('set.llamaindex.json') }, DOCS, 'li.json');
    // The dataset has no answers: a question's node (its passage or paragraph) is its gold span.
    expect([ids(li.set), spans(li.set), li.skipped]).toEqual([['m1', 'g1', 't1'], ['bridge:0-26:The bridge opened in 1937.', 'bridge:28-49:It is painted orange.', 'tower:0-29:The tower is 330 metres tall.'], []]);
  });
  it('finds documents by title or file name and spans by their text when the documents were loaded again', () => {
    // Same files, new ids and a line added at the top: every offset moved by 10.
    const moved = [doc('b2', 'Bridge', 'bridge.txt', `New line.\n${BRIDGE.text}`), doc('t2', 'Tower', 'tower.md', `New line.\n${TOWER.text}`)];
    const jsonl = fixture('set.jsonl').replace(/"doc":"bridge"/g, '"doc":"bridge.txt"').replace(/"doc":"tower"/g, '"doc":"Tower"');
    const r = importSet('jsonl', { f: jsonl }, moved, 'set.jsonl');
    expect(spans(r.set)).toEqual(['b2:31-35:1937', 'b2:52-58:orange', '', 't2:23-33:330 metres']);
    expect(r.skipped).toEqual([
      'line 1: answer "1937": moved to 31–35, where its text is',
      'line 2: answer "orange": moved to 52–58, where its text is',
      'line 4: answer "330 metres": moved to 23–33, where its text is',
    ]);
    const squad = importSet('squad', { f: fixture('set.squad.json') }, moved, 's.json');
    expect(spans(squad.set)).toEqual(['b2:31-35:1937', 'b2:52-58:orange', '', 't2:23-33:330 metres']);
  });
  it('looks for an answer whose document is gone only where it cannot be pinned on the wrong document', () => {
    const text = [
      // Short: "1937" could be in any document, so the question keeps its missing document.
      '{"id":"s","question":"Short?","answers":[{"doc":"old-id","start":21,"end":25,"text":"1937"}]}',
      // Long and in one place only: found again.
      '{"id":"l","question":"Long?","answers":[{"doc":"old-id","start":0,"end":26,"text":"The bridge opened in 1937."}]}',
      // Its passage is found in Bridge: the short answer is looked for there.
      '{"id":"p","question":"Passage?","answers":[{"doc":"old-id","start":42,"end":48,"text":"orange"}],"source":{"kind":"generated","model":"m","passage":[{"doc":"old-id","start":0,"end":49,"text":"The bridge opened in 1937.\\n\\nIt is painted orange."}]}}',
    ].join('\n');
    const r = importSet('jsonl', { f: text }, DOCS, 'moved.jsonl');
    expect(r.set.questions.map((q) => [q.id, spans({ questions: [q] })[0], q.missingDocs ?? null])).toEqual([
      ['s', '', ['old-id']],
      ['l', 'bridge:0-26:The bridge opened in 1937.', null],
      ['p', 'bridge:42-48:orange', null],
    ]);
    expect(r.skipped).toEqual([
      'line 1: no document "old-id" among the current ones; kept, marked as missing its document',
      'line 2: answer "The bridge opened in 1937.": document "old-id" not found; its text is in "Bridge"',
      'line 3: answer "orange": document "old-id" not found; its text is in "Bridge"',
    ]);
  });

  it('counts and lists bad lines, spans outside their document and unknown documents: never a silent shrink', () => {
    const text = [
      '{"id":"a","question":"Fine?","answers":[{"doc":"bridge","start":21,"end":25,"text":"1937"}]}',
      'not json',
      '{"id":"b","question":"","answers":[]}',
      '{"id":"c","question":"Outside?","answers":[{"doc":"tower","start":100,"end":120,"text":"ten metres"}]}',
      '{"id":"d","question":"Gone?","answers":[{"doc":"castle","start":0,"end":5,"text":"Moats"}]}',
      '{"id":"a","question":"Same id?","answers":[{"doc":"tower","start":0,"end":9,"text":"The tower"}],"type":"weird"}',
      '{"id":"e","question":"Nothing?","answers":[]}',
    ].join('\n');
    const r = importSet('jsonl', { f: text }, DOCS, 'bad.jsonl');
    expect(r.set.questions.map((q) => [q.id, q.source.kind, q.missingDocs ?? null])).toEqual([
      ['a', 'imported', null],
      ['d', 'imported', ['castle']],
    ]);
    expect(r.skipped).toEqual([
      'line 2: not valid JSON',
      'line 3: "question" is empty',
      'line 4: answer span 100–120 is outside "Tower" (29 characters), and the text is not found there; left out',
      'line 4: none of its answers is in the documents; not imported',
      'line 5: no document "castle" among the current ones; kept, marked as missing its document',
      'line 6: "type" Invalid option: expected one of "specific"|"abstract"|"multi-passage"',
      'line 7: no answers and not marked unanswerable; not imported',
    ]);
  });
  it('tells the format of a file', () => {
    expect(detectFormat('x.jsonl', fixture('set.jsonl'))).toBe('jsonl');
    expect(detectFormat('x.json', fixture('set.squad.json'))).toBe('squad');
    expect(detectFormat('x.json', fixture('set.llamaindex.json'))).toBe('llamaindex');
    expect(detectFormat('x.jsonl', fixture('set.ragas.jsonl'))).toBe('ragas');
    expect(detectFormat('queries.jsonl', fixture('beir/queries.jsonl'))).toBe('beir');
    expect(detectFormat('notes.txt', 'hello')).toBeNull();
  });
});
