import { describe, expect, it } from 'vitest';
import { formatScore, pagesLabel, provenanceParts, sectionPathLabel, splitByHits } from './format';

describe('splitByHits', () => {
  it('keeps every character once, hits marked, whatever the order of spans', () => {
    const text = 'One. Two. Three. Four.';
    const pieces = splitByHits(text, [
      [17, 22],
      [5, 9],
      [6, 8],
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.hit).map((p) => p.text)).toEqual(['Two.', 'Four.']);
  });
  it('joins hits separated only by whitespace and clips spans to the text', () => {
    const pieces = splitByHits('A. B. C.', [
      [0, 2],
      [3, 5],
      [7, 99],
    ]);
    expect(pieces).toEqual([
      { text: 'A. B.', hit: true },
      { text: ' C', hit: false },
      { text: '.', hit: true },
    ]);
  });
  it('gives one plain piece without hits', () => {
    expect(splitByHits('plain', [])).toEqual([{ text: 'plain', hit: false }]);
  });
});

describe('formatting', () => {
  it('shows 3–4 significant digits', () => {
    expect(formatScore(0.032522)).toBe('0.03252');
    expect(formatScore(12.34567)).toBe('12.35');
    expect(formatScore(0)).toBe('0');
    expect(formatScore(-3.5)).toBe('-3.5');
  });
  it('says pages', () => {
    expect(pagesLabel()).toBe('');
    expect(pagesLabel(3, 3)).toBe('p. 3');
    expect(pagesLabel(3, 5)).toBe('pp. 3–5');
  });
  it('puts provenance in words', () => {
    expect(
      provenanceParts(
        {
          unit: 'sentence',
          ranks: { vector: 1, bm25: 3 },
          scores: {},
          fused: 0.0325,
          window: { before: 2, after: 2, shrunk: true },
          hits: 2,
          rerank: { score: 4.2, before: 5 },
        },
        120,
      ),
    ).toEqual(['BM25 #3 · vector #1', 'RRF 0.0325', 'window ±2', 'shrunk to fit the budget', '2 hits merged', 'rerank score 4.2 (was #5)', '120 tokens']);
    // The lexical model is said beside the BM25 rank, and only there.
    expect(provenanceParts({ unit: 'sentence', ranks: { vector: 2, bm25: 1 }, scores: {}, lexical: 'Lucene BM25 · stem' }, 7)[0]).toBe('BM25 #1 (Lucene BM25 · stem) · vector #2');
    expect(provenanceParts({ unit: 'sentence', ranks: { vector: 2 }, scores: {}, lexical: 'Lucene BM25 · stem' }, 7)[0]).toBe('vector #2');
    expect(provenanceParts({ unit: 'leaf', ranks: { bm25: 1, vector: null }, scores: {}, merged: { children: 3, of: 4, level: 1 } }, 1)).toEqual([
      'BM25 #1 · vector –',
      'merged from 3 of 4 children (level 1)',
      '1 token',
    ]);
  });
});

describe('sectionPathLabel', () => {
  it('drops a first heading that repeats the title', () => {
    expect(sectionPathLabel(['Solar facts', 'Planets'], 'Solar facts')).toBe('Planets');
    expect(sectionPathLabel(['Intro', 'Scope'], 'Report')).toBe('Intro › Scope');
    expect(sectionPathLabel(['Solar facts'], 'Solar facts')).toBe('Solar facts');
    expect(sectionPathLabel([], 'Report')).toBe('');
  });
});
