/**
 * The engine's late-chunked vector variant (vector-variants.ts): whole documents through the
 * embedder's lateEmbed, appended in unit order, kept per variant beside the plain vectors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_TEST_MODEL_ID, ensureContextTestModel } from '../../../scripts/make-context-test-model';
import { setupNode } from '../../node/setup';
import { documentFromText } from '../documents/load';
import type { Embedder, LateDocument } from '../embed/embedder';
import { TEST_EMBEDDER_ID, TEST_STATIC_EMBEDDER_ID } from '../embed/models';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { RetrievalEngine, type EmbedProgress } from '../engine';
import { retrievalParams, UNIT_KINDS, type UnitKind } from '../retrieve/params';

let context: TransformersEmbedder;

const SENTENCES = [
  'The lighthouse keeper lived alone on the island.',
  'He lit the lamp every evening at dusk.',
  'Ships passed safely because of his work.',
  'In winter the storms were fierce.',
  'Still, the light never failed.',
];
const docs = [
  documentFromText(SENTENCES.join(' '), 'lighthouse.txt', 'txt', 'en'),
  documentFromText('Bees visit flowers to gather nectar. They turn it into honey. The hive stores it for winter.', 'bees.txt', 'txt', 'en'),
];

/** Counts what reaches the model, so "switching back costs nothing" is checked, not assumed. */
function counting(e: TransformersEmbedder): { embedder: Embedder; calls: { embed: number; late: number } } {
  const calls = { embed: 0, late: 0 };
  const embedder: Embedder = {
    model: e.model,
    dim: e.dim,
    maxTokens: e.maxTokens,
    isTestModel: true,
    counter: e.counter,
    lateChunking: e.lateChunking,
    embed: (texts, o) => ((calls.embed += texts.length), e.embed(texts, o)),
    lateEmbed: (d: LateDocument[], o) => ((calls.late += d.length), e.lateEmbed(d, o)),
  };
  return { embedder, calls };
}

function engineWith(embedder: Embedder, structure: ConstructorParameters<typeof RetrievalEngine>[0] = {}): RetrievalEngine {
  const engine = new RetrievalEngine({ embedder, ...structure });
  engine.addDocuments(docs);
  return engine;
}

/** The late vectors a document's units get from the embedder directly. */
async function direct(engine: RetrievalEngine, kind: UnitKind): Promise<Float32Array> {
  const byDoc = new Map<number, { start: number; end: number }[]>();
  for (let id = 0; id < engine.unitCount(kind); id++) {
    const u = engine.unitSpan(kind, id);
    byDoc.set(u.doc, [...(byDoc.get(u.doc) ?? []), { start: u.charStart, end: u.charEnd }]);
  }
  return (await context.lateEmbed([...byDoc].map(([d, units]) => ({ text: engine.corpus.docs[d]!.text, units })))).vectors;
}

beforeAll(async () => {
  setupNode();
  ensureContextTestModel();
  context = await TransformersEmbedder.load({ model: CONTEXT_TEST_MODEL_ID, dtype: 'fp32' });
});

