import { describe, expect, it } from 'vitest';
import { DocumentBuilder } from '../documents/builder';
import { documentFromText } from '../documents/load';
import { ApproxTokenCounter, type TokenCounter } from '../segment/tokens';
import type { ChunkHierarchy, Document, Sentence } from '../types';
import {
  appendDocument,
  boundaryGroups,
  buildCorpus,
  commonSection,
  emptyCorpus,
  rangeTokens,
  sectionPath,
  splitLongSentence,
} from './corpus';
import { chunkHeader, DEFAULT_HEADERS, embeddedText, headerKey, type HeaderParams } from './headers';
import { buildHierarchy, corpusHierarchy, DEFAULT_CHUNK_LEVELS, leafOfSentence, packRange } from './hierarchy';
import { DEFAULT_NAIVE, naiveChunks } from './naive-chunks';

const words: TokenCounter = { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length };
const approx = new ApproxTokenCounter();

const MANUAL_MD = [
  '# Manual',
  'Welcome here.',
  '## Installation',
  'Run setup now. Then restart.',
  '### On Linux',
  'Use the package.',
  '## Troubleshooting',
  'Restart first.',
].join('\n\n');

const manual = () => documentFromText(MANUAL_MD, 'manual.md', 'md', 'en');
const notes = () => documentFromText('Second doc one. Second doc two.', 'notes.txt', 'txt', 'en');

/** Checks the structural invariants of a chunk tree over `n` atoms. */
function checkTree(tree: ChunkHierarchy, n: number, groups: ArrayLike<number>, tokens: ArrayLike<number>) {
  const sum = (s: number, e: number) => {
    let t = 0;
    for (let i = s; i < e; i++) t += tokens[i]!;
    return t;
  };
  // roots tile [0, n) in order
  const roots = tree.nodes.filter((x) => x.parent === null);
  expect(roots.every((r) => r.level === 0)).toBe(true);
  let at = 0;
  for (const r of roots) {
    expect(r.start).toBe(at);
    at = r.end;
  }
  expect(at).toBe(n);
  for (const node of tree.nodes) {
    expect(node.end).toBeGreaterThan(node.start);
    expect(node.tokens).toBe(sum(node.start, node.end));
    // never crosses a change of group
    for (let i = node.start + 1; i < node.end; i++) expect(groups[i]).toBe(groups[node.start]);
    if (node.children.length) {
      // children tile their parent exactly, one level down
      let pos = node.start;
      for (const id of node.children) {
        const child = tree.nodes[id]!;
        expect(child.parent).toBe(node.id);
        expect(child.level).toBe(node.level + 1);
        expect(child.start).toBe(pos);
        pos = child.end;
      }
      expect(pos).toBe(node.end);
    } else {
      expect(node.level).toBe(tree.levels.length - 1);
    }
  }
  // leaves: the smallest level, in document order, tiling every atom
  at = 0;
  for (const id of tree.leaves) {
    const leaf = tree.nodes[id]!;
    expect(leaf.level).toBe(tree.levels.length - 1);
    expect(leaf.start).toBe(at);
    at = leaf.end;
  }
  expect(at).toBe(n);
}

describe('packRange', () => {
  it('packs a token array greedily into ranges of at most `size` tokens', () => {
    expect(packRange([50, 50, 50, 200, 30], 0, 5, 128)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 3 },
      { start: 3, end: 4 },
      { start: 4, end: 5 },
    ]);
  });

  it('an atom larger than the size gets a range of its own; ranges fill up to exactly the size', () => {
    expect(packRange([300, 64, 64, 1], 0, 4, 128)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 3 },
      { start: 3, end: 4 },
    ]);
  });

  it('works on a sub-range and on an empty range', () => {
    expect(packRange([50, 50, 50, 200, 30], 1, 3, 128)).toEqual([{ start: 1, end: 3 }]);
    expect(packRange([50, 50, 50, 200, 30], 3, 3, 128)).toEqual([]);
    expect(packRange(Int32Array.from([5, 5, 5, 5]), 0, 4, 10)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 4 },
    ]);
  });
});

