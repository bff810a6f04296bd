/**
 * Tolerant parsing of a model's reply to a question prompt. Local models ignore formats: they
 * wrap JSON in code fences or prose, return an array of one, leave trailing commas, use curly
 * quotes as delimiters, think aloud in <think> tags, or write "Question: … Answer: …". Each of
 * these is repaired (util/model-reply.ts); anything else gets one reason.
 */
import { balancedSpans, dropThinking, parseRepaired as tryParse, unfence } from '../util/model-reply';

/**
 * A read reply. `parts`: a multi-passage reply's quoted facts, one per passage (`answer_a`,
 * `answer_b`, or a list `answers`); `answer` then joins them, for messages.
 */
export type ParsedReply = { ok: true; question: string; answer: string; parts?: string[] } | { ok: false; reason: string };

const clip = (s: string, n = 80) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

function field(o: Record<string, unknown>, names: string[]): unknown {
  for (const [k, v] of Object.entries(o)) if (names.includes(k.toLowerCase())) return v;
  return undefined;
}

const asText = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string')) return (v as string[]).join(' ').trim();
  return undefined;
};

function fromValue(v: unknown): ParsedReply | null {
  if (Array.isArray(v)) {
    const objs = v.filter((x) => x && typeof x === 'object' && !Array.isArray(x));
    return objs.length ? fromValue(objs[0]) : null;
  }
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const q = field(o, ['question', 'query', 'q', 'pergunta', 'pregunta']);
  const a = field(o, ['answer', 'a', 'resposta', 'respuesta', 'réponse', 'reponse']);
  const pa = field(o, ['answer_a', 'answer a', 'fact_a']);
  const pb = field(o, ['answer_b', 'answer b', 'fact_b']);
  const list = field(o, ['answers']);
  if (q === undefined && a === undefined && pa === undefined && pb === undefined && list === undefined) return null;
  const question = asText(q ?? '');
  let parts: string[] | undefined;
  if (pa !== undefined || pb !== undefined) {
    const two = [asText(pa ?? ''), asText(pb ?? '')];
    if (two.some((x) => x === undefined)) return { ok: false, reason: 'the reply\'s "answer_a" or "answer_b" is not text' };
    parts = two as string[];
  } else if (Array.isArray(list) && list.length && list.every((x) => typeof x === 'string' || typeof x === 'number')) {
    parts = list.map((x) => String(x).trim());
  }
  const answer = a !== undefined ? asText(a) : parts ? parts.filter(Boolean).join(' … ') : '';
  if (question === undefined || answer === undefined) return { ok: false, reason: 'the reply\'s "question" or "answer" is not text' };
  return { ok: true, question, answer, ...(parts && parts.length > 1 ? { parts } : {}) };
}

/** "Question: … Answer: …" lines, a common plain-text reply. */
function fromLabels(text: string): ParsedReply | null {
  const m = /(?:^|\n)\s*\**(?:question|q)\**\s*[:：]\s*(.+?)\s*\n+\s*\**(?:answer|a)\**\s*[:：]\s*(.+?)\s*$/is.exec(text);
  if (!m) return null;
  return { ok: true, question: m[1]!.trim(), answer: m[2]!.trim() };
}

/** The question and answer of a reply, or one reason why there are none. */
export function parseReply(reply: string): ParsedReply {
  const text = dropThinking(reply).trim();
  if (!text) return { ok: false, reason: 'the reply is empty' };
  const unfenced = unfence(text).trim();
  const whole = tryParse(unfenced);
  const direct = whole !== undefined ? fromValue(whole) : null;
  if (direct) return direct;
  for (const span of balancedSpans(unfenced.replace(/[“”„]/g, '"'))) {
    const got = fromValue(tryParse(span));
    if (got) return got;
  }
  const labelled = fromLabels(unfenced);
  if (labelled) return labelled;
  const hasBrace = /[{[]/.test(unfenced);
  return { ok: false, reason: hasBrace ? `the reply's JSON could not be read, or has no "question" and "answer": "${clip(unfenced)}"` : `the reply is not JSON: "${clip(unfenced)}"` };
}
