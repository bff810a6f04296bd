/**
 * Late-chunked vectors kept per document (saved-vectors.ts): their records carry the "|late"
 * key, and a reload puts them back beside the plain ones, so nothing is embedded again.
 */
import { describe, expect, it } from 'vitest';
import { documentFromText } from '../core/documents/load';
import type { Embedder } from '../core/embed/embedder';
import { RetrievalEngine } from '../core/engine';
import { structureParams } from '../core/retrieve/params';
import { engineVectorWrites, restoreDocVectors } from './saved-vectors';

/** A stand-in: a plain vector is [length, 1], a late one [unit length, 2]; it counts what reaches it. */
function model() {
  const calls = { embed: 0, late: 0 };
  const embedder: Embedder = {
    model: 'test/late',
    dim: 2,
    maxTokens: 512,
    isTestModel: true,
    counter: { name: 'words', count: (t: string) => t.split(/\s+/).filter(Boolean).length },
    lateChunking: { available: true, spanTokens: 512, recommended: false },
    embed: async (texts) => ((calls.embed += texts.length), { vectors: Float32Array.from(texts.flatMap((t) => [t.length, 1])), truncated: [] }),
    lateEmbed: async (documents) => {
      calls.late += documents.length;
      return { vectors: Float32Array.from(documents.flatMap((d) => d.units.flatMap((u) => [u.end - u.start, 2]))), spans: documents.length, acrossSpans: [] };
    },
  };
  return { embedder, calls };
}

const docs = () => [
  documentFromText('Black tea is fully oxidised before drying. Green tea is steamed to stop oxidation.', 'tea.txt'),
  documentFromText('The harbour opens at dawn. Fishing boats leave before the ferries.', 'harbour.txt'),
];

describe('late-chunked vectors across a reload', () => {
  it('are written under the "|late" key and restored beside the plain ones; nothing is embedded again', async () => {
    const m = model();
    const before = new RetrievalEngine({ embedder: m.embedder, structure: structureParams() });
    before.addDocuments(docs());
    await before.embedUnits('sentence');
    before.setVectorVariant('late');
    await before.embedUnits('sentence');
    const records = engineVectorWrites(before, new Map(), false);
    expect(records.map((r) => [r.doc, r.key])).toEqual([
      [docs()[0]!.id, 'sentence|none|test/late'],
      [docs()[1]!.id, 'sentence|none|test/late'],
      [docs()[0]!.id, 'sentence|none|test/late|late'],
      [docs()[1]!.id, 'sentence|none|test/late|late'],
    ]);

    const again = model();
    const after = new RetrievalEngine({ embedder: again.embedder, structure: structureParams({ vectors: 'late' }) });
    after.addDocuments(docs());
    expect(await restoreDocVectors(after, records, [])).toBe(8);
    expect(after.vectorCoverage('sentence')).toEqual({ done: 4, total: 4 });
    const late = (e: RetrievalEngine) => Array.from(e.vectors.snapshot([e.variantKey('sentence')])[0]!.data);
    expect(late(after)).toEqual(late(before));
    after.setVectorVariant('plain');
    expect(after.vectorCoverage('sentence')).toEqual({ done: 4, total: 4 });
    await after.embedUnits('sentence');
    expect(again.calls).toEqual({ embed: 0, late: 0 });
  });
});
