import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import type { LabelledQuestion, QuestionSet } from '../core/questions/types';
import { exportQuestionFile, importQuestionFiles, SET_FORMATS } from './question-files';

const tower = documentFromText('# Tower\n\nThe Eiffel Tower was finished in 1889. It is 330 metres tall and stands in Paris.', 'tower.md', 'md');
const bridge = documentFromText('The Golden Gate Bridge opened in May 1937. Its main span is 1,280 metres long.', 'bridge.txt', 'txt');
const docs = [tower, bridge];

const span = (doc: typeof tower, text: string) => {
  const start = doc.text.indexOf(text);
  return { doc: doc.id, start, end: start + text.length, text };
};

const set: QuestionSet = {
  questions: [
    { id: 'q1', question: 'When was the Eiffel Tower finished?', answers: [span(tower, '1889')], source: { kind: 'marked' } },
    { id: 'q2', question: 'How long is the main span of the Golden Gate Bridge?', answers: [span(bridge, '1,280 metres')], source: { kind: 'generated', model: 'm', passage: [span(bridge, 'Its main span is 1,280 metres long.')] }, type: 'specific', copyShare: 0.5 },
  ] satisfies LabelledQuestion[],
};

describe('question set files in the page', () => {
  it('BEIR is one zip holding queries.jsonl, qrels/test.tsv and corpus.jsonl', () => {
    const f = exportQuestionFile('beir', set, docs);
    expect(f.fileName).toBe('question-set.beir.zip');
    expect(f.mime).toBe('application/zip');
    const entries = unzipSync(f.bytes);
    expect(Object.keys(entries).sort()).toEqual(['corpus.jsonl', 'qrels/test.tsv', 'queries.jsonl']);
    expect(strFromU8(entries['qrels/test.tsv']!)).toBe(`query-id\tcorpus-id\tscore\nq1\t${tower.id}\t1\nq2\t${bridge.id}\t1\n`);
  });

  it('names each single-file format and gives JSONL exactly one line per question', () => {
    expect(SET_FORMATS.map((f) => exportQuestionFile(f, set, docs).fileName)).toEqual([
      'question-set.jsonl',
      'question-set.squad.json',
      'question-set.beir.zip',
      'question-set.ragas.jsonl',
      'question-set.llamaindex.json',
    ]);
    expect(strFromU8(exportQuestionFile('jsonl', set, docs).bytes).trim().split('\n')).toHaveLength(2);
  });

  it.each(SET_FORMATS)('%s: exported and imported back (format detected), the same questions come back', (format) => {
    const f = exportQuestionFile(format, set, docs);
    const { format: detected, result } = importQuestionFiles([{ name: f.fileName, bytes: f.bytes }], docs);
    expect(detected).toBe(format);
    expect(result.set.questions.map((q) => q.question)).toEqual(set.questions.map((q) => q.question));
    // Span formats give the spans back; BEIR and LlamaIndex are document-level.
    if (format === 'jsonl' || format === 'squad' || format === 'ragas') expect(result.set.questions.map((q) => q.answers.map((a) => a.text))).toEqual([['1889'], ['1,280 metres']]);
    else expect(result.set.questions.map((q) => q.documents ?? q.answers.map((a) => a.doc))).toEqual([[tower.id], [bridge.id]]);
  });

  it('says which file it cannot read, and a zip without BEIR files', () => {
    expect(() => importQuestionFiles([{ name: 'notes.txt', bytes: new TextEncoder().encode('hello') }], docs)).toThrow(
      'notes.txt is not a question set this page can tell (JSONL questions, SQuAD JSON, a BEIR zip, a Ragas test set or LlamaIndex JSON): choose its format',
    );
    expect(() => importQuestionFiles([{ name: 'broken.zip', bytes: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]) }], docs)).toThrow(/^broken\.zip is not a readable zip/);
  });
});
