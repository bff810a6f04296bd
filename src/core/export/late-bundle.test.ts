/**
 * A bundle of late-chunked vectors: its manifest's structure says `vectors: 'late'`, an import
 * into a fresh corpus takes them as late-chunked vectors, and an import into an open corpus of
 * plain vectors is refused rather than mixing the two.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { documentFromText } from '../documents/load';
import { TEST_EMBEDDER_ID } from '../embed/models';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { RetrievalEngine } from '../engine';
import { exportBundle, type ExportResult } from './bundle';
import { importBundle } from './import';
import { BUNDLE_KINDS } from './tables';

let embedder: TransformersEmbedder;
let engine: RetrievalEngine;
let bundle: ExportResult;

beforeAll(async () => {
  setupNode();
  embedder = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  engine = new RetrievalEngine({ embedder, structure: { vectors: 'late' } });
  engine.addDocuments([documentFromText('The keeper lit the lamp at dusk. Ships passed safely. Storms came in winter, and the light held.', 'lighthouse.txt', 'txt', 'en')]);
  for (const kind of BUNDLE_KINDS) await engine.embedUnits(kind);
  bundle = await exportBundle(engine, { strategy: 'window', params: { retriever: 'vector' }, questions: [], labVersion: 'test' });
});

describe('a bundle of late-chunked vectors', () => {
  it("says so in its manifest's structure, and a fresh import takes them as late-chunked vectors", async () => {
    const manifest = JSON.parse(new TextDecoder().decode(bundle.files.find((f) => f.name === 'manifest.json')!.bytes));
    expect(manifest.structure.vectors).toBe('late');
    const { engine: back } = await importBundle(bundle.files, { embedder });
    expect(back.structure.vectors).toBe('late');
    expect(back.variantKey('sentence')).toBe(`sentence|none|${TEST_EMBEDDER_ID}|late`);
    const theirs = engine.exportVectors();
    const ours = back.exportVectors();
    for (const kind of BUNDLE_KINDS) expect(Array.from(ours[kind]!)).toEqual(Array.from(theirs[kind]!));
  });

  it('is refused by an open corpus of plain vectors, which keeps what it had', async () => {
    const open = new RetrievalEngine({ embedder });
    open.addDocuments([documentFromText('Bees make honey from nectar. The hive keeps it for winter.', 'bees.txt', 'txt', 'en')]);
    for (const kind of BUNDLE_KINDS) await open.embedUnits(kind);
    await expect(importBundle(bundle.files, { embedder, into: open })).rejects.toThrow(/"vectors":"late".*differs from the open corpus's .*"vectors":"plain"/);
    expect(open.corpus.docs).toHaveLength(1);
  });
});
