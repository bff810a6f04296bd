import { beforeAll, describe, expect, it } from 'vitest';
import { setupNode } from '../../node/setup';
import { documentFromText } from '../documents/load';
import type { Embedder, LateChunkingSupport } from '../embed/embedder';
import { TEST_EMBEDDER_ID } from '../embed/models';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { RetrievalEngine } from '../engine';
import { structureParams, type StructureParams } from '../retrieve/params';
import type { HeaderParams } from '../structure/headers';
import { applyVariant, currentVariant, forEachVariant, variantLabel, variantsToCompare, type VariantEngine } from './variants';

/** An engine that only records what it is switched to. */
class FakeEngine implements VariantEngine {
  structure: Readonly<StructureParams> = structureParams({});
  calls: string[] = [];
  constructor(
    readonly embedder: Embedder | null,
    contextual = true,
  ) {
    if (!contextual) this.setContextual = undefined;
  }
  setHeaders(h: HeaderParams): void {
    this.calls.push(`headers ${h.enabled}`);
    this.structure = { ...this.structure, headers: h };
  }
  setVectorVariant(v: StructureParams['vectors']): void {
    this.calls.push(`vectors ${v}`);
    this.structure = { ...this.structure, vectors: v };
  }
  setContextual?: (c: boolean) => void = (c) => {
    this.calls.push(`contextual ${c}`);
    this.structure = { ...this.structure, contextual: c };
  };
}

function embedderWith(lateChunking?: LateChunkingSupport): Embedder {
  return { model: 'm', dim: 2, maxTokens: 512, isTestModel: true, counter: { name: 'x', count: () => 1 }, embed: async () => ({ vectors: new Float32Array(), truncated: [] }), ...(lateChunking ? { lateChunking } : {}) };
}
const lateOk = embedderWith({ available: true, spanTokens: 512, recommended: false });

describe('variantsToCompare', () => {
  it('the current variant alone when nothing is compared', () => {
    expect(variantsToCompare(new FakeEngine(lateOk), {})).toEqual([{ headers: false, late: false, contextual: false }]);
  });

  it('off then on per compared axis, headers changing slowest, the rest as the engine has them', () => {
    const e = new FakeEngine(lateOk);
    e.structure = { ...e.structure, contextual: true };
    expect(variantsToCompare(e, { headers: true, late: true })).toEqual([
      { headers: false, late: false, contextual: true },
      { headers: false, late: true, contextual: true },
      { headers: true, late: false, contextual: true },
      { headers: true, late: true, contextual: true },
    ]);
    expect(variantsToCompare(e, { late: true, contextual: true }).map((v) => [v.late, v.contextual])).toEqual([
      [false, false],
      [false, true],
      [true, false],
      [true, true],
    ]);
  });

  it("refuses late chunking the model cannot do, with the model's reason, before any work", () => {
    const reason = 'late chunking is not available for m: it is a static model';
    expect(() => variantsToCompare(new FakeEngine(embedderWith({ available: false, reason })), { late: true })).toThrow(reason);
    expect(() => variantsToCompare(new FakeEngine(embedderWith()), { late: true })).toThrow('late chunking is not available for m: it gives one vector per text and no token vectors');
    expect(() => variantsToCompare(new FakeEngine(null), { late: true })).toThrow('late chunking needs an embedding model: none is loaded');
    // An engine already in the late variant needs it too, compared or not.
    const e = new FakeEngine(embedderWith());
    e.structure = { ...e.structure, vectors: 'late' };
    expect(() => variantsToCompare(e, { headers: true })).toThrow('late chunking is not available for m');
    expect(variantsToCompare(new FakeEngine(embedderWith()), { headers: true })).toHaveLength(2);
  });

  it('refuses to compare contextual retrieval on an engine that cannot switch it', () => {
    expect(() => variantsToCompare(new FakeEngine(lateOk, false), { contextual: true })).toThrow('this engine cannot switch contextual retrieval');
  });
});

describe('applyVariant, variantLabel, forEachVariant', () => {
  it('switches only what differs', () => {
    const e = new FakeEngine(lateOk);
    applyVariant(e, { headers: false, late: true, contextual: false });
    applyVariant(e, { headers: true, late: true, contextual: true });
    expect(e.calls).toEqual(['vectors late', 'headers true', 'contextual true']);
    expect(currentVariant(e)).toEqual({ headers: true, late: true, contextual: true });
  });

  it('labels the compared axes only', () => {
    const v = { headers: true, late: false, contextual: true };
    expect(variantLabel(v, { headers: true, late: true })).toBe('headers on · late chunking off');
    expect(variantLabel(v, { contextual: true })).toBe('contextual retrieval on');
    expect(variantLabel(v, {})).toBe('');
  });

  it('runs once per variant in order and puts the engine back, also after a failure', async () => {
    const e = new FakeEngine(lateOk);
    const variants = variantsToCompare(e, { late: true });
    expect(await forEachVariant(e, variants, async (v) => `${v.late} ${e.structure.vectors}`)).toEqual(['false plain', 'true late']);
    expect(e.structure.vectors).toBe('plain');
    await expect(
      forEachVariant(e, variants, async (v) => {
        if (v.late) throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(currentVariant(e)).toEqual({ headers: false, late: false, contextual: false });
  });
});

describe('with a RetrievalEngine and the test model', () => {
  let embedder: TransformersEmbedder;
  beforeAll(async () => {
    setupNode();
    embedder = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  });

  it('late off and on: each variant embeds under its own key, the engine ends as it began', async () => {
    const engine = new RetrievalEngine({ embedder });
    engine.addDocuments([documentFromText('The keeper lit the lamp. Ships passed safely. Storms came in winter.', 'l.txt', 'txt', 'en')]);
    const seen = await forEachVariant(engine, variantsToCompare(engine, { late: true }), async () => {
      await engine.embedUnits('sentence');
      return [engine.variantKey('sentence'), engine.vectorCoverage('sentence').done];
    });
    expect(seen).toEqual([
      [`sentence|none|${TEST_EMBEDDER_ID}`, 3],
      [`sentence|none|${TEST_EMBEDDER_ID}|late`, 3],
    ]);
    expect(engine.structure.vectors).toBe('plain');
  });
});
