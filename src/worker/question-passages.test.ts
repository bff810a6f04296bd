import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { ApproxTokenCounter } from '../core/segment/tokens';
import { buildCorpus } from '../core/structure/corpus';
import { questionPassages } from './question-passages';

const para = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `The ${topic} report number ${i + 1} describes the harbour, its cranes and the ships that call there every week of the year.`).join(' ');

const corpus = () =>
  buildCorpus(
    [documentFromText(`# Port\n\n${para('port', 12)}`, 'port.md', 'md'), documentFromText(`# Rail\n\n${para('rail', 12)}`, 'rail.md', 'md')],
    new ApproxTokenCounter(),
  );

describe('questionPassages (the worker side of question generation: the run\'s plan)', () => {
  it('samples items over both documents and names each document an item comes from', () => {
    const c = corpus();
    const r = questionPassages(c, { n: 4, seed: 7, maxTokens: 60 });
    expect(r.items).toHaveLength(4);
    expect(r.calls).toBe(4);
    expect(new Set(r.items.map((i) => i.passages[0]!.docId))).toEqual(new Set(c.docs.map((d) => d.id)));
    expect(Object.values(r.docs).map((d) => d.title).sort()).toEqual(['Port', 'Rail']);
    for (const d of Object.values(r.docs)) expect(d.language).toBe('en');
    // Each passage's text is its document's text at its span.
    for (const item of r.items) for (const p of item.passages) expect(c.docs[p.doc]!.text.slice(p.start, p.end)).toBe(p.text);
  });

  it('repeats with the same seed and clamps what a message asks for', () => {
    const c = corpus();
    const a = questionPassages(c, { n: 3, seed: 1, maxTokens: 60 });
    const b = questionPassages(c, { n: 3, seed: 1, maxTokens: 60 });
    expect(b.items).toEqual(a.items);
    expect(questionPassages(c, { n: -5, seed: 1 }).items).toEqual([]);
    expect(questionPassages(c, { n: Number.NaN, seed: 1 }).items).toEqual([]);
  });
});
