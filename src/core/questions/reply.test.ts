import { describe, expect, it } from 'vitest';
import { parseReply } from './reply';

const good = { ok: true, question: 'When was it built?', answer: '1889' };

describe('parseReply', () => {
  it('reads plain JSON', () => {
    expect(parseReply('{"question": "When was it built?", "answer": "1889"}')).toEqual(good);
  });
  it('reads JSON in a code fence, in prose, and after a <think> block', () => {
    expect(parseReply('```json\n{"question": "When was it built?", "answer": "1889"}\n```')).toEqual(good);
    expect(parseReply('Sure! Here is the question:\n{"question": "When was it built?", "answer": "1889"}\nHope it helps.')).toEqual(good);
    expect(parseReply('<think>The passage says {maybe}…</think>{"question": "When was it built?", "answer": "1889"}')).toEqual(good);
  });
  it('reads an array of one, trailing commas, curly quotes and capitalised keys', () => {
    expect(parseReply('[{"question": "When was it built?", "answer": "1889"}]')).toEqual(good);
    expect(parseReply('{"question": "When was it built?", "answer": "1889",}')).toEqual(good);
    expect(parseReply('{“question”: “When was it built?”, “answer”: “1889”}')).toEqual(good);
    expect(parseReply('{"Question": "When was it built?", "Answer": 1889}')).toEqual(good);
  });
  it('keeps curly quotes inside valid JSON strings', () => {
    expect(parseReply('{"question": "What is “it”?", "answer": "a tower"}')).toEqual({ ok: true, question: 'What is “it”?', answer: 'a tower' });
  });
  it('reads "Question: … Answer: …" lines', () => {
    expect(parseReply('Question: When was it built?\nAnswer: 1889')).toEqual(good);
  });
  it('reads a multi-passage reply: one quoted fact per passage', () => {
    const two = { ok: true, question: 'When was it built, and how tall is it?', answer: '1889 … 330 metres', parts: ['1889', '330 metres'] };
    expect(parseReply('{"question": "When was it built, and how tall is it?", "answer_a": "1889", "answer_b": "330 metres"}')).toEqual(two);
    expect(parseReply('```json\n{"Question": "When was it built, and how tall is it?", "Answer_A": 1889, "Answer_B": "330 metres",}\n```')).toEqual(two);
    expect(parseReply('{"question": "When was it built, and how tall is it?", "answers": ["1889", "330 metres"]}')).toEqual(two);
    // One fact missing: its part is empty (the don't-know filter rejects it); a list of one is a plain answer.
    expect(parseReply('{"question": "Q?", "answer_a": "1889"}')).toEqual({ ok: true, question: 'Q?', answer: '1889', parts: ['1889', ''] });
    expect(parseReply('{"question": "Q?", "answers": ["1889"]}')).toEqual({ ok: true, question: 'Q?', answer: '1889' });
    expect(parseReply('{"question": "Q?", "answer_a": {"x": 1}, "answer_b": "y"}')).toEqual({ ok: false, reason: 'the reply\'s "answer_a" or "answer_b" is not text' });
  });
  it('gives one reason when it cannot', () => {
    expect(parseReply('')).toEqual({ ok: false, reason: 'the reply is empty' });
    expect(parseReply('I think the tower is old.')).toEqual({ ok: false, reason: 'the reply is not JSON: "I think the tower is old."' });
    expect(parseReply('{"question": "When was it built?", "answer": ')).toEqual({ ok: false, reason: 'the reply\'s JSON could not be read, or has no "question" and "answer": "{"question": "When was it built?", "answer":"' });
    expect(parseReply('{"q": {"x": 1}, "a": "y"}')).toEqual({ ok: false, reason: 'the reply\'s "question" or "answer" is not text' });
  });
});
