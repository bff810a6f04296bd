import { describe, expect, it } from 'vitest';
import { documentPassages, passageSpan, samplePassages, type PassageItem } from './sample';
import { towerCorpus } from './test-corpus';

const shape = (items: PassageItem[]) => items.map((i) => [i.type, ...i.passages.map((p) => `${p.doc}:${p.sentences.start}-${p.sentences.end}`)]);

describe('passages', () => {
  it('are runs of whole sentences within one section, up to the token size', () => {
    const c = towerCorpus();
    const ps = documentPassages(c, 0, 30, 5);
    expect(ps.map((p) => [p.section, p.sentences.start, p.sentences.end, p.tokens])).toEqual([
      [1, 0, 3, 27],
      [2, 3, 6, 23],
      [2, 6, 7, 8],
      [3, 7, 11, 30],
    ]);
    // The text is the document's, from the first sentence's start to the last one's end.
    const p = ps[1]!;
    expect(p.text).toBe(c.docs[0]!.text.slice(p.start, p.end));
    expect(p.text.startsWith('Design\n\nThe tower was designed')).toBe(true);
    expect(p.text.endsWith('in 1884.')).toBe(true);
    expect(passageSpan(p)).toEqual({ doc: c.docs[0]!.id, start: p.start, end: p.end, text: p.text });
  });
  it('drop runs under the smallest size', () => {
    expect(documentPassages(towerCorpus(), 0, 30, 10).map((p) => p.sentences.start)).toEqual([0, 3, 7]);
  });
});

describe('samplePassages', () => {
  const opts = { maxTokens: 30, minTokens: 5 };
  it('gives the same items for the same seed, others for another', () => {
    const c = towerCorpus();
    const a = samplePassages(c, { ...opts, n: 4, seed: 1 });
    expect(shape(a.items)).toEqual([
      ['specific', '0:7-11'],
      ['specific', '1:11-13'],
      ['specific', '0:6-7'],
      ['specific', '0:0-3'],
    ]);
    // Within the tower document, each item comes from another section (3, 2, 1) before any repeats.
    expect(a.items.filter((i) => i.passages[0]!.doc === 0).map((i) => i.passages[0]!.section)).toEqual([3, 2, 1]);
    expect(shape(samplePassages(towerCorpus(), { ...opts, n: 4, seed: 1 }).items)).toEqual(shape(a.items));
    expect(shape(samplePassages(c, { ...opts, n: 4, seed: 2 }).items)).not.toEqual(shape(a.items));
  });
  it('goes round the documents, so the small one is not starved', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const docs = samplePassages(towerCorpus(), { ...opts, n: 2, seed }).items.map((i) => i.passages[0]!.doc);
      expect(new Set(docs)).toEqual(new Set([0, 1]));
    }
  });
  it('takes a multi-passage item as two non-adjacent passages of one document, and says when none is left', () => {
    const r = samplePassages(towerCorpus(), { ...opts, n: 5, seed: 1, types: ['specific', 'multi-passage'] });
    expect(shape(r.items)).toEqual([
      ['specific', '0:7-11'],
      ['multi-passage', '0:0-3', '0:6-7'],
      ['specific', '1:11-13'],
      ['specific', '0:3-6'],
    ]);
    expect(r.notes).toEqual([
      'no document has two non-adjacent passages left: multi-passage questions stop there',
      '4 passage items of 5 asked: the chosen documents have no more passages of at least 5 tokens',
    ]);
  });
  it('samples only the chosen documents and names unknown ones', () => {
    const c = towerCorpus();
    const r = samplePassages(c, { ...opts, n: 10, seed: 3, documents: [c.docs[1]!.id, 'nope'] });
    expect(shape(r.items)).toEqual([['specific', '1:11-13']]);
    expect(r.notes[0]).toBe('no document "nope" in the corpus');
  });
});
