import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { bundleNeed, checkLoad, documentNeed, engineBytes, engineCounts, tabBudget, vectorBytes, type CorpusCounts } from './load-estimate';

const none: CorpusCounts = { sentences: 0, textChars: 0, vectors: {}, dims: 0 };

describe('vectorBytes', () => {
  it('float32 rows below 20,000 vectors, float16 rows with bit codes and a scale from there (auto)', () => {
    expect(vectorBytes(100, 384)).toBe(153_600);
    expect(vectorBytes(19_999, 384)).toBe(19_999 * 1_536);
    expect(vectorBytes(20_000, 384)).toBe(16_400_000); // 820 a vector: 768 + 48 code bytes + 4
    expect(vectorBytes(20_000, 128)).toBe(5_840_000); // 256 + 32 (2 bits a dimension below 256) + 4
    expect(vectorBytes(20_000, 384, 'flat')).toBe(30_720_000);
    expect(vectorBytes(100, 384, 'voy')).toBe(1_143_600);
    expect(vectorBytes(0, 384)).toBe(0);
    expect(vectorBytes(100, 0)).toBe(0);
  });
});

describe('engineBytes', () => {
  it("reproduces the bench's 100k row from its counts: 2,424 bytes a sentence measured, 2,427 estimated", () => {
    // node-bench --n 100000: 128,485 sentences, 312.1 bytes of UTF-16 text a sentence, vectors of the four bundle kinds.
    const e = engineBytes({ sentences: 128_485, textChars: 20_051_633, vectors: { sentence: 128_485, leaf: 42_057, chunk: 32_594, packed: 40_560 }, dims: 384 });
    expect(e.parts).toEqual({ corpus: 38_673_985, text: 40_103_266, vectors: 199_830_720, bm25: 31_221_855, search: 2_055_760 });
    expect(e.bytes).toBe(311_885_586);
    expect(e.bytes / (2_424 * 128_485)).toBeCloseTo(1, 2);
  });

  it('without vectors: corpus, text, BM25 and search only', () => {
    expect(engineBytes({ sentences: 10_000, textChars: 1_000_000, vectors: {}, dims: 0 }).bytes).toBe(3_010_000 + 2_000_000 + 2_430_000 + 160_000);
  });
});

describe('bundleNeed', () => {
  it("reads the manifest's counts; packed chunks take the vector rows the other kinds leave; only the tables an import reads are transient", () => {
    const need = bundleNeed({
      corpus: { sentences: 1_000_000, leaves: 328_000, chunks: 254_000 },
      embedding: { dims: 384 },
      vectors: { kinds: ['sentence', 'leaf', 'chunk', 'packed'] },
      tables: { vectors: { rows: 1_872_000 } },
      files: [
        { name: 'parquet/vectors.parquet', bytes: 2_900_000_000 },
        { name: 'parquet/documents.parquet', bytes: 100_000_000 },
        { name: 'jsonl/vectors.jsonl', bytes: 5_000_000_000 },
        { name: 'manifest.json', bytes: 9_000 },
      ],
    });
    expect(need).toEqual({ counts: { sentences: 1_000_000, textChars: 156_000_000, vectors: { sentence: 1_000_000, leaf: 328_000, chunk: 254_000, packed: 290_000 }, dims: 384 }, transientBytes: 3_000_000_000 });
  });

  it('a BM25-only bundle has no vectors; nonsense counts count as 0', () => {
    const need = bundleNeed({ corpus: { sentences: 'many' as never, leaves: -5, chunks: Number.NaN }, embedding: null, vectors: { kinds: [] }, tables: {}, files: [] });
    expect(need).toEqual({ counts: { sentences: 0, textChars: 0, vectors: {}, dims: 0 }, transientBytes: 0 });
  });
});

describe('documentNeed', () => {
  it('a PDF: 0.27 characters a byte, 100 characters a sentence, vectors of the four kinds the model embeds', () => {
    expect(documentNeed({ name: 'Report.PDF', size: 1_000_000 }, 384)).toEqual({
      counts: { sentences: 2_700, textChars: 270_000, vectors: { sentence: 2_700, leaf: 886, chunk: 686, packed: 783 }, dims: 384 },
      transientBytes: 1_000_000,
    });
  });

  it('text at a character a byte, HTML at half; no model, no vectors', () => {
    expect(documentNeed({ name: 'notes.md', size: 1_000_000 }, 0).counts).toEqual({ sentences: 10_000, textChars: 1_000_000, vectors: {}, dims: 0 });
    expect(documentNeed({ name: 'page.html', size: 1_000_000 }, 0).counts.textChars).toBe(500_000);
  });
});

