/**
 * The default prompts for question generation, one per kind, as editable templates, and the
 * JSON schema sent as OpenAI structured outputs (`response_format`), which Ollama, vLLM,
 * llama.cpp server and LM Studio accept. The reply is parsed tolerantly anyway (reply.ts):
 * small local models often ignore both.
 *
 * Placeholders: {passage} (single-passage kinds), {passage_a} and {passage_b} (multi-passage),
 * {title} (the document's title), {language} (its language tag). The model must answer
 * "unknown" when no fact can be asked about: the don't-know filter then drops the item.
 * A multi-passage question quotes one fact from each passage (`answer_a`, `answer_b`): both
 * become its gold spans, and it needs both (all-of).
 */
import type { ChatMessage } from '../generate/openai';
import type { QuestionType } from './types';

export interface PromptTemplate {
  system: string;
  user: string;
}

/** What the model answers when the passage holds no answerable fact (the don't-know filter catches it). */
export const NO_ANSWER = 'unknown';

const SYSTEM =
  'You write one question for a test of a search system, and quote its answer. Reply with one JSON object ' +
  '{"question": "…", "answer": "…"} and nothing else. The answer must be copied word for word from the passage: ' +
  `a short span, not a sentence of your own. If the passage holds no fact that a question can ask about, reply {"question": "", "answer": "${NO_ANSWER}"}. ` +
  'Write the question in the language of the passage.';

const MULTI_SYSTEM =
  'You write one question for a test of a search system, and quote the two facts that answer it. Reply with one JSON object ' +
  '{"question": "…", "answer_a": "…", "answer_b": "…"} and nothing else: "answer_a" copied word for word from passage A, "answer_b" copied word for word from passage B, ' +
  `each a short span, not a sentence of your own. If the passages hold no facts that one question can combine, reply {"question": "", "answer_a": "${NO_ANSWER}", "answer_b": "${NO_ANSWER}"}. ` +
  'Write the question in the language of the passages.';

export const DEFAULT_PROMPTS: Record<QuestionType, PromptTemplate> = {
  specific: {
    system: SYSTEM,
    user:
      'Document: {title}\n\nPassage:\n"""\n{passage}\n"""\n\n' +
      'Write one specific question that this passage answers with a single fact (a name, a number, a date, a place, a short phrase). ' +
      'The question must make sense without seeing the passage. Quote the answer verbatim from the passage.',
  },
  abstract: {
    system: SYSTEM,
    user:
      'Document: {title}\n\nPassage:\n"""\n{passage}\n"""\n\n' +
      'Write one question that this passage answers, as a person who has not read it would ask: use your own words and ' +
      'paraphrase, do NOT reuse the passage\'s distinctive words or phrases in the question. ' +
      'Quote the answer verbatim from the passage.',
  },
  'multi-passage': {
    system: MULTI_SYSTEM,
    user:
      'Document: {title}\n\nPassage A:\n"""\n{passage_a}\n"""\n\nPassage B:\n"""\n{passage_b}\n"""\n\n' +
      'Write one question whose answer needs both passages: it must combine a fact from passage A with a fact from passage B, ' +
      'so neither passage alone answers it. Quote the fact from passage A verbatim as answer_a and the fact from passage B verbatim as answer_b.',
  },
};

/** The placeholders each kind's user template must contain. */
export const REQUIRED_PLACEHOLDERS: Record<QuestionType, string[]> = {
  specific: ['{passage}'],
  abstract: ['{passage}'],
  'multi-passage': ['{passage_a}', '{passage_b}'],
};

const KNOWN = ['passage', 'passage_a', 'passage_b', 'title', 'language'];

/** Problems of an edited template, one line each (empty when usable). */
export function checkTemplate(type: QuestionType, template: PromptTemplate): string[] {
  const problems: string[] = [];
  for (const p of REQUIRED_PLACEHOLDERS[type]) if (!template.user.includes(p)) problems.push(`the ${type} prompt must contain ${p}`);
  for (const m of `${template.system}\n${template.user}`.matchAll(/\{([a-z_]+)\}/g)) {
    if (!KNOWN.includes(m[1]!)) problems.push(`the ${type} prompt has an unknown placeholder {${m[1]}} (known: ${KNOWN.map((k) => `{${k}}`).join(', ')})`);
  }
  return problems;
}

export interface PromptValues {
  passages: string[];
  title: string;
  language: string;
}

/** Fills a template's placeholders in one pass (a passage containing "{title}" stays as it is). */
export function fillTemplate(text: string, v: PromptValues): string {
  const values: Record<string, string> = { passage: v.passages[0] ?? '', passage_a: v.passages[0] ?? '', passage_b: v.passages[1] ?? '', title: v.title, language: v.language };
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The messages of one request. */
export function buildMessages(template: PromptTemplate, v: PromptValues): ChatMessage[] {
  return [
    { role: 'system', content: fillTemplate(template.system, v) },
    { role: 'user', content: fillTemplate(template.user, v) },
  ];
}

/** The JSON schema of a reply (strict structured outputs need every property required and no others). */
export const QUESTION_SCHEMA = {
  type: 'object',
  properties: {
    question: { type: 'string' },
    answer: { type: 'string' },
  },
  required: ['question', 'answer'],
  additionalProperties: false,
} as const;

/** The `response_format` body field of OpenAI structured outputs. */
export const QUESTION_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: { name: 'question_answer', strict: true, schema: QUESTION_SCHEMA },
} as const;

/** A multi-passage reply: the question and one quoted fact from each passage. */
export const TWO_ANSWERS_SCHEMA = {
  type: 'object',
  properties: {
    question: { type: 'string' },
    answer_a: { type: 'string' },
    answer_b: { type: 'string' },
  },
  required: ['question', 'answer_a', 'answer_b'],
  additionalProperties: false,
} as const;

export const TWO_ANSWERS_RESPONSE_FORMAT = {
  type: 'json_schema',
  json_schema: { name: 'question_two_answers', strict: true, schema: TWO_ANSWERS_SCHEMA },
} as const;

/** The `response_format` each kind of question is asked with. */
export const RESPONSE_FORMATS: Record<QuestionType, typeof QUESTION_RESPONSE_FORMAT | typeof TWO_ANSWERS_RESPONSE_FORMAT> = {
  specific: QUESTION_RESPONSE_FORMAT,
  abstract: QUESTION_RESPONSE_FORMAT,
  'multi-passage': TWO_ANSWERS_RESPONSE_FORMAT,
};
