import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../node/setup';
import { analyze } from './analyzer';
import { BM25_PARAMS, LexicalIndex, TermDictionary } from './lexical-index';

// The typed-array index against a MiniSearch filled from the very same texts by its own add():
// an independent reference for BM25+ (miniSearch() is built from the index's own postings).
const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8')) as {
  data: { paragraphs: { context: string; qas: { question: string }[] }[] }[];
};
const paragraphs = squad.data.slice(4, 8).flatMap((a) => a.paragraphs);
const sentences = paragraphs.flatMap((p) => p.context.split(/(?<=[.!?])\s+/));
const questions = paragraphs.flatMap((p) => p.qas.map((q) => q.question)).slice(0, 120);

function miniSearchOf(texts: string[]): MiniSearch<{ id: number; text: string }> {
  const m = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    idField: 'id',
    storeFields: [],
    tokenize: (text) => analyze(text, 'en', 'stem'),
    processTerm: (t) => t,
    searchOptions: { bm25: { ...BM25_PARAMS }, prefix: false, fuzzy: false, combineWith: 'OR' },
  });
  m.addAll(texts.map((text, id) => ({ id, text })));
  return m;
}
const top = (m: MiniSearch<{ id: number; text: string }>, q: string, k: number, allow?: (id: number) => boolean) =>
  m
    .search(q, allow ? { filter: (r) => allow(r.id as number) } : {})
    .slice(0, k)
    .map((r) => ({ id: r.id as number, score: r.score }));

describe('the typed-array BM25+ index equals MiniSearch built from the same texts', () => {
  // Duplicates tie; added in batches with searches between, so postings are merged into the table several times.
  const texts = [...sentences, ...sentences.slice(0, 80)];
  const idx = new LexicalIndex({ analyzer: 'stem', bm25: 'bm25plus' });
  for (let i = 0; i < texts.length; i += 97) {
    idx.add(texts.slice(i, i + 97), 'en');
    idx.search('warm', 1);
  }
  const ref = miniSearchOf(texts);

  it('gives the same ids, scores and tie order, also for over 30 distinct terms and repeated terms', () => {
    expect(texts.length).toBeGreaterThan(400);
    const long = questions.slice(0, 8).join(' ');
    expect(new Set(analyze(long, 'en', 'stem')).size).toBeGreaterThan(30);
    let compared = 0;
    for (const q of [...questions, long, 'the the the of', 'zzzqqq', sentences[5]!]) {
      for (const k of [1, 10, 500]) {
        const got = idx.search(q, k);
        expect(got, q).toEqual(top(ref, q, k));
        compared += got.length;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    const even = (id: number) => id % 2 === 0;
    for (const q of questions.slice(0, 30)) expect(idx.search(q, 10, even)).toEqual(top(ref, q, 10, even));
  });

  it('keeps term frequencies over 255 and over 65,535 exactly (the tf column widens)', () => {
    const words = new LexicalIndex({ analyzer: 'words', bm25: 'lucene' });
    words.add(['apple pie', 'apple apple banana']);
    expect(words.postings().get('apple')).toEqual({ units: [0, 1], tf: [1, 2] });
    // Merged into a table whose column holds only small frequencies so far.
    words.add([`${'apple '.repeat(300)}banana`, 'apple', `${'apple '.repeat(256)}pie`]);
    expect(words.postings().get('apple')).toEqual({ units: [0, 1, 2, 3, 4], tf: [1, 2, 300, 1, 256] });
    expect(words.search('apple', 2).map((h) => h.id)).toEqual([2, 4]);
  });

  it('keeps a term frequency over 65,535 exactly (the tf column widens)', () => {
    const words = new LexicalIndex({ analyzer: 'words', bm25: 'lucene' });
    words.add(['apple pie', `${'apple '.repeat(70_000)}banana`, 'banana bread']);
    expect(words.postings().get('apple')).toEqual({ units: [0, 1], tf: [1, 70_000] });
    expect(words.search('apple', 1)[0]!.id).toBe(1);
    words.add(['apple']);
    expect(words.postings().get('apple')).toEqual({ units: [0, 1, 3], tf: [1, 70_000, 1] });
  });
});

describe('indexes sharing one term dictionary', () => {
  it('score, rank and list postings exactly as indexes with their own, while the others add terms', () => {
    for (const bm25 of ['bm25plus', 'lucene'] as const) {
      const params = { analyzer: 'stem' as const, bm25 };
      const terms = new TermDictionary();
      const shared = [new LexicalIndex(params, terms), new LexicalIndex(params, terms)];
      const own = [new LexicalIndex(params), new LexicalIndex(params)];
      // Index 1 takes other texts (pairs of sentences), later: its terms reach the dictionary after index 0's table was built.
      const textsOf = [sentences.slice(0, 150), sentences.slice(150, 400).map((s, i, a) => `${s} ${a[i + 1] ?? ''}`)];
      for (let step = 0; step < 3; step++) {
        for (const k of [0, 1]) {
          const batch = textsOf[k]!.slice(step * 100, step * 100 + 100);
          shared[k]!.add(batch);
          own[k]!.add(batch);
          for (const q of questions.slice(step * 20, step * 20 + 20)) expect(shared[k]!.search(q, 10), q).toEqual(own[k]!.search(q, 10));
        }
      }
      expect(terms.list.length).toBeGreaterThan(new Set([...own[0]!.postings().keys()]).size);
      for (const k of [0, 1]) {
        expect(new Map(shared[k]!.postings())).toEqual(new Map(own[k]!.postings()));
        for (const q of questions) expect(shared[k]!.search(q, 10), q).toEqual(own[k]!.search(q, 10));
      }
    }
  });
});
