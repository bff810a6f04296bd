/**
 * The optional model judge of an answer run, with prompts that are shown and editable:
 * - correct: does the answer say what the reference says? (for long or abstract answers, where
 *   exact match fails) — LlamaIndex's CorrectnessEvaluator, as a yes/no with a reason;
 * - faithfulness: the share of the answer's statements that the context supports, as Ragas
 *   measures it: the answer is split into statements, then each is verified against the context.
 * Replies are asked for as JSON (a `response_format` schema for endpoints) and read tolerantly;
 * an unreadable verdict is a failed judgement, left out of the means and counted.
 */
import type { ChatMessage } from '../generate/endpoint-types';
import { jsonValues } from '../util/model-reply';

export interface JudgePrompt {
  system: string;
  /** With {question}, {references}, {answer}, {context} or {statements} where the step needs them. */
  user: string;
}

export interface JudgePrompts {
  correct: JudgePrompt;
  statements: JudgePrompt;
  verdicts: JudgePrompt;
}

export const DEFAULT_JUDGE_PROMPTS: JudgePrompts = {
  correct: {
    system:
      'You grade answers to questions against reference answers. An answer is correct when it states what a reference states; other wording, more detail or another format are fine. It is not correct when it contradicts the references, misses their point, or says it cannot answer. Reply with JSON only: {"correct": true or false, "reason": "one short sentence"}.',
    user: 'Question: {question}\nReference answer(s): {references}\nAnswer to grade: {answer}',
  },
  statements: {
    system:
      'Break the answer into short statements that each hold one fact and stand alone (replace pronouns with what they refer to). Leave out citation marks. An answer that only says it cannot answer holds no statements. Reply with JSON only: {"statements": ["…", "…"]}.',
    user: 'Question: {question}\nAnswer: {answer}',
  },
  verdicts: {
    system:
      'Decide for each statement whether the context supports it: supported means the context states it or it follows directly from what the context states. Reply with JSON only: {"verdicts": [{"statement": "…", "supported": true or false}]}, one verdict per statement, in the order given.',
    user: 'Context:\n{context}\n\nStatements:\n{statements}',
  },
};

const PLACEHOLDERS: Record<keyof JudgePrompts, string[]> = {
  correct: ['{answer}', '{references}'],
  statements: ['{answer}'],
  verdicts: ['{context}', '{statements}'],
};

/** Problems of edited prompts, one line each (a prompt without the text it judges judges nothing). */
export function checkJudgePrompts(p: JudgePrompts): string[] {
  const out: string[] = [];
  for (const step of Object.keys(PLACEHOLDERS) as (keyof JudgePrompts)[]) {
    for (const ph of PLACEHOLDERS[step]) if (!p[step].user.includes(ph) && !p[step].system.includes(ph)) out.push(`the ${step} prompt must contain ${ph}`);
  }
  return out;
}

function fill(p: JudgePrompt, values: Record<string, string>): ChatMessage[] {
  // One pass, so a value that contains "{answer}" is not filled again.
  const sub = (t: string) => t.replace(/\{(question|references|answer|context|statements)\}/g, (m, k: string) => values[k] ?? m);
  return [
    { role: 'system', content: sub(p.system) },
    { role: 'user', content: sub(p.user) },
  ];
}

/** The grade's messages; a question that needs every reference lists them as all needed. */
export function correctMessages(p: JudgePrompts, question: string, references: readonly string[], answer: string, needsAll = false): ChatMessage[] {
  return fill(p.correct, { question, references: needsAll ? `${references.join(' AND ')} (the answer must state all of these)` : references.join(' | '), answer });
}

export function statementMessages(p: JudgePrompts, question: string, answer: string): ChatMessage[] {
  return fill(p.statements, { question, answer });
}

export function verdictMessages(p: JudgePrompts, context: string, statements: readonly string[]): ChatMessage[] {
  return fill(p.verdicts, { context, statements: statements.map((s, i) => `${i + 1}. ${s}`).join('\n') });
}

const schema = (name: string, schema: Record<string, unknown>) => ({ type: 'json_schema', json_schema: { name, strict: true, schema } });

export const CORRECT_FORMAT = schema('grade', { type: 'object', properties: { correct: { type: 'boolean' }, reason: { type: 'string' } }, required: ['correct', 'reason'], additionalProperties: false });
export const STATEMENTS_FORMAT = schema('statements', { type: 'object', properties: { statements: { type: 'array', items: { type: 'string' } } }, required: ['statements'], additionalProperties: false });
export const VERDICTS_FORMAT = schema('verdicts', {
  type: 'object',
  properties: { verdicts: { type: 'array', items: { type: 'object', properties: { statement: { type: 'string' }, supported: { type: 'boolean' } }, required: ['statement', 'supported'], additionalProperties: false } } },
  required: ['verdicts'],
  additionalProperties: false,
});

/** "true", "yes", 1 … as a boolean; undefined when it is none of them. */
function truth(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : undefined;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (['true', 'yes', 'correct', 'supported', '1'].includes(t)) return true;
    if (['false', 'no', 'incorrect', 'unsupported', 'not supported', '0'].includes(t)) return false;
  }
  return undefined;
}

const objects = (reply: string) => jsonValues(reply).filter((v): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v));

/** The grade in a reply, or null when it holds none. A bare "true"/"false" reply counts. */
export function readCorrect(reply: string): { correct: boolean; reason: string } | null {
  for (const o of objects(reply)) {
    const c = truth(o.correct ?? o.is_correct ?? o.verdict ?? o.grade);
    if (c !== undefined) return { correct: c, reason: typeof o.reason === 'string' ? o.reason.trim() : '' };
  }
  const bare = truth(reply.replace(/<think>[\s\S]*?(<\/think>|$)/giu, '').trim().replace(/[.!]$/, ''));
  return bare === undefined ? null : { correct: bare, reason: '' };
}

/** The statements in a reply (an object's "statements", or a bare list of strings), or null. */
export function readStatements(reply: string): string[] | null {
  for (const v of jsonValues(reply)) {
    const list = Array.isArray(v) ? v : v && typeof v === 'object' ? (v as Record<string, unknown>).statements : undefined;
    if (Array.isArray(list) && list.every((s) => typeof s === 'string')) return (list as string[]).map((s) => s.trim()).filter(Boolean);
  }
  return null;
}

/** The verdicts in a reply, one per statement in order, or null when they cannot be read or their number differs. */
export function readVerdicts(reply: string, statements: number): boolean[] | null {
  for (const v of jsonValues(reply)) {
    const list = Array.isArray(v) ? v : v && typeof v === 'object' ? (v as Record<string, unknown>).verdicts : undefined;
    if (!Array.isArray(list)) continue;
    const verdicts = list.map((x) => (x && typeof x === 'object' ? truth((x as Record<string, unknown>).supported ?? (x as Record<string, unknown>).verdict) : truth(x)));
    if (verdicts.length === statements && verdicts.every((x) => x !== undefined)) return verdicts as boolean[];
  }
  return null;
}

/** Faithfulness of one answer: supported statements over statements; null for an answer without statements (Ragas: NaN). */
export function faithfulnessOf(verdicts: readonly boolean[]): number | null {
  if (!verdicts.length) return null;
  return verdicts.filter(Boolean).length / verdicts.length;
}
