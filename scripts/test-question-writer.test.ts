import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestQuestionWriter, TEST_QUESTION_WRITER_ANSWER } from './make-test-lm';
import { setupNode } from '../src/node/setup';
import { generatorInfo, TEST_QUESTION_WRITER_ID } from '../src/core/generate/generator-models';
import { LocalGenerator } from '../src/core/generate/local';

/** The TEST question writer answers any chat with one fixed JSON question, through the real transformers.js path. */
describe('the generated TEST question writer', () => {
  let gen: LocalGenerator;

  beforeAll(async () => {
    ensureTestQuestionWriter();
    setupNode();
    gen = await LocalGenerator.load({ model: TEST_QUESTION_WRITER_ID });
  });

  afterAll(async () => {
    await gen?.dispose();
  });

  it('is listed as a TEST model', () => {
    const info = generatorInfo(TEST_QUESTION_WRITER_ID)!;
    expect(info.testModel).toBe(true);
    // Labelled TEST MODEL, but not at its start: specs pick the test generator as the option starting with it.
    expect(info.label).toContain('TEST MODEL');
    expect(info.label.startsWith('TEST MODEL')).toBe(false);
    expect(gen.isTestModel).toBe(true);
  });

  it('replies with the JSON object {"question", "answer"} whose answer is "the"', async () => {
    const result = await gen.stream(
      [
        { role: 'system', content: 'Write one question about the passage as JSON.' },
        { role: 'user', content: 'Passage: The Normans gave their name to Normandy.' },
      ],
      { maxTokens: 64 },
    );
    expect(result.text).toBe('{"question": "what does the passage say?", "answer": "the"}');
    expect(result.text).toBe(TEST_QUESTION_WRITER_ANSWER);
    expect(JSON.parse(result.text)).toEqual({ question: 'what does the passage say?', answer: 'the' });
    expect(result.finishReason).toBe('stop');
  });
});