describe('buildHierarchy', () => {
  it('builds the levels top-down with exact ranges', () => {
    const tokens = [50, 50, 50, 200, 30, 10];
    const tree = buildHierarchy(tokens, [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [300, 128]);
    const view = tree.nodes.map((x) => [x.level, x.start, x.end, x.parent, x.tokens]);
    expect(view).toEqual([
      [0, 0, 3, null, 150],
      [0, 3, 6, null, 240],
      [1, 0, 2, 0, 100],
      [1, 2, 3, 0, 50],
      [1, 3, 4, 1, 200],
      [1, 4, 6, 1, 40],
    ]);
    expect(tree.leaves).toEqual([2, 3, 4, 5]);
    expect(tree.nodes[0]!.children).toEqual([2, 3]);
    expect(tree.nodes[1]!.children).toEqual([4, 5]);
    expect(tree.levels).toEqual([300, 128]);
  });

  it('respects group boundaries: no node crosses a change of group', () => {
    const tokens = [10, 10, 10, 10, 10, 10];
    const groups = [0, 0, 0, 1, 1, 2];
    const docs = [0, 0, 0, 0, 0, 1];
    const tree = buildHierarchy(tokens, groups, docs, [1000, 25]);
    const roots = tree.nodes.filter((x) => x.parent === null).map((x) => [x.start, x.end, x.doc]);
    expect(roots).toEqual([
      [0, 3, 0],
      [3, 5, 0],
      [5, 6, 1],
    ]);
    expect(tree.leaves.map((id) => [tree.nodes[id]!.start, tree.nodes[id]!.end])).toEqual([
      [0, 2],
      [2, 3],
      [3, 5],
      [5, 6],
    ]);
    checkTree(tree, 6, groups, tokens);
  });

  it('a group that returns later is a new run (groups are maximal runs)', () => {
    const tree = buildHierarchy([1, 1, 1, 1], [0, 1, 0, 0], [0, 0, 0, 0], [100]);
    expect(tree.nodes.map((x) => [x.start, x.end])).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
    ]);
  });

  it('keeps the invariants on a larger random input', () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const n = 400;
    const tokens = Array.from({ length: n }, () => 1 + Math.floor(rand() * 40));
    const groups: number[] = [];
    const docs: number[] = [];
    let g = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && rand() < 0.05) g++;
      groups.push(g);
      docs.push(Math.floor(g / 3));
    }
    const tree = buildHierarchy(tokens, groups, docs, [512, 128, 48]);
    checkTree(tree, n, groups, tokens);
    for (const node of tree.nodes) {
      // a node is within its level's size unless it is a single oversized atom
      if (node.end - node.start > 1) expect(node.tokens).toBeLessThanOrEqual(tree.levels[node.level]!);
      expect(node.doc).toBe(docs[node.start]);
    }
  });

  it('a single level makes the roots the leaves', () => {
    const tree = buildHierarchy([3, 3, 3], [0, 0, 0], [0, 0, 0], [6]);
    expect(tree.nodes.map((x) => [x.start, x.end])).toEqual([
      [0, 2],
      [2, 3],
    ]);
    expect(tree.leaves).toEqual([0, 1]);
  });

  it('levels must shrink', () => {
    expect(() => buildHierarchy([1], [0], [0], [])).toThrow();
    expect(() => buildHierarchy([1], [0], [0], [128, 128])).toThrow(/shrink/);
    expect(() => buildHierarchy([1], [0], [0], [128, 512])).toThrow(/shrink/);
    expect(() => buildHierarchy([1], [0], [0], [2048, 512, 1024])).toThrow(/shrink/);
  });

  it('an empty input gives an empty tree', () => {
    expect(buildHierarchy([], [], [], [10, 5])).toEqual({ levels: [10, 5], nodes: [], leaves: [] });
  });

  it('leafOfSentence maps every atom to the index of its leaf', () => {
    const tree = buildHierarchy([10, 10, 10, 10, 10, 10], [0, 0, 0, 1, 1, 2], [0, 0, 0, 0, 0, 1], [1000, 25]);
    expect([...leafOfSentence(tree, 6)]).toEqual([0, 0, 1, 2, 2, 3]);
  });

  it('defaults to LlamaIndex levels 2048/512/128', () => {
    expect(DEFAULT_CHUNK_LEVELS).toEqual([2048, 512, 128]);
  });
});

