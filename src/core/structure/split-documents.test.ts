import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../node/setup';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { readSquad } from '../eval/squad';
import { ApproxTokenCounter } from '../segment/tokens';
import type { Document } from '../types';
import type { SplitDocument } from './units';

const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8'));

/** A document as an engine split it: what an exported bundle carries. */
function splitOf(engine: RetrievalEngine, d: number): SplitDocument {
  const c = engine.corpus;
  const first = c.docStarts[d]!;
  return {
    doc: c.docs[d]!,
    sentences: c.sentences.slice(first, c.docStarts[d + 1]).map(({ doc: _doc, text: _text, ...s }) => s),
    chunks: engine.chunks.filter((ch) => ch.doc === d).map((ch) => ({ start: ch.start, end: ch.end, tokens: ch.tokens, sentences: { start: ch.sentences.start - first, end: ch.sentences.end - first } })),
  };
}

describe('documents added already split (an imported bundle)', () => {
  // A SQuAD slice plus a document with a sentence too long for a leaf (split into parts) and sections.
  const long = `# Title\n\n## Part one\n\n${'word '.repeat(400)}end.\n\n## Part two\n\nA short one. And another.`;
  const docs: Document[] = [...readSquad(squad, { limitDocs: 3 }).docs, documentFromText(long, 'long.md', 'md')];
  const structure = { chunkLevels: [1024, 256, 64], naive: { size: 96, overlap: 16 } };

  it('gives the very corpus, chunk tree and naive chunks that splitting gives', () => {
    const split = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
    split.addDocuments(docs);
    expect(split.corpus.sentences.some((s) => s.part)).toBe(true);
    const adopted = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
    const { added, duplicates } = adopted.addSplitDocuments(docs.map((_, d) => splitOf(split, d)));
    expect(added).toEqual(docs);
    expect(duplicates).toEqual([]);
    expect(adopted.corpus).toEqual(split.corpus);
    expect(adopted.hierarchy).toEqual(split.hierarchy);
    expect(adopted.chunks).toEqual(split.chunks);
    // An engine hands its own split documents over the same way (another vector index in the worker).
    expect(adopted.splitDocuments()).toEqual(docs.map((_, d) => splitOf(split, d)));
    // And retrieval over them is the same.
    const q = 'Which NFL team represented the AFC at Super Bowl 50?';
    return Promise.all([split.search(q, ['window', 'automerge', 'naive'], { retriever: 'bm25' }), adopted.search(q, ['window', 'automerge', 'naive'], { retriever: 'bm25' })]).then(([a, b]) => {
      expect(a[0]!.blocks.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
    });
  });

  it('appends after documents already there, skipping those it has', () => {
    const whole = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
    whole.addDocuments(docs);
    const engine = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
    engine.addDocuments(docs.slice(0, 2));
    const { added, duplicates } = engine.addSplitDocuments(docs.map((_, d) => splitOf(whole, d)).slice(1));
    expect(added.map((d) => d.id)).toEqual(docs.slice(2).map((d) => d.id));
    expect(duplicates.map((d) => d.id)).toEqual([docs[1]!.id]);
    expect(engine.corpus.sentences).toEqual(whole.corpus.sentences);
    expect(engine.chunks).toEqual(whole.chunks);
    expect(engine.hierarchy.leaves.map((id) => engine.hierarchy.nodes[id]!).map((n) => [n.start, n.end])).toEqual(whole.hierarchy.leaves.map((id) => whole.hierarchy.nodes[id]!).map((n) => [n.start, n.end]));
  });

  const faults: [string, (s: SplitDocument) => void, RegExp][] = [
    ['a span past the end of the text', (s) => (s.sentences[s.sentences.length - 1]!.end += 10_000), /sentence \d+ of document ".*" has the span \[\d+, \d+\), not after the one before it inside the text/],
    ['spans out of order', (s) => ([s.sentences[1], s.sentences[2]] = [s.sentences[2]!, s.sentences[1]!]), /sentence 2 of document/],
    ['a section the document lacks', (s) => (s.sentences[0]!.section = 99), /sentence 0 of document ".*" names section 99/],
    ['a naive chunk beyond the document', (s) => (s.chunks[0]!.sentences.end = 10_000), /naive chunk 0 of document ".*" has the span/],
  ];
  for (const [what, spoil, message] of faults) {
    it(`refuses ${what}, adding nothing`, () => {
      const split = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
      split.addDocuments(docs);
      const bad = docs.map((_, d) => structuredClone(splitOf(split, d)));
      spoil(bad[2]!);
      const engine = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
      expect(() => engine.addSplitDocuments(bad)).toThrow(message);
      expect(engine.corpus.docs).toEqual([]);
      expect(engine.corpus.sentences).toEqual([]);
      expect(engine.chunks).toEqual([]);
      expect(engine.hierarchy.nodes).toEqual([]);
    });
  }
});

describe('documents added one at a time (as the page adds dropped files)', () => {
  const long = `# Title\n\n## Part one\n\nFirst part opens here. ${'word '.repeat(300)}end.\n\n## Part two\n\nA short one about quolls. And another about quolls.`;
  const docs: Document[] = [...readSquad(squad, { limitDocs: 3 }).docs, documentFromText(long, 'long.md', 'md'), documentFromText('# Other\n\n## Quolls\n\nQuolls live in Australia. They hunt at night.', 'other.md', 'md')];
  const structure = { chunkLevels: [1024, 256, 64], naive: { size: 96, overlap: 16 } };

  it('give the very corpus, chunk tree, chunks, costs and section-bounded windows as all at once', async () => {
    const once = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
    once.addDocuments(docs);
    const inc = new RetrievalEngine({ counter: new ApproxTokenCounter(), structure });
    for (const d of docs) expect(inc.addDocuments([d]).added).toEqual([d]);
    expect(inc.addDocuments([docs[1]!]).duplicates).toEqual([docs[1]]);
    expect(inc.corpus).toEqual(once.corpus);
    // The same tree; node ids are numbered in build order (per addition), so compare by ranges.
    const shape = (e: RetrievalEngine) => {
      const { nodes, leaves } = e.hierarchy;
      const range = (id: number | null) => (id === null ? null : `${nodes[id]!.level}:${nodes[id]!.start}-${nodes[id]!.end}`);
      return {
        nodes: nodes.map((x) => `${range(x.id)} doc ${x.doc} tokens ${x.tokens} parent ${range(x.parent)} children ${x.children.map(range).join(',')}`).sort(),
        leaves: leaves.map(range),
      };
    };
    expect(shape(inc)).toEqual(shape(once));
    expect(inc.chunks).toEqual(once.chunks);
    expect(inc.unitCount('packed')).toBe(once.unitCount('packed'));
    const n = once.corpus.sentences.length;
    for (let i = 0; i < n; i++) expect(inc.blockCost(i, Math.min(n, i + 3)), `sentences ${i}…`).toBe(once.blockCost(i, Math.min(n, i + 3)));
    const p = { retriever: 'bm25' as const, topK: 20, window: { before: 6, after: 6, bySection: true } };
    const [a] = await inc.search('quolls live', ['window'], p);
    const [b] = await once.search('quolls live', ['window'], p);
    const ranges = (r: typeof a) => r!.blocks.map((x) => [x.doc, x.sentences.start, x.sentences.end]);
    expect(ranges(a).length).toBeGreaterThan(1);
    expect(ranges(a)).toEqual(ranges(b));
    // A window stays inside its section: "Part two"'s sentences only, not the long part before it.
    const partTwo = a!.blocks.find((x) => x.text.includes('A short one'))!;
    expect(partTwo.text).not.toContain('First part opens here');
  });
});
