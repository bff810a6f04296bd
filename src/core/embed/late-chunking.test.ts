import { describe, expect, it } from 'vitest';
import type { Embedder } from './embedder';
import { DEFAULT_LATE_SPAN_TOKENS, defaultOverlap, lateChunkingOf, pieceCuts, planLateChunks, planSpans, poolRange, transformerLateSupport, unitPieces, unitTokenRanges } from './late-chunking';
import { findPreset, resolveEmbeddingModel } from './presets';

const r = (start: number, end: number) => ({ start, end });

describe('planSpans', () => {
  it('an empty document has no span; one shorter than a span, or exactly one long, has one', () => {
    expect(planSpans(0, 10, 2)).toEqual([]);
    expect(planSpans(7, 10, 2)).toEqual([r(0, 7)]);
    expect(planSpans(10, 10, 2)).toEqual([r(0, 10)]);
  });

  it('consecutive spans share the overlap; the last ends at the document end and may be shorter', () => {
    expect(planSpans(11, 10, 2)).toEqual([r(0, 10), r(8, 11)]);
    expect(planSpans(26, 10, 2)).toEqual([r(0, 10), r(8, 18), r(16, 26)]);
    expect(planSpans(27, 10, 2)).toEqual([r(0, 10), r(8, 18), r(16, 26), r(24, 27)]);
  });

  it('overlap 0 tiles the document', () => {
    expect(planSpans(25, 10, 0)).toEqual([r(0, 10), r(10, 20), r(20, 25)]);
    expect(planSpans(3, 1, 0)).toEqual([r(0, 1), r(1, 2), r(2, 3)]);
  });

  it('refuses an overlap as long as a span, an empty span, fractions', () => {
    expect(() => planSpans(20, 10, 10)).toThrow('the overlap (10 tokens) must be shorter than a span (10 tokens)');
    expect(() => planSpans(20, 0, 0)).toThrow('the span length in tokens must be a whole number ≥ 1, got 0');
    expect(() => planSpans(20, 10, 1.5)).toThrow('the overlap in tokens must be a whole number ≥ 0, got 1.5');
    expect(() => planSpans(-1, 10, 2)).toThrow('the document length in tokens must be a whole number ≥ 0, got -1');
  });

  it('the default overlap is an eighth of the span, floored', () => {
    expect([defaultOverlap(510), defaultOverlap(2046), defaultOverlap(8190), defaultOverlap(7), defaultOverlap(1)]).toEqual([63, 255, 1023, 0, 0]);
  });
});

describe('unitPieces', () => {
  // 26 tokens, spans of 10 sharing 2: [0,10) [8,18) [16,26); span 1 owns [9,17), span 2 [17,26).
  const spans = planSpans(26, 10, 2);

  it('a unit inside one span is read whole from it', () => {
    expect(unitPieces(spans, r(2, 5))).toEqual([{ span: 0, start: 2, end: 5 }]);
    expect(unitPieces(spans, r(19, 26))).toEqual([{ span: 2, start: 19, end: 26 }]);
  });

  it('inside two spans: from the one where it sits most centrally, ties to the earlier', () => {
    // [9,12): only span 1 holds it whole. [8,10): margins 0 in both spans, so span 0.
    expect(unitPieces(spans, r(9, 12))).toEqual([{ span: 1, start: 9, end: 12 }]);
    expect(unitPieces(spans, r(8, 10))).toEqual([{ span: 0, start: 8, end: 10 }]);
    expect(unitPieces(spans, r(16, 18))).toEqual([{ span: 1, start: 16, end: 18 }]);
  });

  it('a unit starting exactly where a span ends is read from the next', () => {
    expect(unitPieces(spans, r(10, 14))).toEqual([{ span: 1, start: 10, end: 14 }]);
  });

  it('the first and last tokens of the document', () => {
    expect(unitPieces(spans, r(0, 1))).toEqual([{ span: 0, start: 0, end: 1 }]);
    expect(unitPieces(spans, r(25, 26))).toEqual([{ span: 2, start: 25, end: 26 }]);
    // A short last span: [24,27) holds [25,27) alone; [24,26) ties between spans 2 and 3 (margin 0).
    const longer = planSpans(27, 10, 2);
    expect(unitPieces(longer, r(25, 27))).toEqual([{ span: 3, start: 25, end: 27 }]);
    expect(unitPieces(longer, r(24, 26))).toEqual([{ span: 2, start: 24, end: 26 }]);
  });

  it('a unit across a span edge and longer than the overlap is read in pieces, each token from the span owning it', () => {
    expect(unitPieces(spans, r(5, 15))).toEqual([
      { span: 0, start: 5, end: 9 },
      { span: 1, start: 9, end: 15 },
    ]);
  });

  it('a unit longer than a span is read from every span it crosses, nothing cut', () => {
    expect(unitPieces(spans, r(3, 24))).toEqual([
      { span: 0, start: 3, end: 9 },
      { span: 1, start: 9, end: 17 },
      { span: 2, start: 17, end: 24 },
    ]);
    expect(unitPieces(spans, r(0, 26)).reduce((n, p) => n + p.end - p.start, 0)).toBe(26);
  });

  it('overlap 0: a unit across the edge splits exactly there', () => {
    expect(unitPieces(planSpans(25, 10, 0), r(8, 12))).toEqual([
      { span: 0, start: 8, end: 10 },
      { span: 1, start: 10, end: 12 },
    ]);
  });

  it('an odd overlap: the earlier span keeps the smaller half', () => {
    // Spans [0,10) and [7,17) share 3 tokens: span 0 keeps 7, span 1 owns from 8.
    expect(unitPieces(planSpans(17, 10, 3), r(5, 12))).toEqual([
      { span: 0, start: 5, end: 8 },
      { span: 1, start: 8, end: 12 },
    ]);
  });

  it('an empty unit has no piece', () => {
    expect(unitPieces(spans, r(4, 4))).toEqual([]);
  });
});

