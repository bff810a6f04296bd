/**
 * What a query transformation asks the generator, and how its reply is read:
 *   multiquery    LlamaIndex's query-generation prompt (generate/query-variants.ts): variants
 *   subquestions  LlamaIndex's SubQuestionQueryEngine prompt: the question and the tools, a JSON
 *                 list of {question, tool} back (the tool an enum of the tool names)
 *   router        LlamaIndex's LLMSingleSelector: the tools as numbered choices, {choice, reason}
 *   hyde          LlamaIndex's HyDE prompt (Gao et al., 2022): a passage that would answer it
 * Replies are read tolerantly (fences, prose around the JSON, a bare list, LlamaIndex's own
 * field names); a reply that names no known tool, is empty, or holds more than
 * MAX_SUBQUESTIONS sub-questions falls back to the plain question, with a note that says why.
 */
import type { ChatMessage } from '../generate/endpoint-types';
import { parseQueryVariants, queryGenerationPrompt } from '../generate/query-variants';
import { dropThinking, jsonValues } from '../util/model-reply';
import type { QueryTool } from './tools';

export const QUERY_TRANSFORMS = ['none', 'multiquery', 'subquestions', 'hyde', 'router'] as const;
export type QueryTransform = (typeof QUERY_TRANSFORMS)[number];

export const TRANSFORM_WORDS: Record<QueryTransform, string> = {
  none: 'the question as asked',
  multiquery: 'multi-query (variants fused by RRF)',
  subquestions: 'sub-questions routed to tools',
  hyde: 'HyDE (a hypothetical answer searched with the question)',
  router: 'router (one tool for the question)',
};

/** Most sub-questions kept; a reply with more is not trusted and the plain question is used. */
export const MAX_SUBQUESTIONS = 5;
/** Variants written for multi-query by default (LangChain's MultiQueryRetriever writes 3). */
export const DEFAULT_VARIANTS = 3;
/** Longest reply asked for: a passage or a list of sub-questions. */
export const REWRITE_MAX_TOKENS = 400;

/** What the generator wrote, read; `note` says why the plain question is used instead. */
export type Rewrite =
  | { kind: 'none' }
  | { kind: 'multiquery'; variants: string[] }
  | { kind: 'subquestions'; subquestions: { question: string; tool: string }[] }
  | { kind: 'hyde'; passage: string }
  | { kind: 'router'; tool: string; reason: string }
  | { kind: 'fallback'; transform: QueryTransform; note: string };

const toolJson = (tools: readonly QueryTool[]) => JSON.stringify(Object.fromEntries(tools.map((t) => [t.name, t.description])), null, 4);

/** LlamaIndex's SUB_QUESTION_PROMPT_TMPL with its example, asking for {"questions": [{"question", "tool"}]}. */
export function subQuestionMessages(question: string, tools: readonly QueryTool[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `Write the sub-questions in the language of the user question, at most ${MAX_SUBQUESTIONS}. Reply with the JSON only.`,
    },
    {
      role: 'user',
      content:
        'Given a user question, and a list of tools, output a list of relevant sub-questions in json markdown that when composed can help answer the full user question:\n\n' +
        '# Example 1\n<Tools>\n```json\n' +
        toolJson([
          { name: 'uber_10k', retriever: 'bm25', description: 'Provides information about Uber financials for year 2021' },
          { name: 'lyft_10k', retriever: 'bm25', description: 'Provides information about Lyft financials for year 2021' },
        ]) +
        '\n```\n\n<User Question>\nCompare and contrast the revenue growth and EBITDA of Uber and Lyft for year 2021\n\n<Output>\n```json\n' +
        JSON.stringify(
          {
            questions: [
              { question: 'What is the revenue growth of Uber', tool: 'uber_10k' },
              { question: 'What is the EBITDA of Uber', tool: 'uber_10k' },
              { question: 'What is the revenue growth of Lyft', tool: 'lyft_10k' },
              { question: 'What is the EBITDA of Lyft', tool: 'lyft_10k' },
            ],
          },
          null,
          4,
        ) +
        '\n```\n\n# Example 2\n<Tools>\n```json\n' +
        toolJson(tools) +
        `\n\`\`\`\n\n<User Question>\n${question.trim()}\n\n<Output>\n`,
    },
  ];
}

