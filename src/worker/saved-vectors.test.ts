import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import type { Embedder } from '../core/embed/embedder';
import { RetrievalEngine } from '../core/engine';
import { structureParams, UNIT_KINDS } from '../core/retrieve/params';
import { documentRanges, modelOfKey, engineSemanticWrites, engineVectorWrites, joinDocVectors, joinSemantic, restoreDocVectors, storedKey, vectorWrites, type DocSemantic, type DocVectors } from './saved-vectors';

const KEY = 'sentence|none|m';
const rec = (doc: string, units: number, rows: number[][], tree = 't'): DocVectors => ({ doc, key: KEY, dim: 2, units, tree, data: Float32Array.from(rows.flat()) });
const byDoc = (records: DocVectors[]) => new Map(records.map((r) => [`${r.doc}\u0000${r.key}`, r]));

describe('the model of a set key', () => {
  it('is what follows the kind and the headers, without a variant\'s suffix', () => {
    expect(modelOfKey('sentence|none|Xenova/all-MiniLM-L6-v2')).toBe('Xenova/all-MiniLM-L6-v2');
    expect(modelOfKey('leaf|h:ts:author|org/m|ctx')).toBe('org/m');
    expect(modelOfKey('leaf|none|org/m|late')).toBe('org/m');
    expect(modelOfKey('leaf|none|org/m|ctx|late')).toBe('org/m');
    // A model name holding '|' keeps it.
    expect(modelOfKey('sentence|none|endpoint a|b')).toBe('endpoint a|b');
  });
});

describe('what is written per document', () => {
  it('ranges follow the documents\' unit counts in order', () => {
    expect(documentRanges([3, 0, 2])).toEqual([
      [0, 3],
      [3, 3],
      [3, 5],
    ]);
  });

  it('while embedding, only documents with all of their vectors and more than stored; at the end, a document cut short too', () => {
    const ids = ['a', 'b', 'c'];
    const ranges = documentRanges([3, 2, 4]);
    // 6 vectors: a (3) and b (2) are whole, c has 1 of 4.
    expect(vectorWrites(ids, ranges, KEY, 't', 6, new Map(), false)).toEqual([
      { doc: 'a', key: KEY, from: 0, to: 3, units: 3 },
      { doc: 'b', key: KEY, from: 3, to: 5, units: 2 },
    ]);
    // a is stored already: not written again.
    expect(vectorWrites(ids, ranges, KEY, 't', 6, new Map([[storedKey('a', KEY, 't'), 3]]), false).map((w) => w.doc)).toEqual(['b']);
    // Stored for other units (another chunk setting): written again.
    expect(vectorWrites(ids, ranges, KEY, 'u', 6, new Map([[storedKey('a', KEY, 't'), 3]]), false).map((w) => w.doc)).toEqual(['a', 'b']);
    expect(vectorWrites(ids, ranges, KEY, 't', 6, new Map([[storedKey('a', KEY, 't'), 3], [storedKey('b', KEY, 't'), 2]]), true)).toEqual([{ doc: 'c', key: KEY, from: 5, to: 6, units: 4 }]);
  });

  it('a document without units of a kind is written empty once, so the documents after it join', () => {
    expect(vectorWrites(['a', 'b'], documentRanges([0, 1]), KEY, 't', 1, new Map(), false)).toEqual([
      { doc: 'a', key: KEY, from: 0, to: 0, units: 0 },
      { doc: 'b', key: KEY, from: 0, to: 1, units: 1 },
    ]);
  });
});

describe('how stored records join into a set', () => {
  const ranges = documentRanges([2, 1, 2]);
  it('in corpus order, whatever order they were stored in', () => {
    const data = joinDocVectors(['a', 'b', 'c'], ranges, byDoc([rec('c', 2, [[5, 5], [6, 6]]), rec('a', 2, [[1, 1], [2, 2]]), rec('b', 1, [[3, 3]])]), KEY, 't', 2);
    expect(Array.from(data!)).toEqual([1, 1, 2, 2, 3, 3, 5, 5, 6, 6]);
  });

  it('a prefix: they stop at a missing document, after a document cut short, or at one made for other units', () => {
    expect(Array.from(joinDocVectors(['a', 'b', 'c'], ranges, byDoc([rec('a', 2, [[1, 1], [2, 2]]), rec('c', 2, [[5, 5], [6, 6]])]), KEY, 't', 2)!)).toEqual([1, 1, 2, 2]);
    expect(Array.from(joinDocVectors(['a', 'b', 'c'], ranges, byDoc([rec('a', 2, [[1, 1]]), rec('b', 1, [[3, 3]])]), KEY, 't', 2)!)).toEqual([1, 1]);
    // b was stored with 2 units; it has 1 now.
    expect(Array.from(joinDocVectors(['a', 'b', 'c'], ranges, byDoc([rec('a', 2, [[1, 1], [2, 2]]), rec('b', 2, [[3, 3], [4, 4]])]), KEY, 't', 2)!)).toEqual([1, 1, 2, 2]);
    expect(joinDocVectors(['a', 'b'], ranges, byDoc([rec('a', 2, [[1, 1], [2, 2]], 'other')]), KEY, 't', 2)).toBeNull();
  });

  it('semantic chunks: from the first document without any, while they were made the same way', () => {
    const s = (doc: string, runs: number[], tree = 't'): DocSemantic => ({ doc, tree, runs: Int32Array.from(runs) });
    const records = new Map([s('a', [0, 2]), s('b', [0, 1, 1, 3]), s('c', [0, 1], 'other')].map((r) => [r.doc, r]));
    expect(joinSemantic(['a', 'b', 'c'], records, 't', 1)).toEqual([
      [
        { start: 0, end: 1 },
        { start: 1, end: 3 },
      ],
    ]);
  });
});