describe('planLateChunks', () => {
  it('plans the spans and each unit, naming those read across spans', () => {
    const plan = planLateChunks(26, [r(0, 5), r(5, 16), r(16, 20), r(20, 26)], 10, 2);
    expect(plan.spans).toEqual([r(0, 10), r(8, 18), r(16, 26)]);
    expect(plan.pieces).toEqual([
      [{ span: 0, start: 0, end: 5 }],
      [
        { span: 0, start: 5, end: 9 },
        { span: 1, start: 9, end: 16 },
      ],
      [{ span: 2, start: 16, end: 20 }],
      [{ span: 2, start: 20, end: 26 }],
    ]);
    expect(plan.acrossSpans).toEqual([1]);
  });

  it('a document shorter than one span: one span, every unit whole; the default overlap applies', () => {
    const plan = planLateChunks(6, [r(0, 2), r(2, 6)], 510);
    expect(plan.spans).toEqual([r(0, 6)]);
    expect(plan.pieces).toEqual([[{ span: 0, start: 0, end: 2 }], [{ span: 0, start: 2, end: 6 }]]);
    expect(plan.acrossSpans).toEqual([]);
  });

  it('an empty document: no span, its empty units no piece', () => {
    expect(planLateChunks(0, [r(0, 0)], 10, 2)).toEqual({ spans: [], pieces: [[]], acrossSpans: [] });
  });

  it('refuses a unit outside the document', () => {
    expect(() => planLateChunks(5, [r(0, 3), r(3, 6)], 10, 2)).toThrow("unit 1 has the token range [3, 6), not inside the document's 5 tokens");
  });
});

describe('pieceCuts and unitTokenRanges', () => {
  it('cuts at every unit edge; overlapping units share pieces, text outside every unit is kept', () => {
    const units = [r(0, 5), r(5, 12), r(3, 8)];
    const cuts = pieceCuts(20, units);
    expect(cuts).toEqual([0, 3, 5, 8, 12, 20]);
    // Pieces [0,3) [3,5) [5,8) [8,12) [12,20) of 1, 2, 3, 4 and 0 tokens.
    expect(unitTokenRanges(cuts, [1, 2, 3, 4, 0], units)).toEqual({ total: 10, ranges: [r(0, 3), r(3, 10), r(1, 6)] });
  });

  it('an empty text and an empty unit', () => {
    expect(pieceCuts(0, [])).toEqual([0]);
    expect(unitTokenRanges([0], [], [])).toEqual({ total: 0, ranges: [] });
    expect(unitTokenRanges(pieceCuts(4, [r(2, 2)]), [3, 1], [r(2, 2)])).toEqual({ total: 4, ranges: [r(3, 3)] });
  });

  it('refuses a unit outside the text and counts that do not match the pieces', () => {
    expect(() => pieceCuts(10, [r(2, 11)])).toThrow("unit 0 has the character span [2, 11), not inside its document's 10 characters");
    expect(() => unitTokenRanges([0, 5, 10], [1], [])).toThrow('1 token counts for 2 pieces');
  });
});