describe("the engine's late-chunked vectors", () => {
  it('every kind embeds through lateEmbed under a "|late" key; plain vectors stay, and switching back costs nothing', async () => {
    const { embedder, calls } = counting(context);
    const engine = engineWith(embedder);
    for (const kind of UNIT_KINDS) await engine.embedUnits(kind);
    const plainEmbedded = calls.embed;
    engine.setVectorVariant('late');
    expect(engine.structure.vectors).toBe('late');
    expect(engine.variantKey('sentence')).toBe(`sentence|none|${context.model}|late`);
    expect(engine.vectorCoverage('sentence')).toEqual({ done: 0, total: 8 });
    for (const kind of UNIT_KINDS) {
      const r = await engine.embedUnits(kind);
      expect(r.truncated).toEqual([]);
      expect(engine.vectorCoverage(kind)).toEqual({ done: engine.unitCount(kind), total: engine.unitCount(kind) });
    }
    // Semantic chunks were already found from plain sentence vectors: late chunking embedded nothing plainly.
    expect(calls.embed).toBe(plainEmbedded);
    expect(calls.late).toBe(UNIT_KINDS.length * docs.length);
    const late = engine.exportVectors();
    expect(Array.from(late.sentence!)).toEqual(Array.from(await direct(engine, 'sentence')));
    expect(Array.from(late.leaf!)).toEqual(Array.from(await direct(engine, 'leaf')));
    engine.setVectorVariant('plain');
    const plain = engine.exportVectors();
    expect(plain.sentence!.length).toBe(late.sentence!.length);
    expect(Array.from(plain.sentence!)).not.toEqual(Array.from(late.sentence!));
    for (const kind of UNIT_KINDS) await engine.embedUnits(kind);
    engine.setVectorVariant('late');
    for (const kind of UNIT_KINDS) await engine.embedUnits(kind);
    expect([calls.embed, calls.late]).toEqual([plainEmbedded, UNIT_KINDS.length * docs.length]);
  });

  it('headers are not put before late-chunked units: headers on and off give the same vectors', async () => {
    const engine = engineWith(context, { structure: { vectors: 'late' } });
    await engine.embedUnits('leaf');
    const off = engine.exportVectors().leaf!;
    engine.setHeaders({ ...engine.structure.headers, enabled: true });
    expect(engine.variantKey('leaf')).toBe(`leaf|h:ts:|${context.model}|late`);
    await engine.embedUnits('leaf');
    expect(Array.from(engine.exportVectors().leaf!)).toEqual(Array.from(off));
  });

  it("a vector or hybrid column's notes say its vectors are late-chunked; BM25 alone and plain vectors say nothing of it", async () => {
    const engine = engineWith(context, { structure: { vectors: 'late' } });
    await engine.embedUnits('sentence');
    const note = "late-chunked vectors: each unit's vector pools its own tokens, read with the rest of its document";
    const notes = async (retriever: 'bm25' | 'vector' | 'hybrid') => (await engine.fusedCandidates(['when is the lamp lit'], 'sentence', retrievalParams({ retriever }))).notes;
    expect(await notes('vector')).toEqual([note]);
    expect(await notes('hybrid')).toEqual([note]);
    expect(await notes('bm25')).toEqual([]);
    engine.setVectorVariant('plain');
    await engine.embedUnits('sentence');
    expect(await notes('vector')).toEqual([]);
  });

  it('reports progress up to the total and keeps the documents done when cancelled', async () => {
    // Three documents of 150 sentences: each batch holds one (two would pass 256 units).
    const long = ['alpha', 'beta', 'gamma'].map((w) => documentFromText(Array.from({ length: 150 }, (_, i) => `The ${w} line number ${i} ends here.`).join(' '), `${w}.txt`, 'txt', 'en'));
    const engine = new RetrievalEngine({ embedder: context, structure: { vectors: 'late' } });
    engine.addDocuments(long);
    const total = engine.unitCount('sentence');
    expect(total).toBe(450);
    const stop = new AbortController();
    const seen: EmbedProgress[] = [];
    const run = engine.embedUnits('sentence', {
      signal: stop.signal,
      onEmbedProgress: (p) => {
        seen.push(p);
        if (p.done >= 150) stop.abort();
      },
    });
    await expect(run).rejects.toThrow('embedding was cancelled');
    expect(engine.vectorCoverage('sentence')).toEqual({ done: 150, total });
    expect(engine.documentCoverage(['sentence']).map((c) => c.done)).toEqual([150, 0, 0]);
    const rest: EmbedProgress[] = [];
    await engine.embedUnits('sentence', { onEmbedProgress: (p) => rest.push(p) });
    expect(engine.vectorCoverage('sentence')).toEqual({ done: total, total });
    expect(rest.at(-1)).toEqual({ kind: 'sentence', done: 300, total: 300 });
    const dones = rest.map((p) => p.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
  });

  it('snapshots keep the "|late" key; a restored prefix that ends inside a document is completed exactly', async () => {
    const engine = engineWith(context, { structure: { vectors: 'late' } });
    await engine.embedUnits('sentence');
    const [set] = engine.snapshotVectors('current');
    expect(set!.key).toBe(`sentence|none|${context.model}|late`);
    const next = engineWith(context);
    expect(await next.restoreVectorSets([set!])).toBe(1);
    expect(next.vectorCoverage('sentence').done).toBe(0);
    next.setVectorVariant('late');
    expect(next.vectorCoverage('sentence').done).toBe(8);
    // Three of the first document's five sentences: the rest of it is pooled with the whole document again.
    const partial = engineWith(context, { structure: { vectors: 'late' } });
    await partial.restoreVectorSets([{ ...set!, data: set!.data.slice(0, 3 * context.dim) }]);
    await partial.embedUnits('sentence');
    expect(Array.from(partial.exportVectors().sentence!)).toEqual(Array.from(set!.data));
  });

  it('an embedder without late chunking is refused with its reason, naming the model', async () => {
    const staticModel = await TransformersEmbedder.load({ model: TEST_STATIC_EMBEDDER_ID });
    const engine = engineWith(staticModel, { structure: { vectors: 'late' } });
    await expect(engine.embedUnits('sentence')).rejects.toThrow(`late chunking is not available for ${TEST_STATIC_EMBEDDER_ID}: it is a static model`);
    expect(engine.vectorCoverage('sentence').done).toBe(0);
    const plain = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
    const endpointLike: Embedder = { model: 'endpoint:localhost:8080/e5@128', dim: 128, maxTokens: 8192, isTestModel: false, counter: plain.counter, embed: (t, o) => plain.embed(t, o) };
    const other = engineWith(endpointLike, { structure: { vectors: 'late' } });
    await expect(other.embedUnits('leaf')).rejects.toThrow('late chunking is not available for endpoint:localhost:8080/e5@128: it gives one vector per text and no token vectors');
  });
});
