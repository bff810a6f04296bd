import { describe, expect, it } from 'vitest';
import { buildMessages, checkTemplate, DEFAULT_PROMPTS, fillTemplate, NO_ANSWER, QUESTION_RESPONSE_FORMAT } from './prompts';

describe('question prompts', () => {
  it('ask for JSON with a verbatim answer and say how to decline', () => {
    for (const t of Object.values(DEFAULT_PROMPTS)) {
      expect(t.system).toContain('{"question": "…", "answer": "…"}');
      expect(t.system).toContain('word for word');
      expect(t.system).toContain(`"answer": "${NO_ANSWER}"`);
    }
    expect(DEFAULT_PROMPTS.abstract.user).toContain('paraphrase');
    expect(DEFAULT_PROMPTS['multi-passage'].user).toContain('needs both passages');
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
  });
});
