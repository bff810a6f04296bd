import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../node/setup';
import { splitSentences } from '../segment/sentences';
import { ANALYZERS } from './analyzer';
import { BM25_VARIANTS, LexicalIndex, TermDictionary, type PostingRows } from './lexical-index';

const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8')) as {
  data: { paragraphs: { context: string; qas: { question: string }[] }[] }[];
};
const paragraphs = squad.data.slice(0, 3).flatMap((a) => a.paragraphs);
const texts = paragraphs.flatMap((p) => splitSentences(p.context, 'en').map((s) => p.context.slice(s.start, s.end)));
const questions = paragraphs.flatMap((p) => p.qas.map((q) => q.question)).slice(0, 60);

/** An index's postings as table rows, terms in the order given (any order will do). */
function rowsOf(idx: LexicalIndex, order: (a: string, b: string) => number = () => 0): PostingRows {
  const rows = { term: [] as string[], unit: [] as number[], tf: [] as number[] };
  for (const [term, p] of [...idx.postings()].sort((a, b) => order(a[0], b[0]))) {
    p.units.forEach((u, i) => {
      rows.term.push(term);
      rows.unit.push(u);
      rows.tf.push(p.tf[i]!);
    });
  }
  return rows;
}

describe('a BM25 index loaded from its postings', () => {
  for (const bm25 of BM25_VARIANTS) {
    for (const analyzer of ANALYZERS) {
      it(`ranks and scores exactly as the index built from the text (${bm25} · ${analyzer})`, () => {
        const built = new LexicalIndex({ analyzer, bm25 });
        built.add(texts, 'en');
        // Typed columns, as a bundle's table gives them (the slice test below passes plain arrays).
        const rows = rowsOf(built, (a, b) => (a < b ? 1 : -1));
        const loaded = LexicalIndex.fromPostings({ analyzer, bm25 }, texts.length, { term: rows.term, unit: Int32Array.from(rows.unit), tf: Int32Array.from(rows.tf) });
        expect(loaded.size).toBe(built.size);
        expect([...loaded.lengths()]).toEqual([...built.lengths()]);
        let hits = 0;
        for (const q of questions) {
          const a = built.search(q, 20);
          hits += a.length;
          expect(loaded.search(q, 20), q).toEqual(a);
        }
        const even = (id: number) => id % 2 === 0;
        expect(loaded.search(questions[0]!, 10, even)).toEqual(built.search(questions[0]!, 10, even));
        // A query of more than 30 distinct terms takes MiniSearch's own search (BM25+): it is filled then.
        const long = questions.slice(0, 8).join(' ');
        expect(loaded.search(long, 10)).toEqual(built.search(long, 10));
        for (const q of questions.slice(0, 10)) expect(loaded.search(q, 20, even), q).toEqual(built.search(q, 20, even));
        const sorted = (i: LexicalIndex) => [...i.postings()].map(([t, p]) => ({ t, units: [...p.units], tf: [...p.tf] })).sort((x, y) => (x.t < y.t ? -1 : 1));
        expect(sorted(loaded)).toEqual(sorted(built));
        // Later additions behave alike.
        loaded.add(['Super Bowl fifty was played in Santa Clara.']);
        built.add(['Super Bowl fifty was played in Santa Clara.']);
        expect(loaded.search('Where was Super Bowl fifty played?', 10)).toEqual(built.search('Where was Super Bowl fifty played?', 10));
        expect(hits).toBeGreaterThan(500);
      });
    }
  }

  it('takes a slice of a table of several unit kinds', () => {
    const built = new LexicalIndex();
    built.add(texts.slice(0, 50), 'en');
    const other = new LexicalIndex();
    other.add(texts.slice(50, 60), 'en');
    const a = rowsOf(other);
    const b = rowsOf(built);
    const rows = { term: [...(a.term as string[]), ...(b.term as string[])], unit: [...(a.unit as number[]), ...(b.unit as number[])], tf: [...(a.tf as number[]), ...(b.tf as number[])] };
    const loaded = LexicalIndex.fromPostings(built.params, 50, rows, a.term.length, rows.term.length);
    for (const q of questions.slice(0, 20)) expect(loaded.search(q, 10)).toEqual(built.search(q, 10));
  });

  it('refuses postings with a unit out of range or out of order', () => {
    const rows = { term: ['a', 'a', 'b'], unit: [0, 5, 1], tf: [1, 1, 1] };
    expect(() => LexicalIndex.fromPostings({ analyzer: 'words', bm25: 'lucene' }, 3, rows)).toThrow(/unit 5/);
    expect(() => LexicalIndex.fromPostings({ analyzer: 'words', bm25: 'bm25plus' }, 3, { term: ['a', 'a'], unit: [1, 0], tf: [1, 1] })).toThrow(/unit 0, not ascending/);
    expect(() => LexicalIndex.fromPostings({ analyzer: 'words', bm25: 'lucene' }, 3, { term: ['a', 'b', 'a'], unit: [0, 0, 1], tf: [1, 1, 1] })).toThrow(/not one run/);
  });

  it('names units past 2^24 exactly (the packed rows widen)', () => {
    const units = (1 << 24) + 2;
    const idx = LexicalIndex.fromPostings({ analyzer: 'words', bm25: 'lucene' }, units, { term: ['apple', 'apple', 'pie'], unit: [3, units - 1, units - 1], tf: [1, 2, 1] });
    expect(idx.postings().get('apple')).toEqual({ units: [3, units - 1], tf: [1, 2] });
    expect(idx.search('apple pie', 2).map((h) => h.id)).toEqual([units - 1, 3]);
  });
});