describe('buildCorpus', () => {
  it('splits documents into sentences, each with its deepest section and its section path', () => {
    const corpus = buildCorpus([manual()], words);
    const doc = corpus.docs[0]!;
    expect(corpus.tokenizer).toBe('words');
    expect(corpus.maxSentenceTokens).toBe(128);
    expect(corpus.sentences.map((s) => [s.text, doc.sections[s.section]!.title, sectionPath(doc, s.section), s.tokens])).toEqual([
      ['Manual', 'Manual', ['Manual'], 1],
      ['Welcome here.', 'Manual', ['Manual'], 2],
      ['Installation', 'Installation', ['Manual', 'Installation'], 1],
      ['Run setup now.', 'Installation', ['Manual', 'Installation'], 3],
      ['Then restart.', 'Installation', ['Manual', 'Installation'], 2],
      ['On Linux', 'On Linux', ['Manual', 'Installation', 'On Linux'], 2],
      ['Use the package.', 'On Linux', ['Manual', 'Installation', 'On Linux'], 3],
      ['Troubleshooting', 'Troubleshooting', ['Manual', 'Troubleshooting'], 1],
      ['Restart first.', 'Troubleshooting', ['Manual', 'Troubleshooting'], 2],
    ]);
    for (const s of corpus.sentences) {
      expect(doc.text.slice(s.start, s.end)).toBe(s.text);
      expect(s.part).toBeUndefined();
      expect(s.page).toBeUndefined();
    }
  });

  it('counts tokens with the given counter (ApproxTokenCounter)', () => {
    const corpus = buildCorpus([manual()], approx);
    expect(corpus.tokenizer).toBe('approx');
    // "Use the package." = Use, the, package (7 letters → 1), "." → 4
    const s = corpus.sentences.find((x) => x.text === 'Use the package.')!;
    expect(s.tokens).toBe(4);
    expect(corpus.sentences.every((x) => x.tokens === approx.count(x.text))).toBe(true);
  });

  it('a document without headings puts every sentence in the root section', () => {
    const corpus = buildCorpus([notes()], words);
    expect(corpus.sentences.map((s) => [s.text, s.section])).toEqual([
      ['Second doc one.', 0],
      ['Second doc two.', 0],
    ]);
    expect(sectionPath(corpus.docs[0]!, 0)).toEqual([]);
  });

  it('keeps documents apart: doc indices and docStarts', () => {
    const corpus = buildCorpus([manual(), notes()], words);
    expect(corpus.docStarts).toEqual([0, 9, 11]);
    expect(corpus.sentences.map((s) => s.doc)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
    expect(corpus.sentences[9]!.start).toBe(0);
  });

  it('appendDocument builds the same corpus incrementally', () => {
    const corpus = emptyCorpus(words);
    expect(corpus).toEqual({ docs: [], sentences: [], docStarts: [0], tokenizer: 'words', maxSentenceTokens: 128 });
    appendDocument(corpus, manual(), words);
    appendDocument(corpus, notes(), words);
    expect(corpus).toEqual(buildCorpus([manual(), notes()], words));
  });

  it('splits a sentence longer than maxSentenceTokens into parts that tile it; nothing is dropped', () => {
    // Parts are packed by word segments (Intl.Segmenter), each counted on its own: with
    // the whitespace counter a final "." is one more token ("nine ten eleven." = 4).
    // An unsplit sentence is counted whole ("Short one." = 2).
    const text = 'One two three four five six seven eight nine ten eleven. Short one.';
    const corpus = buildCorpus([documentFromText(text, 'long.txt', 'txt', 'en')], words, { maxSentenceTokens: 4 });
    expect(corpus.maxSentenceTokens).toBe(4);
    expect(corpus.sentences.map((s) => [s.text, s.tokens, s.part ?? null])).toEqual([
      ['One two three four', 4, { index: 0, of: 3 }],
      ['five six seven eight', 4, { index: 1, of: 3 }],
      ['nine ten eleven.', 4, { index: 2, of: 3 }],
      ['Short one.', 2, null],
    ]);
    const parts = corpus.sentences.slice(0, 3);
    expect(parts[0]!.start).toBe(0);
    expect(parts[2]!.end).toBe(text.indexOf('. Short') + 1);
    for (let i = 1; i < parts.length; i++) expect(text.slice(parts[i - 1]!.end, parts[i]!.start)).toBe(' ');
    expect(parts.map((p) => p.text).join(' ')).toBe(text.slice(0, text.indexOf(' Short')));
    for (const s of corpus.sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('splits a long sentence with the approximate counter, each part within the limit', () => {
    const sentence = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') + '.';
    const doc = documentFromText(sentence, 'long.txt', 'txt', 'en');
    const corpus = buildCorpus([doc], approx, { maxSentenceTokens: 10 });
    expect(corpus.sentences.length).toBeGreaterThan(1);
    expect(corpus.sentences.every((s) => s.tokens <= 10)).toBe(true);
    expect(corpus.sentences.map((s) => s.part!.index)).toEqual(corpus.sentences.map((_, i) => i));
    expect(corpus.sentences.every((s) => s.part!.of === corpus.sentences.length)).toBe(true);
    expect(corpus.sentences[0]!.start).toBe(0);
    expect(corpus.sentences.at(-1)!.end).toBe(sentence.length);
    // consecutive parts are separated only by whitespace (a final "." may be a part of its own)
    const rebuilt = corpus.sentences.map((s, i) => (i ? sentence.slice(corpus.sentences[i - 1]!.end, s.start) : '') + s.text).join('');
    expect(rebuilt).toBe(sentence);
    for (let i = 1; i < corpus.sentences.length; i++) {
      expect(sentence.slice(corpus.sentences[i - 1]!.end, corpus.sentences[i]!.start).trim()).toBe('');
    }
    // the parts' tokens add up to what the words count (punctuation included)
    expect(corpus.sentences.reduce((n, s) => n + s.tokens, 0)).toBe(61);
  });

  it('splitLongSentence cuts only between words', () => {
    const text = 'xx alpha beta gamma delta yy';
    const parts = splitLongSentence(text, 3, 25, 2, words, 'en');
    expect(parts).toEqual([
      { start: 3, end: 13, text: 'alpha beta', tokens: 2 },
      { start: 14, end: 25, text: 'gamma delta', tokens: 2 },
    ]);
  });

  it('splitLongSentence never leaves punctuation alone in a part: the last word moves over with it', () => {
    const text = 'one two three four.';
    const parts = splitLongSentence(text, 0, text.length, 4, words, 'en');
    // With words counted whole and "." counted alone, "one two three four" fills 4 tokens;
    // the "." would open a part of its own, so "four" carries over with it.
    expect(parts.map((p) => p.text)).toEqual(['one two three', 'four.']);
    expect(parts.map((p) => p.tokens)).toEqual([3, 2]);
  });

  it('splitLongSentence cuts a single over-long "word" into even slices within the limit', () => {
    const text = `see ${'x'.repeat(5000)} here`;
    const parts = splitLongSentence(text, 0, text.length, 128, approx, 'en');
    expect(parts.map((p) => p.text).join('')).toBe(`see${'x'.repeat(5000)}here`);
    expect(parts.every((p) => p.tokens <= 128)).toBe(true);
    expect(parts.length).toBeGreaterThanOrEqual(8);
    for (const p of parts) expect(text.slice(p.start, p.end)).toBe(p.text);
  });

  it('assigns pages from the document', () => {
    const b = new DocumentBuilder();
    b.beginPage();
    b.block('First page one. First page two.');
    b.endPage(1);
    b.beginPage();
    b.block('Second page.');
    b.endPage(2);
    const doc = b.build({ id: 'p', language: 'en', meta: { fileName: 'p.pdf', size: 1, format: 'pdf' } });
    const corpus = buildCorpus([doc], words);
    expect(corpus.sentences.map((s) => [s.text, s.page])).toEqual([
      ['First page one.', 1],
      ['First page two.', 1],
      ['Second page.', 2],
    ]);
  });

  it('commonSection and rangeTokens', () => {
    const corpus = buildCorpus([manual()], words);
    const doc = corpus.docs[0]!;
    const id = (title: string) => doc.sections.findIndex((s) => s.title === title && s.id > 0);
    expect(commonSection(doc, id('On Linux'), id('Installation'))).toBe(id('Installation'));
    expect(commonSection(doc, id('On Linux'), id('On Linux'))).toBe(id('On Linux'));
    expect(commonSection(doc, id('On Linux'), id('Troubleshooting'))).toBe(id('Manual'));
    expect(commonSection(doc, 0, id('On Linux'))).toBe(0);
    expect(rangeTokens(corpus, 0, 3)).toBe(1 + 2 + 1);
    expect(rangeTokens(corpus, 2, 2)).toBe(0);
  });
});

describe('boundaryGroups', () => {
  const corpus = buildCorpus([manual(), notes()], words);

  it('level 0 groups by document only', () => {
    expect([...boundaryGroups(corpus, 0)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
  });

  it('level 1 groups by top-level section (one h1 here)', () => {
    expect([...boundaryGroups(corpus, 1)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
  });

  it('level 2 separates the h2 sections, with their h3 inside them', () => {
    expect([...boundaryGroups(corpus, 2)]).toEqual([0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3]);
  });

  it('level 3 separates the h3 section too', () => {
    expect([...boundaryGroups(corpus, 3)]).toEqual([0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('group ids are unique across documents with the same section layout', () => {
    const c = buildCorpus([notes(), notes()], words);
    expect([...boundaryGroups(c, 3)]).toEqual([0, 0, 1, 1]);
  });

  it('corpusHierarchy never lets a chunk cross a group', () => {
    const groups = boundaryGroups(corpus, 2);
    const tree = corpusHierarchy(corpus, [8, 4, 2], 2);
    const tokens = corpus.sentences.map((s) => s.tokens);
    checkTree(tree, corpus.sentences.length, groups, tokens);
    for (const node of tree.nodes) expect(corpus.sentences[node.end - 1]!.doc).toBe(node.doc);
  });
});

describe('naiveChunks', () => {
  const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu. Next one here.';
  const corpus = () => buildCorpus([documentFromText(text, 'c.txt', 'txt', 'en')], words);

  it('defaults to 128 tokens without overlap', () => {
    expect(DEFAULT_NAIVE).toEqual({ size: 128, overlap: 0 });
  });

  it('cuts fixed-size chunks between words, blind to sentence boundaries', () => {
    // the word counter sees each word segment, and each punctuation mark, as one token
    const chunks = naiveChunks(corpus(), words, { size: 5, overlap: 0 });
    expect(chunks.map((c) => [c.text, c.tokens, c.sentences.start, c.sentences.end])).toEqual([
      ['alpha beta gamma delta epsilon', 5, 0, 1],
      ['zeta eta theta iota kappa', 5, 0, 1],
      ['lambda mu. Next one', 5, 0, 2],
      ['here.', 2, 1, 2],
    ]);
    expect(chunks.map((c) => c.id)).toEqual([0, 1, 2, 3]);
    for (const c of chunks) {
      expect(c.doc).toBe(0);
      expect(text.slice(c.start, c.end)).toBe(c.text);
    }
  });

  it('with overlap, repeats the last tokens of a chunk at the start of the next', () => {
    const chunks = naiveChunks(corpus(), words, { size: 5, overlap: 2 });
    expect(chunks.map((c) => [c.text, c.sentences.start, c.sentences.end])).toEqual([
      ['alpha beta gamma delta epsilon', 0, 1],
      ['delta epsilon zeta eta theta', 0, 1],
      ['eta theta iota kappa lambda', 0, 1],
      ['kappa lambda mu. Next', 0, 2],
      ['. Next one here.', 0, 2],
    ]);
  });

  it('without overlap the chunks tile the text; with overlap every word is still covered', () => {
    const plain = naiveChunks(corpus(), words, { size: 3, overlap: 0 });
    for (let i = 1; i < plain.length; i++) expect(text.slice(plain[i - 1]!.end, plain[i]!.start).trim()).toBe('');
    expect(plain[0]!.start).toBe(0);
    expect(plain.at(-1)!.end).toBe(text.length);
    const over = naiveChunks(corpus(), words, { size: 4, overlap: 3 });
    for (let i = 1; i < over.length; i++) {
      expect(over[i]!.start).toBeGreaterThan(over[i - 1]!.start); // always moves forward
      expect(over[i]!.start).toBeLessThanOrEqual(over[i - 1]!.end);
    }
    expect(over.at(-1)!.end).toBe(text.length);
    expect(over.every((c) => c.tokens <= 4)).toBe(true);
  });

  it('sentence ranges cover every sentence a chunk overlaps', () => {
    const c = corpus();
    for (const size of [1, 2, 3, 5, 8, 100]) {
      for (const chunk of naiveChunks(c, words, { size, overlap: 0 })) {
        const expected = c.sentences.map((s, i) => (s.start < chunk.end && chunk.start < s.end ? i : -1)).filter((i) => i >= 0);
        expect([chunk.sentences.start, chunk.sentences.end]).toEqual([expected[0], expected.at(-1)! + 1]);
      }
    }
  });

  it('never crosses documents; sentence ranges are corpus-wide', () => {
    const c = buildCorpus([documentFromText('One two three. Four five.', 'a.txt', 'txt', 'en'), notes()], words);
    const chunks = naiveChunks(c, words, { size: 100, overlap: 0 });
    expect(chunks.map((x) => [x.doc, x.text, x.sentences.start, x.sentences.end])).toEqual([
      [0, 'One two three. Four five.', 0, 2],
      [1, 'Second doc one. Second doc two.', 2, 4],
    ]);
  });

  it('a word larger than the size gets a chunk of its own', () => {
    const long: TokenCounter = { name: 'long', count: (t) => (t === 'huge' ? 10 : 1) };
    const c = buildCorpus([documentFromText('a huge b c', 'h.txt', 'txt', 'en')], long);
    expect(naiveChunks(c, long, { size: 2, overlap: 0 }).map((x) => [x.text, x.tokens])).toEqual([
      ['a', 1],
      ['huge', 10],
      ['b c', 2],
    ]);
  });

  it('rejects an invalid size or overlap', () => {
    const c = corpus();
    expect(() => naiveChunks(c, words, { size: 0, overlap: 0 })).toThrow();
    expect(() => naiveChunks(c, words, { size: 5, overlap: -1 })).toThrow();
    expect(() => naiveChunks(c, words, { size: 5, overlap: 5 })).toThrow();
    expect(() => naiveChunks(c, words, { size: 5, overlap: 6 })).toThrow();
  });
});

describe('chunk headers', () => {
  const base = manual();
  const doc: Document = {
    ...base,
    meta: { ...base.meta, created: '2024-03-05T10:00:00.000Z', author: 'Ann Lee' },
    tags: ['guide', 'public'],
  };
  const corpus = buildCorpus([doc], words);
  const sentence = (t: string) => corpus.sentences.find((s) => s.text === t)!;
  const on: HeaderParams = { enabled: true, title: true, section: true, fields: [] };

  it('is empty when disabled (the default)', () => {
    expect(DEFAULT_HEADERS.enabled).toBe(false);
    expect(chunkHeader(doc, sentence('Use the package.'), sentence('Use the package.'), DEFAULT_HEADERS)).toBe('');
    expect(chunkHeader(doc, sentence('Use the package.'), sentence('Use the package.'), { ...on, enabled: false })).toBe('');
  });

  it('uses dsRAG wording for the title and the section path (the title not repeated)', () => {
    const s = sentence('Use the package.');
    expect(chunkHeader(doc, s, s, on)).toBe(
      "Document context: the following excerpt is from a document titled 'Manual'.\n\n" +
        "Section context: this excerpt is from the section titled 'Installation > On Linux'.",
    );
  });

  it('takes the common section of the first and last sentences', () => {
    expect(chunkHeader(doc, sentence('Run setup now.'), sentence('Use the package.'), on)).toBe(
      "Document context: the following excerpt is from a document titled 'Manual'.\n\n" +
        "Section context: this excerpt is from the section titled 'Installation'.",
    );
    // across two h2 sections the common section is the h1, which is the title: no section line
    expect(chunkHeader(doc, sentence('Run setup now.'), sentence('Restart first.'), on)).toBe(
      "Document context: the following excerpt is from a document titled 'Manual'.",
    );
  });

  it('a title and summary from an LLM or the user replace the loader title (dsRAG get_chunk_header), and fall back to it', () => {
    const s = sentence('Use the package.');
    const withContext: Document = { ...doc, context: { title: 'Acme Installer Manual, 2024', summary: 'This document is about: installing Acme.', by: 'user' } };
    expect(chunkHeader(withContext, s, s, { ...on, section: false })).toBe(
      "Document context: the following excerpt is from a document titled 'Acme Installer Manual, 2024'. This document is about: installing Acme.",
    );
    // A summary alone keeps the loader's title; blank fields count as unset.
    const summaryOnly: Document = { ...doc, context: { title: '  ', summary: 'About Acme.', by: 'x' } };
    expect(chunkHeader(summaryOnly, s, s, { ...on, section: false })).toBe("Document context: the following excerpt is from a document titled 'Manual'. About Acme.");
    // With titles off, neither appears.
    expect(chunkHeader(withContext, s, s, { ...on, title: false })).toBe("Section context: this excerpt is from the section titled 'Installation > On Linux'.");
  });

  it('title and section can be turned off separately', () => {
    const s = sentence('Use the package.');
    expect(chunkHeader(doc, s, s, { ...on, title: false })).toBe(
      "Section context: this excerpt is from the section titled 'Installation > On Linux'.",
    );
    expect(chunkHeader(doc, s, s, { ...on, section: false })).toBe(
      "Document context: the following excerpt is from a document titled 'Manual'.",
    );
    expect(chunkHeader(doc, s, s, { ...on, title: false, section: false })).toBe('');
  });

  it('adds the chosen metadata fields in order', () => {
    const s = sentence('Use the package.');
    expect(chunkHeader(doc, s, s, { ...on, fields: ['fileName', 'date', 'author', 'language', 'tags'] })).toBe(
      "Document context: the following excerpt is from a document titled 'Manual'.\n\n" +
        "Section context: this excerpt is from the section titled 'Installation > On Linux'.\n\n" +
        'Metadata: file: manual.md; date: 2024-03-05; author: Ann Lee; language: en; tags: guide, public.',
    );
    expect(chunkHeader(doc, s, s, { enabled: true, title: false, section: false, fields: ['language'] })).toBe('Metadata: language: en.');
  });

  it('skips metadata the document does not have', () => {
    const bare = manual();
    const s = buildCorpus([bare], words).sentences[0]!;
    expect(chunkHeader(bare, s, s, { enabled: true, title: false, section: false, fields: ['date', 'author', 'tags', 'page'] })).toBe('');
  });

  it('says the page or the page range', () => {
    const s = sentence('Use the package.');
    const p3: Sentence = { ...s, page: 3 };
    const p4: Sentence = { ...s, page: 4 };
    const params: HeaderParams = { enabled: true, title: false, section: false, fields: ['page'] };
    expect(chunkHeader(doc, p3, p3, params)).toBe('Metadata: page 3.');
    expect(chunkHeader(doc, p3, p4, params)).toBe('Metadata: pages 3–4.');
  });

  it('embeddedText is header + blank line + text, or the text alone', () => {
    expect(embeddedText('Document context: x.', 'Chunk text.')).toBe('Document context: x.\n\nChunk text.');
    expect(embeddedText('', 'Chunk text.')).toBe('Chunk text.');
  });

  it('headerKey names what changes the embedded text', () => {
    expect(headerKey(DEFAULT_HEADERS)).toBe('none');
    expect(headerKey({ enabled: true, title: true, section: true, fields: [] })).toBe('h:ts:');
    expect(headerKey({ enabled: true, title: false, section: true, fields: ['tags', 'date'] })).toBe('h:s:date,tags');
    expect(headerKey({ enabled: true, title: true, section: false, fields: ['date', 'tags'] })).toBe(
      headerKey({ enabled: true, title: true, section: false, fields: ['tags', 'date'] }),
    );
  });
});

describe('buildHierarchy at bundle scale', () => {
  it('takes 400,000 sentences in one call (an imported bundle arrives whole): every sentence its own leaf, in order', () => {
    const n = 400_000;
    // Each sentence over a leaf's 128 tokens: one leaf per sentence, one group per 200 sentences.
    const tokens = new Int32Array(n).fill(300);
    const groups = Int32Array.from({ length: n }, (_, i) => Math.floor(i / 200));
    const h = buildHierarchy(tokens, groups, groups, [2048, 512, 128]);
    expect(h.leaves.length).toBe(n);
    expect(h.nodes[h.leaves[0]!]).toMatchObject({ start: 0, end: 1, level: 2 });
    expect(h.nodes[h.leaves[n - 1]!]).toMatchObject({ start: n - 1, end: n, level: 2 });
  });
});
