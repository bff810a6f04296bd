import { describe, expect, it } from 'vitest';
import { buildMessages, checkTemplate, DEFAULT_PROMPTS, fillTemplate, NO_ANSWER, QUESTION_RESPONSE_FORMAT, RESPONSE_FORMATS } from './prompts';

describe('question prompts', () => {
  it('ask for JSON with a verbatim answer and say how to decline', () => {
    for (const t of [DEFAULT_PROMPTS.specific, DEFAULT_PROMPTS.abstract]) {
      expect(t.system).toContain('{"question": "…", "answer": "…"}');
      expect(t.system).toContain('word for word');
      expect(t.system).toContain(`"answer": "${NO_ANSWER}"`);
    }
    expect(DEFAULT_PROMPTS.abstract.user).toContain('paraphrase');
    // Multi-passage: one fact quoted from each passage, both gold spans.
    const multi = DEFAULT_PROMPTS['multi-passage'];
    expect(multi.user).toContain('needs both passages');
    expect(multi.system).toContain('{"question": "…", "answer_a": "…", "answer_b": "…"}');
    expect(multi.system).toContain('"answer_a" copied word for word from passage A, "answer_b" copied word for word from passage B');
    expect(multi.system).toContain(`"answer_a": "${NO_ANSWER}", "answer_b": "${NO_ANSWER}"`);
  });
  it('fill placeholders once, leaving braces inside passages alone', () => {
    const v = { passages: ['A {title} B', 'second'], title: 'Doc', language: 'en' };
    expect(fillTemplate('{title}: {passage} | {passage_a} / {passage_b} ({language}) {other}', v)).toBe('Doc: A {title} B | A {title} B / second (en) {other}');
    expect(buildMessages(DEFAULT_PROMPTS.specific, v).map((m) => m.role)).toEqual(['system', 'user']);
    expect(buildMessages(DEFAULT_PROMPTS.specific, v)[1]!.content).toContain('Document: Doc\n\nPassage:\n"""\nA {title} B\n"""');
  });
  it('check an edited template', () => {
    expect(checkTemplate('specific', DEFAULT_PROMPTS.specific)).toEqual([]);
    expect(checkTemplate('multi-passage', { system: 'x', user: '{passage_a} {pasage_b}' })).toEqual([
      'the multi-passage prompt must contain {passage_b}',
      'the multi-passage prompt has an unknown placeholder {pasage_b} (known: {passage}, {passage_a}, {passage_b}, {title}, {language})',
    ]);
  });
  it('give the structured-outputs response_format of OpenAI', () => {
    expect(QUESTION_RESPONSE_FORMAT).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'question_answer',
        strict: true,
        schema: { type: 'object', properties: { question: { type: 'string' }, answer: { type: 'string' } }, required: ['question', 'answer'], additionalProperties: false },
      },
    });
    expect(RESPONSE_FORMATS.specific).toBe(QUESTION_RESPONSE_FORMAT);
    expect(RESPONSE_FORMATS['multi-passage']).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'question_two_answers',
        strict: true,
        schema: {
          type: 'object',
          properties: { question: { type: 'string' }, answer_a: { type: 'string' }, answer_b: { type: 'string' } },
          required: ['question', 'answer_a', 'answer_b'],
          additionalProperties: false,
        },
      },
    });
  });
});