/** The `response_format` of sub-questions: the tool an enum of the tool names. */
export function subQuestionFormat(tools: readonly QueryTool[]): Record<string, unknown> {
  return {
    type: 'json_schema',
    json_schema: {
      name: 'sub_questions',
      strict: true,
      schema: {
        type: 'object',
        properties: {
          questions: {
            type: 'array',
            items: { type: 'object', properties: { question: { type: 'string' }, tool: { type: 'string', enum: tools.map((t) => t.name) } }, required: ['question', 'tool'], additionalProperties: false },
          },
        },
        required: ['questions'],
        additionalProperties: false,
      },
    },
  };
}

/** LlamaIndex's single-selector prompt: numbered choices, JSON {choice, reason}. */
export function routerMessages(question: string, tools: readonly QueryTool[]): ChatMessage[] {
  const list = tools.map((t, i) => `(${i + 1}) ${t.description}`).join('\n\n');
  return [
    { role: 'system', content: 'Reply with JSON only: {"choice": <the number of the choice>, "reason": "<one short sentence>"}.' },
    {
      role: 'user',
      content:
        `Some choices are given below. It is provided in a numbered list (1 to ${tools.length}), where each item in the list corresponds to a summary.\n---------------------\n${list}\n---------------------\n` +
        `Using only the choices above and not prior knowledge, return the choice that is most relevant to the question: '${question.trim()}'\n`,
    },
  ];
}

export function routerFormat(tools: readonly QueryTool[]): Record<string, unknown> {
  return {
    type: 'json_schema',
    json_schema: { name: 'choice', strict: true, schema: { type: 'object', properties: { choice: { type: 'integer', minimum: 1, maximum: tools.length }, reason: { type: 'string' } }, required: ['choice', 'reason'], additionalProperties: false } },
  };
}

/** LlamaIndex's HYDE_TMPL, with the question's language said. */
export function hydeMessages(question: string): ChatMessage[] {
  return [
    { role: 'system', content: 'Write the passage in the language of the question. Reply with the passage only.' },
    { role: 'user', content: `Please write a passage to answer the question\nTry to include as many key details as possible.\n\n\n${question.trim()}\n\n\nPassage:"""\n` },
  ];
}

/** The messages a transformation sends for a question (none for `none`). */
export function rewriteMessages(t: QueryTransform, question: string, tools: readonly QueryTool[], variants = DEFAULT_VARIANTS): { messages: ChatMessage[]; responseFormat?: Record<string, unknown> } | null {
  if (t === 'none') return null;
  if (t === 'multiquery') return { messages: queryGenerationPrompt(question, variants) };
  if (t === 'subquestions') return { messages: subQuestionMessages(question, tools), responseFormat: subQuestionFormat(tools) };
  if (t === 'router') return { messages: routerMessages(question, tools), responseFormat: routerFormat(tools) };
  return { messages: hydeMessages(question) };
}

const clip = (s: string, n = 80) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};
const fallback = (transform: QueryTransform, note: string): Rewrite => ({ kind: 'fallback', transform, note });

function field(o: Record<string, unknown>, names: string[]): unknown {
  for (const [k, v] of Object.entries(o)) if (names.includes(k.toLowerCase())) return v;
  return undefined;
}

