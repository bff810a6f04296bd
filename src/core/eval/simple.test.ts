import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { DatasetError } from './dataset';
import { readSimpleSet } from './simple';

const tea = documentFromText('# Tea\n\nGreen tea is made from unoxidised leaves. Black tea is fully oxidised.', 'tea.md', 'md');
const coffee = documentFromText('# Coffee\n\nCoffee beans are roasted seeds. Espresso is brewed under pressure.', 'coffee.md', 'md');

describe('simple labelled sets (JSONL and CSV)', () => {
  it('reads question/answer and question/document rows, reporting bad rows by line', () => {
    const jsonl = [
      '{"question": "How is black tea made?", "answer": "fully oxidised"}',
      'not json',
      '{"question": "What is espresso?", "document": "coffee.md"}',
      '{"question": "", "answer": "x"}',
      '{"question": "Who?", "answer": "nowhere to be found"}',
      '{"question": "Which drink?", "document": "Cocoa"}',
      '{"question": "Nothing to judge"}',
    ].join('\n');
    const set = readSimpleSet(jsonl, 'set.jsonl', [tea, coffee]);
    expect(set.questions.map((q) => q.question)).toEqual(['How is black tea made?', 'What is espresso?']);
    const [q1, q2] = set.questions;
    expect(q1!.answers).toEqual(['fully oxidised']);
    expect(q1!.targets).toHaveLength(1);
    const span = q1!.targets[0]!.spans![0]!;
    expect(tea.text.slice(span.start, span.end)).toBe('fully oxidised');
    expect(q2!.targets).toEqual([{ doc: coffee.id, grade: 1 }]);
    expect(set.skipped).toEqual([
      'line 2: not valid JSON',
      'line 4: no question',
      'line 5: the answer "nowhere to be found" does not occur in any document',
      'line 6: no document named "Cocoa" in the corpus',
      'line 7: needs an answer or a document',
    ]);
  });

  it('reads CSV with quoted fields and a header, matching documents by title too', () => {
    const csv = 'question,answer,document\n"How is green tea made, exactly?",unoxidised leaves,\nWhat are coffee beans?,,Coffee\n';
    const set = readSimpleSet(csv, 'set.csv', [tea, coffee]);
    expect(set.questions.map((q) => q.question)).toEqual(['How is green tea made, exactly?', 'What are coffee beans?']);
    expect(set.questions[1]!.targets).toEqual([{ doc: coffee.id, grade: 1 }]);
  });

  it('says clearly what is missing', () => {
    expect(() => readSimpleSet('q,a\nx,y', 'set.csv', [tea])).toThrow(DatasetError);
    expect(() => readSimpleSet('q,a\nx,y', 'set.csv', [tea])).toThrow(/"question" column/);
    expect(() => readSimpleSet('{"question":"a","answer":"b"}', 'set.jsonl', [])).toThrow(/add the documents/);
  });
});