describe('tabBudget', () => {
  it('3/4 of the device memory the browser reports; the heap cap kept apart; 4 GB when the browser says nothing', () => {
    expect(tabBudget({ deviceMemoryGiB: 8, jsHeapSizeLimit: 4_294_705_152 })).toEqual({ bytes: 6_442_450_944, heapBytes: 4_294_705_152, basis: 'device-memory', deviceMemoryGiB: 8 });
    expect(tabBudget({})).toEqual({ bytes: 4e9, heapBytes: null, basis: 'default' });
    expect(tabBudget({ jsHeapSizeLimit: 2e9 })).toEqual({ bytes: 4e9, heapBytes: 2e9, basis: 'default' });
    expect(tabBudget({ overrideBytes: 1e6, deviceMemoryGiB: 8 })).toEqual({ bytes: 1e6, heapBytes: null, basis: 'override' });
  });
});

describe('checkLoad', () => {
  const doc = documentNeed({ name: 'a.txt', size: 1_000_000 }, 0); // 7,600,000 once loaded + 1,000,000 of file bytes

  it('fits exactly at the budget, is refused a byte below it', () => {
    expect(checkLoad(none, doc, tabBudget({ overrideBytes: 8_600_000 }))).toMatchObject({ fits: true, needBytes: 8_600_000, loadedBytes: 7_600_000, heldBytes: 0 });
    expect(checkLoad(none, doc, tabBudget({ overrideBytes: 8_599_999 }))).toMatchObject({ fits: false, limit: 'budget', needBytes: 8_600_000 });
  });

  it('what the tab holds counts, twice when the load copies it (an import into an open corpus)', () => {
    const held = documentNeed({ name: 'b.txt', size: 1_000_000 }, 0).counts; // 7,600,000
    expect(checkLoad(held, doc, tabBudget({ overrideBytes: 16_200_000 }))).toMatchObject({ fits: true, heldBytes: 7_600_000, needBytes: 8_600_000 });
    const copied = checkLoad(held, doc, tabBudget({ overrideBytes: 16_200_000 }), { copiesHeld: true });
    expect(copied).toMatchObject({ fits: false, limit: 'budget', needBytes: 16_200_000 });
  });

  it("vectors crossing 20,000 in one index are priced as float16 for all of them", () => {
    const held: CorpusCounts = { sentences: 0, textChars: 0, vectors: { sentence: 19_000 }, dims: 384 };
    const more: CorpusCounts = { sentences: 0, textChars: 0, vectors: { sentence: 1_000 }, dims: 384 };
    const c = checkLoad(held, { counts: more, transientBytes: 0 }, tabBudget({ overrideBytes: 1e12 }));
    expect(c.heldBytes).toBe(19_000 * 1_536);
    expect(c.loadedBytes).toBe(0); // 20,000 × 820 = 16.4 MB < 19,000 × 1,536 = 29.2 MB: the switch frees memory
  });

  it("refused by the heap cap when text and sentence objects exceed it, though the budget holds", () => {
    const c = checkLoad(none, doc, { bytes: 1e12, heapBytes: 5_009_999, basis: 'device-memory', deviceMemoryGiB: 8 });
    expect(c).toMatchObject({ fits: false, limit: 'heap', heapNeedBytes: 5_010_000 });
  });
});

describe('engineCounts', () => {
  it('counts sentences, text and (without a model) no vectors', () => {
    const engine = new RetrievalEngine();
    engine.addDocuments([documentFromText('# T\n\nOne sentence here. Another one there.', 't.md', 'md')]);
    const c = engineCounts(engine);
    expect(c).toEqual({ sentences: engine.corpus.sentences.length, textChars: engine.corpus.docs[0]!.text.length, vectors: {}, dims: 0 });
    expect(c.sentences).toBeGreaterThan(1);
  });
});