describe('poolRange', () => {
  // Four token vectors of 2 dimensions.
  const tokens = new Float32Array([6, 0, 0, 8, 1, 1, -1, -1]);

  it('the mean over the range, L2-normalised', () => {
    // Mean of (6,0) and (0,8) = (3,4) → (0.6, 0.8) in float32.
    expect(Array.from(poolRange(tokens, 2, 0, 2))).toEqual([0.6000000238418579, 0.800000011920929]);
    // One token: its own direction.
    expect(Array.from(poolRange(tokens, 2, 1, 2))).toEqual([0, 1]);
    // (0,8), (1,1): mean (0.5, 4.5) → (1, 9)/√82.
    const v = poolRange(tokens, 2, 1, 3);
    expect(v[0]).toBeCloseTo(1 / Math.sqrt(82), 7);
    expect(v[1]).toBeCloseTo(9 / Math.sqrt(82), 7);
  });

  it('an empty range and a zero mean give zeros, never NaN', () => {
    expect(Array.from(poolRange(tokens, 2, 3, 3))).toEqual([0, 0]);
    expect(Array.from(poolRange(tokens, 2, 2, 4))).toEqual([0, 0]);
  });

  it('refuses a range outside the token vectors', () => {
    expect(() => poolRange(tokens, 2, 3, 5)).toThrow('token range [3, 5) is not inside 4 token vectors');
  });
});

describe('which models late chunking is for', () => {
  it('recommended for the long-context mean-pooling presets, spans capped at 2,048 tokens', () => {
    for (const name of ['nomic-embed-text-v1.5', 'jina-embeddings-v2-small-en']) {
      const p = findPreset(name)!;
      expect(p.maxTokens).toBe(8192);
      expect(transformerLateSupport(p, p.maxTokens)).toEqual({ available: true, spanTokens: DEFAULT_LATE_SPAN_TOKENS, recommended: true });
    }
    expect(DEFAULT_LATE_SPAN_TOKENS).toBe(2048);
    const minilm = findPreset('all-MiniLM-L6-v2')!;
    expect(transformerLateSupport(minilm, 256)).toEqual({ available: true, spanTokens: 256, recommended: false });
  });

  it('available with a caveat for a CLS-pooling model', () => {
    const s = transformerLateSupport(findPreset('bge-small-en-v1.5')!, 512);
    expect(s).toEqual({ available: true, spanTokens: 512, recommended: false, note: 'Xenova/bge-small-en-v1.5 was trained to use its first ([CLS]) token, not a mean of tokens: measure before trusting late chunking with it' });
  });

  it('not available for static models, a pooled-output graph, an endpoint-like embedder, no model', () => {
    expect(transformerLateSupport(findPreset('potion-base-8M')!, 512)).toEqual({
      available: false,
      reason: "late chunking is not available for minishlab/potion-base-8M: it is a static model, each token's vector ignores the text around it, so late-chunked vectors would be its plain vectors",
    });
    expect(transformerLateSupport(findPreset('embeddinggemma-300m')!, 2048)).toEqual({
      available: false,
      reason: "late chunking is not available for onnx-community/embeddinggemma-300m-ONNX: its vectors come out of layers after the token outputs inside the model (pooling 'model'), so pooled token outputs are not its vectors",
    });
    const other: Embedder = { model: 'endpoint:localhost:11434/x@3', dim: 3, maxTokens: 8192, isTestModel: false, counter: { name: 'approx', count: () => 1 }, embed: async () => ({ vectors: new Float32Array(), truncated: [] }) };
    expect(lateChunkingOf(other)).toEqual({ available: false, reason: 'late chunking is not available for endpoint:localhost:11434/x@3: it gives one vector per text and no token vectors' });
    expect(lateChunkingOf(null)).toEqual({ available: false, reason: 'late chunking needs an embedding model: none is loaded' });
  });

  it('a guessed model keeps what its settings say', () => {
    const guessed = resolveEmbeddingModel('someone/long-model', { maxTokens: 4096 }).preset;
    expect(transformerLateSupport(guessed, 4096)).toEqual({ available: true, spanTokens: 2048, recommended: false });
  });
});
