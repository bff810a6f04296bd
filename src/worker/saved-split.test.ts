import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { RetrievalEngine } from '../core/engine';
import type { TokenCounter } from '../core/segment/tokens';
import { addStoredDocuments, packSplit, packSplits, provisionalCounter, splitKey, storedSplitOrigin, unpackSplit } from './saved-split';

/** A tokenizer stand-in that counts words and how often it was asked. */
function wordCounter(name = 'words-tokenizer'): TokenCounter & { calls: number } {
  const c = {
    name,
    calls: 0,
    count(text: string) {
      c.calls++;
      return text.split(/\s+/).filter(Boolean).length;
    },
  };
  return c;
}

const TEA = '# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation.\n\n## Oolong\n\nOolong sits between the two.';
// Short sentences, then one of 120 words (cut into parts above the longest atom).
const LONG = `# Harbour\n\n${Array.from({ length: 30 }, (_, i) => `Boat ${i} leaves the harbour at dawn with ${i % 7} crates of fish aboard.`).join(' ')} ${Array.from({ length: 20 }, (_, i) => `then ferry ${i} follows`).join(', ')}.`;
const docs = () => [documentFromText(TEA, 'tea.md', 'md'), documentFromText(LONG, 'harbour.md', 'md')];

/** What a restore must reproduce: sentences, naive chunks and the chunk tree. */
const units = (e: RetrievalEngine) => ({ sentences: e.corpus.sentences, docStarts: e.corpus.docStarts, chunks: e.chunks, hierarchy: e.hierarchy, leaves: e.unitCount('leaf') });

describe('stored splits (a reload without splitting again)', () => {
  it('packs a document into two Int32Arrays: section, page, span, tokens, part per sentence; span, tokens, sentence range per chunk', () => {
    const e = new RetrievalEngine({ counter: wordCounter(), structure: { naive: { size: 8, overlap: 0 } } });
    e.addDocuments([documentFromText(TEA, 'tea.md', 'md')]);
    const s = packSplit(e, 0);
    // The text is "Tea\n\nBlack tea … drying. Green tea … oxidation.\n\nOolong\n\nOolong sits between the two.":
    // the heading and two sentences in section 1, a heading and a sentence in section 2; no pages, no parts.
    expect(Array.from(s.sentences)).toEqual([
      [1, -1, 0, 3, 1, -1, 0],
      [1, -1, 5, 47, 7, -1, 0],
      [1, -1, 48, 87, 7, -1, 0],
      [2, -1, 89, 95, 1, -1, 0],
      [2, -1, 97, 125, 5, -1, 0],
    ].flat());
    expect(e.chunks.map((c) => [c.start, c.end, c.tokens, c.sentences.start, c.sentences.end])).toEqual(
      Array.from({ length: s.chunks.length / 5 }, (_, i) => Array.from(s.chunks.subarray(i * 5, i * 5 + 5))),
    );
    expect(s.key).toBe(splitKey(e));
  });

  it('an engine restored from them has the same units as one that splits the documents, without asking the tokenizer', () => {
    const counter = wordCounter();
    const original = new RetrievalEngine({ counter, structure: { chunkLevels: [64, 16], naive: { size: 24, overlap: 4 } } });
    original.addDocuments(docs());
    const stored = packSplits(original);

    const again = wordCounter();
    const restored = new RetrievalEngine({ counter: again, structure: { chunkLevels: [64, 16], naive: { size: 24, overlap: 4 } } });
    expect(addStoredDocuments(restored, docs(), stored)).toBe(true);
    expect(again.calls).toBe(0);
    expect(units(restored)).toEqual(units(original));
    // Long sentences cut into parts come back as parts.
    expect(restored.corpus.sentences.filter((x) => x.part).length).toBeGreaterThan(1);
  });

  it('splits again when the splits were made another way (tokenizer, naive chunks) or no longer fit their document', () => {
    const original = new RetrievalEngine({ counter: wordCounter(), structure: { naive: { size: 24, overlap: 4 } } });
    original.addDocuments(docs());
    const stored = packSplits(original);
    const fresh = (counter: TokenCounter, size = 24) => {
      const e = new RetrievalEngine({ counter, structure: { naive: { size, overlap: 4 } } });
      return e;
    };
    for (const [why, engine] of [
      ['another tokenizer', fresh(wordCounter('other-tokenizer'))],
      ['other naive chunks', fresh(wordCounter(), 32)],
    ] as const) {
      const reference = fresh(engine.counter, engine.structure.naive.size);
      reference.addDocuments(docs());
      expect(addStoredDocuments(engine, docs(), stored), why).toBe(false);
      expect(units(engine), why).toEqual(units(reference));
    }
    // A damaged record (a span past the end of its text): split again, nothing half-added.
    const [tea, harbour] = docs();
    const broken = new Map(stored);
    const bad = { ...stored.get(tea!.id)!, sentences: stored.get(tea!.id)!.sentences.slice() };
    bad.sentences[3] = 10_000;
    broken.set(tea!.id, bad);
    const engine = fresh(wordCounter());
    expect(addStoredDocuments(engine, [tea!, harbour!], broken)).toBe(false);
    const reference = fresh(wordCounter());
    reference.addDocuments(docs());
    expect(units(engine)).toEqual(units(reference));
    expect(unpackSplit(tea!, { key: 'k', sentences: new Int32Array(6), chunks: new Int32Array(0) })).toBeNull();
  });

  it("before the model loads, a provisional counter bearing its tokenizer's name takes the splits it made", () => {
    const original = new RetrievalEngine({ counter: wordCounter('Xenova/all-MiniLM-L6-v2'), maxSentenceTokens: 40 });
    original.addDocuments(docs());
    const stored = packSplits(original);
    const origin = storedSplitOrigin(docs(), stored);
    expect(origin).toEqual({ counter: 'Xenova/all-MiniLM-L6-v2', maxSentenceTokens: 40 });
    const provisional = new RetrievalEngine({ counter: provisionalCounter(origin!.counter), maxSentenceTokens: origin!.maxSentenceTokens });
    expect(addStoredDocuments(provisional, docs(), stored)).toBe(true);
    expect(units(provisional)).toEqual(units(original));
    // Splits made with the approximate counter, or a document without a split: no origin.
    const approx = new RetrievalEngine();
    approx.addDocuments(docs());
    expect(storedSplitOrigin(docs(), packSplits(approx))).toBeNull();
    expect(storedSplitOrigin(docs(), new Map([...stored].slice(0, 1)))).toBeNull();
  });
});