/** A model stand-in: a sentence's vector is [its length, its number of words]; it counts what it embeds. */
function model() {
  const counter = { name: 'words', count: (t: string) => t.split(/\s+/).filter(Boolean).length };
  const stats = { embedded: 0 };
  const embedder: Embedder = {
    model: 'test/words',
    dim: 2,
    maxTokens: 512,
    isTestModel: true,
    counter,
    embed: async (texts) => {
      stats.embedded += texts.length;
      return { vectors: Float32Array.from(texts.flatMap((t) => [t.length, counter.count(t)])), truncated: [] };
    },
  };
  return { embedder, stats };
}

const docs = () => [
  documentFromText('# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation.', 'tea.md', 'md'),
  documentFromText('The harbour opens at dawn. Fishing boats leave before the ferries. The lighthouse keeper logs every ship.', 'harbour.txt'),
];

describe('a reload restores every vector made before it, per document', () => {
  it('the engine with a document more takes the stored vectors and chunks of the others, and embeds only the new one', async () => {
    const structure = structureParams();
    const m = model();
    const before = new RetrievalEngine({ embedder: m.embedder, structure });
    before.addDocuments([docs()[0]!]);
    for (const kind of UNIT_KINDS) await before.embedUnits(kind);
    const vectors = engineVectorWrites(before, new Map(), false);
    const semantic = engineSemanticWrites(before, new Set());
    expect(semantic.map((s) => s.doc)).toEqual([docs()[0]!.id]);

    // After the reload: both documents, the second never embedded.
    const again = model();
    const after = new RetrievalEngine({ embedder: again.embedder, structure });
    after.addDocuments(docs());
    const restored = await restoreDocVectors(after, vectors, semantic);
    const teaUnits = UNIT_KINDS.reduce((n, k) => n + before.vectorCoverage(k).done, 0);
    expect(restored).toBe(teaUnits);
    expect(after.semanticCoverage()).toEqual({ done: 1, total: 2 });
    for (const kind of UNIT_KINDS) await after.embedUnits(kind);
    const harbourUnits = UNIT_KINDS.reduce((n, k) => n + after.vectorCoverage(k).done, 0) - teaUnits;
    // Only the harbour's units, and the buffered sentences that cut its semantic chunks.
    const harbourSentences = after.corpus.sentences.length - before.corpus.sentences.length;
    expect(again.stats.embedded).toBe(harbourUnits + harbourSentences);
    // The restored vectors are the ones made before.
    expect(Array.from(after.vectors.snapshot([after.variantKey('sentence')])[0]!.data.slice(0, 4))).toEqual(Array.from(before.vectors.snapshot([before.variantKey('sentence')])[0]!.data.slice(0, 4)));
  });
});

describe('an import\'s records', () => {
  it('with views: the same records, their rows views into the index\'s array instead of copies', async () => {
    const m = model();
    const engine = new RetrievalEngine({ embedder: m.embedder, structure: structureParams() });
    engine.addDocuments(docs());
    for (const kind of UNIT_KINDS) await engine.embedUnits(kind);
    const copies = engineVectorWrites(engine, new Map(), true);
    const views = engineVectorWrites(engine, new Map(), true, true);
    const plain = (rs: DocVectors[]) => rs.map((r) => ({ ...r, data: Array.from(r.data) }));
    expect(plain(views)).toEqual(plain(copies));
    expect(views.length).toBe(UNIT_KINDS.length * 2);
    for (const r of views) {
      const rows = (engine.vectors.get(r.key) as unknown as { rows(): Float32Array }).rows();
      expect(r.data.buffer).toBe(rows.buffer);
    }
    for (const r of copies) expect(r.data.byteLength).toBe(r.data.buffer.byteLength);
  });
});
