import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import type { TokenCounter } from '../segment/tokens';
import { buildCorpus, type Corpus } from '../structure/corpus';
import type { Document } from '../types';
import { isEmptyFilter, rangeMask, sentenceMask } from './filters';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };

function withMeta(doc: Document, extra: { created?: string; modified?: string; tags?: string[] }): Document {
  const meta = { ...doc.meta };
  if (extra.created) meta.created = extra.created;
  if (extra.modified) meta.modified = extra.modified;
  return { ...doc, meta, ...(extra.tags ? { tags: extra.tags } : {}) };
}

// Sentences (index: doc, section path):
//  0 Manual              | 0 [Manual]
//  1 Welcome here.       | 0 [Manual]
//  2 Installation        | 0 [Manual, Installation]
//  3 Run setup now.      | 0 [Manual, Installation]
//  4 On Linux            | 0 [Manual, Installation, On Linux]
//  5 Use the package.    | 0 [Manual, Installation, On Linux]
//  6 Troubleshooting     | 0 [Manual, Troubleshooting]
//  7 Restart first.      | 0 [Manual, Troubleshooting]
//  8 Handbuch            | 1 [Handbuch]
//  9 Willkommen hier.    | 1 [Handbuch]
// 10 Installation        | 1 [Handbuch, Installation]
// 11 Setup starten.      | 1 [Handbuch, Installation]
// 12 Plain notes …       | 2 []
// 13 Second line here.   | 2 []
function corpus(): Corpus {
  const d1 = withMeta(
    documentFromText(
      '# Manual\n\nWelcome here.\n\n## Installation\n\nRun setup now.\n\n### On Linux\n\nUse the package.\n\n## Troubleshooting\n\nRestart first.',
      'manual.md',
      'md',
      'en',
    ),
    { created: '2024-03-05T10:00:00.000Z', tags: ['guide', 'public'] },
  );
  const d2 = withMeta(documentFromText('# Handbuch\n\nWillkommen hier.\n\n## Installation\n\nSetup starten.', 'handbuch.md', 'md', 'de'), {
    modified: '2023-12-31T23:00:00.000Z',
    tags: ['guide'],
  });
  const d3 = documentFromText('Plain notes without headings. Second line here.', 'notes.txt', 'txt', 'en');
  return buildCorpus([d1, d2, d3], words);
}

const on = (mask: Uint8Array | null) => (mask ? [...mask.keys()].filter((i) => mask[i]) : null);

