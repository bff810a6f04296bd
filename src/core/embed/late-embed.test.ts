/**
 * Late chunking through transformers.js with generated TEST models, every vector checked against
 * one computed by hand from the models' token table: the test embedder (each token's output is its
 * table row, so pooling its own output is a mean of rows) and the context test embedder (each
 * token's output adds half the mean row of its input, so a unit's vector depends on its span).
 */
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_TEST_MODEL_ID, CONTEXT_WEIGHT, ensureContextTestModel } from '../../../scripts/make-context-test-model';
import { makeTable } from '../../../scripts/make-test-model';
import { setupNode } from '../../node/setup';
import { EmbeddingCancelled, type LateDocument } from './embedder';
import { TEST_EMBEDDER_ID, TEST_STATIC_EMBEDDER_ID } from './models';
import { TransformersEmbedder } from './transformers-embedder';

const D = 128;
const CLS = 101;
const SEP = 102;
let table: Float32Array;
let tokenizer: PreTrainedTokenizer;
let plain: TransformersEmbedder;
let context: TransformersEmbedder;

const ids = (text: string): number[] => (tokenizer(text, { add_special_tokens: false, return_tensor: false } as never) as unknown as { input_ids: number[] }).input_ids;

/**
 * By hand: the unit's tokens' outputs averaged and normalised, where a token's output is its table
 * row plus `weight` × the mean row of the whole span input (special and prefix tokens included).
 */
function expected(unit: number[], spanInput: number[], weight: number, dims = D): number[] {
  const mean = new Float64Array(D);
  for (const id of spanInput) for (let d = 0; d < D; d++) mean[d]! += table[id * D + d]! / spanInput.length;
  const v = new Float64Array(dims);
  for (const id of unit) for (let d = 0; d < dims; d++) v[d]! += (table[id * D + d]! + weight * mean[d]!) / unit.length;
  const n = Math.hypot(...v);
  return Array.from(v, (x) => (n > 0 ? x / n : 0));
}

function row(v: Float32Array, i: number, dim = D): number[] {
  return Array.from(v.subarray(i * dim, (i + 1) * dim));
}

