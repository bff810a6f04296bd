/**
 * Leaves, packed and semantic chunks are runs of whole sentences: their BM25 postings are summed
 * from the sentence index's (lexical-indexes.ts) instead of analysing their text again. The
 * indexes must be exactly those analysing gives — the same postings, lengths and scores —
 * for every analyzer and variant, and where a join might break no word (an ellipsis with no
 * space after it, Chinese with none between sentences, a combining mark after a space) the unit
 * is analysed instead.
 */
import { describe, expect, it, vi } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { LexicalIndex } from '../index/lexical-index';
import { ANALYZERS, BM25_VARIANTS } from '../index/lexical-params';
import type { UnitKind } from '../retrieve/params';

const english = [
  '# Rivers of the plain',
  'The Loire is the longest river in France. It rises in the Massif Central and flows north, then west, to the Atlantic. Its valley holds castles of the Renaissance.',
  'Floods came in 1846, 1856 and 1866...After them the towns built levees. The levees were raised again in the twentieth century! Were they high enough? Engineers still ask.',
  "The river's delta isn't a delta: it is an estuary (near Saint-Nazaire). e.g. ships wait there; U.S. visitors come in summer.",
  'Bridges cross it at Orléans, Blois and Tours. Tours\u2019s bridge is the oldest. A café sells crêpes beside it.',
  // A word longer than an atom: cut into sentences with no space between them, the cuts are inside the word.
  `The gauge code is ${'gaugecodeword'.repeat(12)} in the register.`,
].join('\n\n');
const chinese = '长江是中国最长的河流。它发源于青藏高原，向东流入东海。三峡大坝建在长江上。\n\n黄河是中国第二长的河流。它的泥沙很多。黄河流域是中华文明的发源地。';
const german = 'Der Rhein fließt durch Basel. Dort überquert man ihn mit der Fähre. Die Fähren hängen an Seilen.\n\nIn Köln steht der Dom. Er ist aus Sandstein gebaut. Die Türme sind 157 Meter hoch.';
const turkish = "İstanbul'da Boğaz iki kıtayı ayırır. Köprüler Avrupa'yı Asya'ya bağlar. Vapurlar her saat kalkar.\n\nIĞDIR doğudadır. Ağrı Dağı oradan görünür.";
// A sentence that starts with a combining mark after the space joins that space in UAX #29 (WB4).
const marks = 'The first line ends here. \u0301Odd second line starts with a mark. A third follows it.';

function engineWith(analyzer: (typeof ANALYZERS)[number], bm25: (typeof BM25_VARIANTS)[number]): RetrievalEngine {
  // Small leaves and packed chunks, so each holds a few sentences; 12-token atoms cut long sentences, and the long word, in pieces.
  const engine = new RetrievalEngine({ maxSentenceTokens: 12, structure: { chunkLevels: [96, 48], packed: { size: 40, overlap: 10 } } });
  engine.setLexical({ ...engine.structure.lexical, analyzer, bm25 });
  engine.addDocuments([
    documentFromText(english, 'loire.md', 'md', 'en'),
    documentFromText(chinese, 'rivers.txt', 'txt', 'zh'),
    documentFromText(german, 'rhein.txt', 'txt', 'de'),
    documentFromText(turkish, 'istanbul.txt', 'txt', 'tr'),
    documentFromText(marks, 'marks.txt', 'txt', 'en'),
  ]);
  return engine;
}

/** The index add() makes from the units' texts: what summing must equal. */
function analysed(engine: RetrievalEngine, kind: UnitKind): LexicalIndex {
  const idx = new LexicalIndex(engine.structure.lexical);
  const ids = Array.from({ length: engine.unitCount(kind) }, (_, i) => i);
  idx.add(
    ids.map((id) => engine.unitText(kind, id)),
    ids.map((id) => engine.corpus.docs[engine.unitSpan(kind, id).doc]!.language),
  );
  return idx;
}

const queries: [string, string][] = [
  ['longest river France Atlantic', 'en'],
  ['levees after the floods', 'en'],
  ['长江 三峡', 'zh'],
  ['Fähre über den Rhein', 'de'],
  ['İstanbul köprü', 'tr'],
  ['second line mark', 'en'],
  ['gauge code register', 'en'],
];

describe('BM25 postings of sentence runs, summed from the sentences', () => {
  for (const analyzer of ANALYZERS)
    for (const bm25 of BM25_VARIANTS)
      it(`equal the analysed ones: ${analyzer}, ${bm25}`, () => {
        const engine = engineWith(analyzer, bm25);
        for (const kind of ['leaf', 'packed'] as const) {
          expect(engine.unitCount(kind)).toBeGreaterThan(4);
          const runs = vi.spyOn(LexicalIndex.prototype, 'addRuns');
          const summed = engine.lexicalIndex(kind);
          expect(runs).toHaveBeenCalledTimes(1);
          runs.mockRestore();
          const reference = analysed(engine, kind);
          expect([...summed.lengths()]).toEqual([...reference.lengths()]);
          expect(new Map([...summed.postings()].map(([t, p]) => [t, { ...p }]))).toEqual(new Map([...reference.postings()].map(([t, p]) => [t, { ...p }])));
          for (const [q, lang] of queries) expect(summed.search(q, 10, undefined, lang)).toEqual(reference.search(q, 10, undefined, lang));
        }
      });

  it('grow with the corpus: a document added later is summed into the same indexes', () => {
    const engine = engineWith('stem+stop', 'bm25plus');
    const before = engine.lexicalIndex('leaf');
    engine.addDocuments([documentFromText('The Seine flows through Paris. Its quays are lined with booksellers. Barges carry sand.', 'seine.txt', 'txt', 'en')]);
    const after = engine.lexicalIndex('leaf');
    expect(after).toBe(before);
    const reference = analysed(engine, 'leaf');
    expect([...after.lengths()]).toEqual([...reference.lengths()]);
    expect(after.search('booksellers on the quays', 5)).toEqual(reference.search('booksellers on the quays', 5));
    expect(after.search('booksellers on the quays', 5)[0]!.id).toBe(engine.unitCount('leaf') - 1);
  });
});