/** The sub-questions in a reply: {"questions"|"items"|"sub_questions": [...]} or a bare list; each {question|sub_question, tool|tool_name}. */
export function readSubQuestions(reply: string, tools: readonly QueryTool[]): Rewrite {
  const names = new Set(tools.map((t) => t.name));
  for (const v of jsonValues(reply)) {
    const list = Array.isArray(v) ? v : v && typeof v === 'object' ? field(v as Record<string, unknown>, ['questions', 'items', 'sub_questions', 'subquestions']) : undefined;
    if (!Array.isArray(list)) continue;
    const subs: { question: string; tool: string }[] = [];
    for (const x of list) {
      if (!x || typeof x !== 'object') continue;
      const q = field(x as Record<string, unknown>, ['question', 'sub_question', 'subquestion', 'query']);
      const t = field(x as Record<string, unknown>, ['tool', 'tool_name', 'toolname']);
      if (typeof q === 'string' && q.trim() && typeof t === 'string') subs.push({ question: q.trim(), tool: t.trim() });
    }
    if (!list.length) return fallback('subquestions', 'the generator wrote no sub-question');
    if (!subs.length) continue;
    const unknown = subs.find((s) => !names.has(s.tool));
    if (unknown) return fallback('subquestions', `the generator named a tool that does not exist ("${clip(unknown.tool, 40)}")`);
    if (subs.length > MAX_SUBQUESTIONS) return fallback('subquestions', `the generator wrote ${subs.length} sub-questions, more than ${MAX_SUBQUESTIONS}`);
    return { kind: 'subquestions', subquestions: subs };
  }
  return fallback('subquestions', `the reply holds no sub-questions as JSON: "${clip(dropThinking(reply))}"`);
}

/** The routed tool in a reply: {"choice": n (1-based) or a tool name, "reason"}, or a bare number. */
export function readRouter(reply: string, tools: readonly QueryTool[]): Rewrite {
  const pick = (c: unknown): QueryTool | undefined => {
    const n = typeof c === 'number' ? c : typeof c === 'string' && /^\s*\d+\s*$/.test(c) ? Number(c) : null;
    if (n !== null) return Number.isInteger(n) ? tools[n - 1] : undefined;
    return typeof c === 'string' ? tools.find((t) => t.name === c.trim()) : undefined;
  };
  for (const v of jsonValues(reply)) {
    const o = Array.isArray(v) ? v[0] : v;
    if (!o || typeof o !== 'object') continue;
    const c = field(o as Record<string, unknown>, ['choice', 'tool', 'tool_name', 'index']);
    if (c === undefined) continue;
    const tool = pick(c);
    const reason = field(o as Record<string, unknown>, ['reason', 'reasoning', 'why']);
    if (!tool) return fallback('router', `the generator chose "${clip(String(c), 40)}", which is not one of the ${tools.length} tools`);
    return { kind: 'router', tool: tool.name, reason: typeof reason === 'string' ? reason.trim() : '' };
  }
  const bare = /^\s*\(?(\d+)\)?\s*[.)]?\s*$/.exec(dropThinking(reply));
  const tool = bare ? tools[Number(bare[1]) - 1] : undefined;
  if (tool) return { kind: 'router', tool: tool.name, reason: '' };
  return fallback('router', `the reply names no choice: "${clip(dropThinking(reply))}"`);
}

/** The hypothetical passage: the reply without reasoning, fences, a "Passage:" label or wrapping quotes. */
export function readHyde(reply: string): Rewrite {
  const t = dropThinking(reply)
    .replace(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g, '$1')
    .replace(/^\s*(?:passage|answer)\s*[:：]\s*/i, '')
    .replace(/^\s*"""|"""\s*$/g, '')
    .trim();
  return /[\p{L}\p{N}]/u.test(t) ? { kind: 'hyde', passage: t } : fallback('hyde', 'the generator wrote no passage');
}

/** Reads a reply for a transformation. */
export function readRewrite(t: QueryTransform, reply: string, question: string, tools: readonly QueryTool[], variants = DEFAULT_VARIANTS): Rewrite {
  if (t === 'none') return { kind: 'none' };
  if (t === 'subquestions') return readSubQuestions(reply, tools);
  if (t === 'router') return readRouter(reply, tools);
  if (t === 'hyde') return readHyde(reply);
  const v = parseQueryVariants(dropThinking(reply), question, variants);
  return v.length ? { kind: 'multiquery', variants: v } : fallback('multiquery', 'the generator wrote no variant that differs from the question');
}