function expectClose(actual: number[], wanted: number[]): void {
  expect(actual.length).toBe(wanted.length);
  actual.forEach((x, i) => expect(x).toBeCloseTo(wanted[i]!, 5));
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** A document of sentences, each a unit (character spans). */
function sentencesDoc(sentences: string[]): LateDocument & { sentences: string[] } {
  let text = '';
  const units: { start: number; end: number }[] = [];
  for (const s of sentences) {
    if (text) text += ' ';
    units.push({ start: text.length, end: text.length + s.length });
    text += s;
  }
  return { text, units, sentences };
}

const story = sentencesDoc(['The cat sat on the warm mat.', 'It purred quietly.', 'Stock markets fell in Tokyo.']);

beforeAll(async () => {
  setupNode();
  ensureContextTestModel();
  table = makeTable();
  tokenizer = await AutoTokenizer.from_pretrained(TEST_EMBEDDER_ID);
  plain = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
  context = await TransformersEmbedder.load({ model: CONTEXT_TEST_MODEL_ID, dtype: 'fp32' });
});

describe('late chunking with the TEST embedder (token outputs are table rows)', () => {
  it('says it is available, spans of its 512 tokens, not a long-context model', () => {
    expect(plain.lateChunking).toEqual({ available: true, spanTokens: 512, recommended: false });
  });

  it("pooling the model's own token output over a unit's range equals the hand-computed mean", async () => {
    const r = await plain.lateEmbed([story]);
    expect(r.vectors.length).toBe(3 * D);
    expect(r.spans).toBe(1);
    expect(r.acrossSpans).toEqual([]);
    story.sentences.forEach((s, i) => expectClose(row(r.vectors, i), expected(ids(s), [], 0)));
  });

  it('a document that is one unit gives that unit its plain vector', async () => {
    const text = 'Photosynthesis converts light energy into chemical energy.';
    const late = await plain.lateEmbed([{ text, units: [{ start: 0, end: text.length }] }]);
    const { vectors } = await plain.embed([text]);
    expectClose(row(late.vectors, 0), row(vectors, 0));
  });
});

describe('late chunking with the context TEST embedder (token outputs depend on the span)', () => {
  it("a unit's late vector is its tokens' mean in the document's span, and differs from its plain vector", async () => {
    const r = await context.lateEmbed([story]);
    const span = [CLS, ...ids(story.text), SEP];
    const { vectors: plainVectors } = await context.embed(story.sentences);
    story.sentences.forEach((s, i) => {
      const late = row(r.vectors, i);
      expectClose(late, expected(ids(s), span, CONTEXT_WEIGHT));
      // Plain: the sentence alone, whose own mean is parallel to its bag of word pieces.
      expectClose(row(plainVectors, i), expected(ids(s), [], 0));
      expect(dot(late, row(plainVectors, i))).toBeLessThan(0.99);
    });
  });

  it('a document that is the unit alone gives its plain vector (the mean of its tokens)', async () => {
    const text = 'It purred quietly.';
    const late = await context.lateEmbed([{ text, units: [{ start: 0, end: text.length }] }]);
    const { vectors } = await context.embed([text]);
    expectClose(row(late.vectors, 0), row(vectors, 0));
    expectClose(row(late.vectors, 0), expected(ids(text), [], 0));
  });

  it('spans with overlap: each unit is pooled in the span it sits in, a unit across the edge from both', async () => {
    // Twelve one-token words; spans of 7 tokens with [CLS] and [SEP] hold 5 words, sharing 2.
    const words = ['red', 'blue', 'green', 'black', 'white', 'brown', 'gold', 'pink', 'gray', 'silver', 'purple', 'orange'];
    const wordIds = words.map((w) => ids(w));
    expect(wordIds.every((x) => x.length === 1)).toBe(true);
    const flat = wordIds.flat();
    const doc = sentencesDoc(words);
    // Units: words 0–1, 2–5 (across the first edge), 6, 7–11.
    const at = (w: number) => doc.units[w]!;
    const units = [
      { start: at(0).start, end: at(1).end },
      { start: at(2).start, end: at(5).end },
      { start: at(6).start, end: at(6).end },
      { start: at(7).start, end: at(11).end },
    ];
    const r = await context.lateEmbed([{ text: doc.text, units }], { spanTokens: 7, overlap: 2 });
    // Spans over the 12 word tokens: [0,5) [3,8) [6,11) [9,12); span 1 owns from 4, span 2 from 7, span 3 from 10.
    expect(r.spans).toBe(4);
    const span = (a: number, b: number) => [CLS, ...flat.slice(a, b), SEP];
    expectClose(row(r.vectors, 0), expected(flat.slice(0, 2), span(0, 5), CONTEXT_WEIGHT));
    // Words 2–3 from span 0, 4–5 from span 1: the mean of the four token outputs.
    const across = [...flat.slice(2, 4).map((id) => [id, span(0, 5)] as const), ...flat.slice(4, 6).map((id) => [id, span(3, 8)] as const)];
    const sum = new Float64Array(D);
    for (const [id, s] of across) {
      const m = s.reduce((acc, t) => acc.map((x, d) => x + table[t * D + d]! / s.length), new Array<number>(D).fill(0));
      for (let d = 0; d < D; d++) sum[d]! += table[id * D + d]! + CONTEXT_WEIGHT * m[d]!;
    }
    const n = Math.hypot(...sum);
    expectClose(row(r.vectors, 1), Array.from(sum, (x) => x / n));
    // Word 6 lies in spans 1 [3,8) and 2 [6,11): margins 1 and 0, so span 1.
    expectClose(row(r.vectors, 2), expected(flat.slice(6, 7), span(3, 8), CONTEXT_WEIGHT));
    expect(r.acrossSpans).toEqual([1, 3]);
  });

  it('the passage prefix sits once at each span start, inside the context but outside every unit', async () => {
    const prefixed = await TransformersEmbedder.load({ model: CONTEXT_TEST_MODEL_ID, dtype: 'fp32', settings: { passagePrefix: 'passage: ' } });
    const r = await prefixed.lateEmbed([story]);
    const span = [CLS, ...ids('passage: '), ...ids(story.text), SEP];
    story.sentences.forEach((s, i) => expectClose(row(r.vectors, i), expected(ids(s), span, CONTEXT_WEIGHT)));
  });

  it('Matryoshka: the unit mean is cut, then normalised, as plain vectors are', async () => {
    const cut = await TransformersEmbedder.load({ model: CONTEXT_TEST_MODEL_ID, dtype: 'fp32', settings: { matryoshka: [128, 64] }, dimensions: 64 });
    const r = await cut.lateEmbed([story]);
    expect(r.vectors.length).toBe(3 * 64);
    const span = [CLS, ...ids(story.text), SEP];
    story.sentences.forEach((s, i) => expectClose(row(r.vectors, i, 64), expected(ids(s), span, CONTEXT_WEIGHT, 64)));
  });

  it('documents in order, each with its own spans; batches do not mix their contexts', async () => {
    const other = sentencesDoc(['Rain fell all night.', 'The river rose.']);
    const r = await context.lateEmbed([story, other, story]);
    expect(r.vectors.length).toBe(8 * D);
    const storySpan = [CLS, ...ids(story.text), SEP];
    const otherSpan = [CLS, ...ids(other.text), SEP];
    expectClose(row(r.vectors, 3), expected(ids('Rain fell all night.'), otherSpan, CONTEXT_WEIGHT));
    expectClose(row(r.vectors, 4), expected(ids('The river rose.'), otherSpan, CONTEXT_WEIGHT));
    expectClose(row(r.vectors, 7), expected(ids('Stock markets fell in Tokyo.'), storySpan, CONTEXT_WEIGHT));
  });

  it('overlapping units (chunks with overlap) each pool their own range of the one stream', async () => {
    const text = story.text;
    const second = story.units[1]!;
    const units = [
      { start: 0, end: second.end },
      { start: second.start, end: text.length },
    ];
    const r = await context.lateEmbed([{ text, units }]);
    const span = [CLS, ...ids(text), SEP];
    expectClose(row(r.vectors, 0), expected(ids(text.slice(0, second.end)), span, CONTEXT_WEIGHT));
    expectClose(row(r.vectors, 1), expected(ids(text.slice(second.start)), span, CONTEXT_WEIGHT));
  });

  it('an empty document and an empty unit give zero vectors, never NaN', async () => {
    const r = await context.lateEmbed([{ text: '', units: [{ start: 0, end: 0 }] }, { text: 'Hi there.', units: [{ start: 0, end: 0 }, { start: 0, end: 9 }] }]);
    expect(r.vectors.length).toBe(3 * D);
    expect(row(r.vectors, 0).every((x) => x === 0)).toBe(true);
    expect(row(r.vectors, 1).every((x) => x === 0)).toBe(true);
    expect(Math.hypot(...row(r.vectors, 2))).toBeCloseTo(1, 5);
    expect(r.spans).toBe(1);
    expect((await context.lateEmbed([])).vectors.length).toBe(0);
  });

  it('reports progress in spans and stops at a cancel', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const doc = sentencesDoc(words);
    const seen: [number, number][] = [];
    const r = await context.lateEmbed([doc], { spanTokens: 40, overlap: 4, onProgress: (d, t) => seen.push([d, t]) });
    expect(seen.at(-1)).toEqual([r.spans, r.spans]);
    expect(r.spans).toBeGreaterThan(1);
    const pre = new AbortController();
    pre.abort();
    await expect(context.lateEmbed([doc], { signal: pre.signal })).rejects.toBeInstanceOf(EmbeddingCancelled);
  });

  it('refuses a span too short to hold any text and a unit outside its document', async () => {
    await expect(context.lateEmbed([story], { spanTokens: 2 })).rejects.toThrow('a span of 2 tokens leaves no room for text after 2 special and prefix tokens');
    await expect(context.lateEmbed([{ text: 'short', units: [{ start: 0, end: 9 }] }])).rejects.toThrow("unit 0 has the character span [0, 9), not inside its document's 5 characters");
  });
});

describe('late chunking is not available for a static model', () => {
  it('says why, and lateEmbed refuses with the same sentence', async () => {
    const s = await TransformersEmbedder.load({ model: TEST_STATIC_EMBEDDER_ID });
    const support = s.lateChunking;
    expect(support.available).toBe(false);
    const reason = "late chunking is not available for rag-lab/test-static-embedder: it is a static model, each token's vector ignores the text around it, so late-chunked vectors would be its plain vectors";
    expect(support).toEqual({ available: false, reason });
    await expect(s.lateEmbed([story])).rejects.toThrow(reason);
  });
});
