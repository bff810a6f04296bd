import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import { RetrievalEngine } from '../core/engine';
import type { LexicalParams } from '../core/index/lexical-index';
import { adoptStoredLexical, packLexical } from './saved-lexical';
import { addStoredDocuments, packSplits } from './saved-split';

const docs = () => [
  documentFromText('# Tea\n\nBlack tea is fully oxidised before drying. Green tea is steamed to stop oxidation. Oolong sits between the two teas.', 'tea.md', 'md'),
  documentFromText('The harbour opens at dawn. Fishing boats leave the harbour before the ferries. The lighthouse keeper logs every ship in the harbour.', 'harbour.txt'),
];
const QUERIES = ['harbour ships', 'green tea oxidation', 'boats at dawn'];

describe('BM25 indexes kept as postings across a reload', () => {
  for (const lexical of [
    { analyzer: 'stem+stop', bm25: 'lucene' },
    { analyzer: 'words', bm25: 'bm25plus' },
  ] as LexicalParams[]) {
    it(`rebuilt from their postings, they answer with the same units and scores (${lexical.bm25}, ${lexical.analyzer})`, () => {
      const original = new RetrievalEngine({ structure: { chunkLevels: [64, 16], lexical } });
      original.addDocuments(docs());
      const kinds = ['sentence', 'leaf', 'chunk'] as const;
      const saved = kinds.map((k) => packLexical(original, k)!);
      expect(saved.every((s) => s !== null)).toBe(true);

      const restored = new RetrievalEngine({ structure: { chunkLevels: [64, 16], lexical } });
      addStoredDocuments(restored, docs(), packSplits(original));
      expect(adoptStoredLexical(restored, saved)).toEqual([...kinds]);
      for (const k of kinds) {
        for (const q of QUERIES) expect(restored.lexicalIndex(k).search(q, 5)).toEqual(original.lexicalIndex(k).search(q, 5));
        expect(Array.from(restored.lexicalIndex(k).lengths())).toEqual(Array.from(original.lexicalIndex(k).lengths()));
      }
    });
  }

  it('are not taken by an engine whose units or analyzer differ', () => {
    const original = new RetrievalEngine();
    original.addDocuments(docs());
    const saved = [packLexical(original, 'sentence')!];
    const otherAnalyzer = new RetrievalEngine({ structure: { lexical: { analyzer: 'words', bm25: 'lucene' } } });
    otherAnalyzer.addDocuments(docs());
    expect(adoptStoredLexical(otherAnalyzer, saved)).toEqual([]);
    const fewerDocs = new RetrievalEngine();
    fewerDocs.addDocuments(docs().slice(0, 1));
    expect(adoptStoredLexical(fewerDocs, saved)).toEqual([]);
  });
});
