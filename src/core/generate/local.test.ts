import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestGenerator } from '../../../scripts/make-test-lm';
import { setupNode } from '../../node/setup';
import { GENERATOR_MODELS, LocalGenerator, TEST_GENERATOR_ID, generatorInfo } from './local';
import { GenerationError, type ChatMessage } from './openai';

const ANSWER = 'test model answer: the sources say so [1].';
/** Tokens of ANSWER plus EOS: test model answer ##: the sources say so [ ##1 ##] ##. [SEP] */
const ANSWER_TOKENS = 13;

const chat: ChatMessage[] = [
  { role: 'system', content: 'Answer only from the numbered sources and cite them like [1].' },
  { role: 'user', content: 'Sources:\n[1] The sky is blue on a clear day.\n\nQuestion: What colour is the sky?' },
];

async function expectGenerationError(p: Promise<unknown>, kind: string): Promise<GenerationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GenerationError);
  expect((err as GenerationError).kind).toBe(kind);
  return err as GenerationError;
}

describe('GENERATOR_MODELS', () => {
  it('lists real models and the test model, each once, the test model labelled as such', () => {
    const ids = GENERATOR_MODELS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const test = generatorInfo(TEST_GENERATOR_ID)!;
    expect(test.testModel).toBe(true);
    expect(test.label.startsWith('TEST MODEL')).toBe(true);
    expect(test.contextTokens).toBe(2048);
    const real = GENERATOR_MODELS.filter((m) => !m.testModel);
    expect(real.length).toBeGreaterThanOrEqual(2);
    for (const m of real) {
      expect(m.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(m.sizeMB).toBeGreaterThan(100);
      expect(m.contextTokens).toBeLessThanOrEqual(8192);
    }
  });
});

describe('LocalGenerator with the generated TEST generator', () => {
  let gen: LocalGenerator;

  beforeAll(async () => {
    ensureTestGenerator();
    setupNode();
    gen = await LocalGenerator.load({ model: TEST_GENERATOR_ID });
  });

  afterAll(async () => {
    await gen?.dispose();
  });

  it('loads as a test model with its configured context', () => {
    expect(gen.model).toBe(TEST_GENERATOR_ID);
    expect(gen.isTestModel).toBe(true);
    expect(gen.contextTokens).toBe(2048);
    expect(gen.counter.name).toBe(TEST_GENERATOR_ID);
  });

  it('counts the chat after the template, generation prompt included', () => {
    // [CLS] user : hello world [SEP] [CLS] assistant :
    expect(gen.countChat([{ role: 'user', content: 'hello world' }])).toBe(9);
    const text = chat[1]!.content;
    expect(gen.countChat(chat)).toBeGreaterThan(gen.counter.count(text) + gen.counter.count(chat[0]!.content));
  });

  it('streams the fixed answer in several pieces that add up to the text, then stops at EOS', async () => {
    const pieces: string[] = [];
    const result = await gen.stream(chat, { onToken: (t) => pieces.push(t) });
    expect(result.text).toBe(ANSWER);
    expect(pieces.join('')).toBe(result.text);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.length > 0)).toBe(true);
    expect(result.finishReason).toBe('stop');
    expect(result.stopped).toBe(false);
    expect(result.usage).toEqual({ promptTokens: gen.countChat(chat), completionTokens: ANSWER_TOKENS });
  });

  it('is deterministic, also with sampling (its logits leave no real choice)', async () => {
    const again = await gen.stream(chat);
    expect(again.text).toBe(ANSWER);
    const sampled = await gen.stream(chat, { temperature: 0.8 });
    expect(sampled.text).toBe(ANSWER);
  });

  it('answers after a longer conversation: the reply follows the last turn start', async () => {
    const long: ChatMessage[] = [...chat, { role: 'assistant', content: 'It is blue [1].' }, { role: 'user', content: 'And at night?' }];
    expect((await gen.stream(long)).text).toBe(ANSWER);
  });

  it('stops at maxTokens with finishReason "length"', async () => {
    const result = await gen.stream(chat, { maxTokens: 3 });
    expect(result.text).toBe('test model answer');
    expect(result.finishReason).toBe('length');
    expect(result.stopped).toBe(false);
    // Exactly enough room for the answer and its EOS is a normal stop.
    const exact = await gen.stream(chat, { maxTokens: ANSWER_TOKENS });
    expect(exact.text).toBe(ANSWER);
    expect(exact.finishReason).toBe('stop');
  });

  it('stops when the signal aborts on the first piece: stopped, shorter text, no later pieces', async () => {
    const controller = new AbortController();
    const pieces: string[] = [];
    const result = await gen.stream(chat, {
      signal: controller.signal,
      onToken: (t) => {
        pieces.push(t);
        controller.abort();
      },
    });
    expect(result.stopped).toBe(true);
    expect(result.finishReason).toBeNull();
    expect(pieces).toEqual(['test ']);
    expect(result.text).toBe('test ');
    // The piece "test " is decoded when the 2nd token arrives; generation ends right there.
    expect(result.usage?.completionTokens).toBe(2);
    expect(ANSWER.startsWith(result.text)).toBe(true);
  });

  it('returns at once, stopped, when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const result = await gen.stream(chat, { signal: controller.signal, onToken: () => calls++ });
    expect(result).toEqual({ text: '', finishReason: null, stopped: true });
    expect(calls).toBe(0);
  });

  it('refuses a chat longer than the context with both numbers', async () => {
    const huge: ChatMessage[] = [{ role: 'user', content: 'the sky is blue. '.repeat(600) }];
    const tokens = gen.countChat(huge);
    expect(tokens).toBeGreaterThan(2048);
    const err = await expectGenerationError(gen.stream(huge), 'context-length');
    expect(err.message).toContain(String(tokens));
    expect(err.message).toContain('2048');
    expect(err.message).toContain(TEST_GENERATOR_ID);
  });

  it('refuses a prompt that fits only without the requested answer length', async () => {
    const prompt = gen.countChat(chat);
    const err = await expectGenerationError(gen.stream(chat, { maxTokens: 2048 - prompt + 1 }), 'context-length');
    expect(err.message).toContain(String(prompt));
    expect(err.message).toContain(String(2048 - prompt + 1));
    const ok = await gen.stream(chat, { maxTokens: 2048 - prompt });
    expect(ok.text).toBe(ANSWER);
  });

  it('runs overlapping calls one after the other', async () => {
    const [a, b] = await Promise.all([gen.stream(chat), gen.stream(chat, { maxTokens: 2 })]);
    expect(a.text).toBe(ANSWER);
    expect(b.text).toBe('test model');
  });
});

describe('LocalGenerator load failures', () => {
  beforeAll(() => setupNode());

  it('names the model whose files are missing', async () => {
    const err = await expectGenerationError(LocalGenerator.load({ model: 'rag-lab/no-such-generator' }), 'model-load');
    expect(err.message).toContain('rag-lab/no-such-generator');
  });

  it('names the model when the precision asked for has no file', async () => {
    const err = await expectGenerationError(LocalGenerator.load({ model: TEST_GENERATOR_ID, dtype: 'q4f16' }), 'model-load');
    expect(err.message).toContain(TEST_GENERATOR_ID);
  });

  it('refuses a WebGPU-only model on another device before downloading anything', async () => {
    const webgpuOnly = GENERATOR_MODELS.find((m) => m.webgpuOnly)!;
    const err = await expectGenerationError(LocalGenerator.load({ model: webgpuOnly.id, device: 'wasm' }), 'model-load');
    expect(err.message).toContain(webgpuOnly.id);
    expect(err.message).toContain('WebGPU');
  });
});