describe('a BM25 index loaded from term runs (a saved corpus\'s postings)', () => {
  it('shares one term dictionary, reads rows from where its offsets start, and matches nothing for a term without rows', () => {
    const terms = new TermDictionary();
    for (const t of ['ferry', 'bell', 'storm']) {
      terms.ids.set(t, terms.list.length);
      terms.list.push(t);
    }
    // Rows 0–1 belong to another index; ferry: units 0 and 2; bell: unit 1 twice; storm: no rows here.
    const unit = Int32Array.from([9, 9, 0, 2, 1]);
    const tf = Uint32Array.from([1, 1, 1, 1, 2]);
    const a = LexicalIndex.fromTermRuns({ analyzer: 'words', bm25: 'lucene' }, 3, terms, Int32Array.from([2, 4, 5]), unit, tf);
    const b = LexicalIndex.fromTermRuns({ analyzer: 'words', bm25: 'lucene' }, 3, terms, Int32Array.from([2, 3]), unit, tf);
    expect([...a.lengths()]).toEqual([1, 2, 1]);
    expect(a.search('ferry', 10).map((h) => h.id)).toEqual([0, 2]);
    expect(a.search('bell', 10).map((h) => h.id)).toEqual([1]);
    expect(a.search('storm', 10)).toEqual([]);
    expect(b.search('ferry', 10).map((h) => h.id)).toEqual([0]);
    expect(b.search('bell', 10)).toEqual([]);
    expect(() => LexicalIndex.fromTermRuns({ analyzer: 'words', bm25: 'lucene' }, 3, terms, Int32Array.from([2, 4, 3]), unit, tf)).toThrow(/"bell" end before they start/);
    expect(() => LexicalIndex.fromTermRuns({ analyzer: 'words', bm25: 'lucene' }, 3, terms, Int32Array.from([0, 2]), unit, tf)).toThrow(/unit 9, not ascending within 0…2/);
    expect(() => LexicalIndex.fromTermRuns({ analyzer: 'words', bm25: 'lucene' }, 3, terms, Int32Array.from([2, 4, 5, 6]), unit, tf)).toThrow(/past the 5 given/);
  });
});

describe('runs of sentences summed (addRuns), windows of a few sentences at a time', () => {
  it('gives the index that analysing the runs’ joined texts gives, whatever the window, a run going back and an analysed unit among them', () => {
    const terms = new TermDictionary();
    const sentences = new LexicalIndex(undefined, terms);
    sentences.add(texts);
    // Runs of 1–5 sentences over the whole set, one run going back to the start, and one unit given as terms.
    const runs: ({ start: number; end: number } | null)[] = [];
    for (let a = 0, k = 0; a < texts.length; k++) {
      const b = Math.min(texts.length, a + 1 + (k % 5));
      runs.push({ start: a, end: b });
      a = b;
    }
    runs.splice(7, 0, { start: 0, end: 3 }, null);
    const joined = (r: { start: number; end: number } | null) => (r ? texts.slice(r.start, r.end).join(' ') : 'A unit analysed alone, about levees.');
    const reference = new LexicalIndex();
    reference.add(runs.map(joined));
    expect(texts.length).toBeGreaterThan(100);
    for (const window of [1, 3, 64, 1 << 18]) {
      const summed = new LexicalIndex(undefined, terms);
      summed.addRuns(sentences, runs.length, (i) => runs[i]!, (i) => summed.analyze(joined(runs[i]!)), window);
      expect([...summed.lengths()], `window ${window}`).toEqual([...reference.lengths()]);
      expect(new Map([...summed.postings()].map(([t, p]) => [t, { ...p }])), `window ${window}`).toEqual(new Map([...reference.postings()].map(([t, p]) => [t, { ...p }])));
      for (const q of questions.slice(0, 10)) expect(summed.search(q, 10)).toEqual(reference.search(q, 10));
    }
  });
});
