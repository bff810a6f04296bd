/** Random bundle mutations (fast-check) for the bundle property (properties.ts). */
import fc from 'fast-check';
import { MUTABLE_TABLES, type Mutation } from './properties';

const table = fc.constantFrom(...MUTABLE_TABLES);

/** A value a manifest field might be given by a hand edit or another tool. */
const manifestValue = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), fc.integer({ min: -5, max: 5000 }), fc.constantFrom(0, -1, 1.5, 2 ** 40, Number.NaN), fc.constantFrom('', 'bogus', 'words', 'stem+stop', 'lucene'), fc.constantFrom([], [128, 512], [512, 128], ['x'], ['sentence', 'bogus'], {}, { a: { b: 1 } }));

const manifestPath = fc.constantFrom(
  ['version'],
  ['format'],
  ['tokenizer'],
  ['embedding'],
  ['embedding', 'dims'],
  ['embedding', 'model'],
  ['structure'],
  ['structure', 'chunkLevels'],
  ['structure', 'sectionLevel'],
  ['structure', 'naive'],
  ['structure', 'naive', 'size'],
  ['structure', 'lexical', 'analyzer'],
  ['structure', 'lexical', 'bm25'],
  ['structure', 'headers', 'fields'],
  ['corpus', 'maxSentenceTokens'],
  ['corpus', 'sentences'],
  ['vectors', 'kinds'],
  ['tables'],
  ['tables', 'sentences'],
  ['files'],
  ['bm25'],
  ['params'],
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), file: fc.nat(40), at: fc.double({ min: 0, max: 1, noNaN: true }), bit: fc.nat(7), fixChecksum: fc.boolean() }),
  fc.record({ kind: fc.constant('truncate' as const), file: fc.nat(40), keep: fc.double({ min: 0, max: 0.999, noNaN: true }) }),
  fc.record({ kind: fc.constant('manifest' as const), path: manifestPath.map((p) => [...p]), value: manifestValue }),
  fc.record({ kind: fc.constant('reorder' as const), table, seed: fc.nat() }),
  fc.record({ kind: fc.constant('duplicateRow' as const), table, row: fc.nat(200) }),
  fc.record({ kind: fc.constant('key' as const), table, column: fc.constantFrom('doc', 'sentence', 'section', 'id', 'unit', 'sent_start', 'sent_end', 'char_start', 'char_end'), row: fc.nat(200), value: fc.constantFrom(-1, 0, 1, 3, 999, 2 ** 31 - 1) }),
  fc.record({ kind: fc.constant('vector' as const), row: fc.nat(200), index: fc.nat(15), value: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e30, 0) }),
);