describe('sentenceMask', () => {
  const c = corpus();

  it('the fixture has the expected sentences', () => {
    expect(c.sentences).toHaveLength(14);
    expect(c.docStarts).toEqual([0, 8, 12, 14]);
  });

  it('returns null when no filter is set', () => {
    expect(sentenceMask(c, undefined)).toBeNull();
    expect(sentenceMask(c, {})).toBeNull();
    expect(sentenceMask(c, { docs: [], languages: [], tags: [], section: '   ' })).toBeNull();
    expect(isEmptyFilter(undefined)).toBe(true);
    expect(isEmptyFilter({ section: '  ' })).toBe(true);
    expect(isEmptyFilter({ dateTo: '2024' })).toBe(false);
  });

  it('filters by document id', () => {
    expect(on(sentenceMask(c, { docs: [c.docs[1]!.id] }))).toEqual([8, 9, 10, 11]);
    expect(on(sentenceMask(c, { docs: [c.docs[0]!.id, c.docs[2]!.id] }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 12, 13]);
    expect(on(sentenceMask(c, { docs: ['no-such-doc'] }))).toEqual([]);
  });

  it('filters by language', () => {
    expect(on(sentenceMask(c, { languages: ['de'] }))).toEqual([8, 9, 10, 11]);
    expect(on(sentenceMask(c, { languages: ['en'] }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 12, 13]);
    expect(on(sentenceMask(c, { languages: ['fr'] }))).toEqual([]);
  });

  it('filters by section: case-insensitive substring of any title on the path', () => {
    expect(on(sentenceMask(c, { section: 'install' }))).toEqual([2, 3, 4, 5, 10, 11]);
    expect(on(sentenceMask(c, { section: 'LINUX' }))).toEqual([4, 5]);
    expect(on(sentenceMask(c, { section: '  trouble ' }))).toEqual([6, 7]);
    expect(on(sentenceMask(c, { section: 'nothing like it' }))).toEqual([]);
  });

  it('a section filter on a top heading keeps everything under it', () => {
    expect(on(sentenceMask(c, { section: 'manual' }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('the document title (the root section) is on every path', () => {
    // notes.txt has no headings: its root section carries the title 'notes.txt'
    expect(on(sentenceMask(c, { section: 'notes' }))).toEqual([12, 13]);
  });

  it('combines section with the document filters (every field must match)', () => {
    expect(on(sentenceMask(c, { section: 'installation', languages: ['de'] }))).toEqual([10, 11]);
    expect(on(sentenceMask(c, { section: 'installation', docs: [c.docs[0]!.id] }))).toEqual([2, 3, 4, 5]);
  });

  it('filters by tags: the document must carry all of them', () => {
    expect(on(sentenceMask(c, { tags: ['guide'] }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(on(sentenceMask(c, { tags: ['guide', 'public'] }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(on(sentenceMask(c, { tags: ['secret'] }))).toEqual([]);
  });

  it('filters by date (created, else modified), inclusive; documents without a date fail a date filter', () => {
    // doc 0 created 2024-03-05, doc 1 modified 2023-12-31, doc 2 has no date
    expect(on(sentenceMask(c, { dateFrom: '2024-01-01' }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(on(sentenceMask(c, { dateTo: '2023-12-31' }))).toEqual([8, 9, 10, 11]);
    expect(on(sentenceMask(c, { dateFrom: '2024-03-05', dateTo: '2024-03-05' }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(on(sentenceMask(c, { dateFrom: '2024-03-06' }))).toEqual([]);
    expect(on(sentenceMask(c, { dateTo: '2023-12-30' }))).toEqual([]);
    expect(on(sentenceMask(c, { dateFrom: '2023-01-01', dateTo: '2024-12-31' }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // a coarser bound compares by its own precision
    expect(on(sentenceMask(c, { dateTo: '2023' }))).toEqual([8, 9, 10, 11]);
    expect(on(sentenceMask(c, { dateTo: '2024-03' }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('prefers created over modified', () => {
    const d = withMeta(documentFromText('One sentence here.', 'a.txt', 'txt', 'en'), {
      created: '2020-01-01T00:00:00.000Z',
      modified: '2025-01-01T00:00:00.000Z',
    });
    const cc = buildCorpus([d], words);
    expect(on(sentenceMask(cc, { dateFrom: '2024-01-01' }))).toEqual([]);
    expect(on(sentenceMask(cc, { dateTo: '2020-12-31' }))).toEqual([0]);
  });

  it('returns a mask over every sentence of the corpus', () => {
    const mask = sentenceMask(c, { languages: ['de'] })!;
    expect(mask).toBeInstanceOf(Uint8Array);
    expect(mask.length).toBe(c.sentences.length);
  });
});

describe('rangeMask', () => {
  it('passes a range when any of its sentences passes', () => {
    const mask = Uint8Array.from([0, 0, 1, 0, 0, 0, 1, 1]);
    const out = rangeMask(mask, [
      { start: 0, end: 2 },
      { start: 1, end: 3 },
      { start: 3, end: 6 },
      { start: 5, end: 8 },
      { start: 2, end: 2 },
    ]);
    expect([...out!]).toEqual([0, 1, 0, 1, 0]);
  });

  it('is null without a sentence mask', () => {
    expect(rangeMask(null, [{ start: 0, end: 1 }])).toBeNull();
  });

  it('works on a corpus mask with chunk-like ranges', () => {
    const c = corpus();
    const mask = sentenceMask(c, { section: 'linux' });
    expect([...rangeMask(mask, [{ start: 0, end: 4 }, { start: 3, end: 6 }, { start: 6, end: 14 }])!]).toEqual([0, 1, 0]);
  });
});
