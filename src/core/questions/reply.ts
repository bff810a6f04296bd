/**
 * Tolerant parsing of a model's reply to a question prompt. Local models ignore formats: they
 * wrap JSON in code fences or prose, return an array of one, leave trailing commas, use curly
 * quotes as delimiters, think aloud in <think> tags, or write "Question: … Answer: …". Each of
 * these is repaired; anything else gets one reason. Hand-written: JSON5-style parsers would
 * not find an object inside prose nor take curly quotes as delimiters.
 */

export type ParsedReply = { ok: true; question: string; answer: string } | { ok: false; reason: string };

const clip = (s: string, n = 80) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** Every balanced {…} or […] in `text`, outermost first, skipping braces inside strings. */
function balancedSpans(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const open = text[i];
    if (open !== '{' && open !== '[') continue;
    const stack: string[] = [];
    let inString: string | null = null;
    for (let j = i; j < text.length; j++) {
      const c = text[j]!;
      if (inString) {
        if (c === '\\') j++;
        else if (c === inString) inString = null;
        continue;
      }
      if (c === '"') inString = c;
      else if (c === '{' || c === '[') stack.push(c);
      else if (c === '}' || c === ']') {
        stack.pop();
        if (!stack.length) {
          out.push(text.slice(i, j + 1));
          i = j;
          break;
        }
      }
    }
  }
  return out;
}

/** Repairs that keep valid JSON valid: curly quotes as delimiters, trailing commas. */
function repairs(s: string): string[] {
  const straight = s.replace(/[“”„]/g, '"');
  const noTrailing = (t: string) => t.replace(/,\s*([}\]])/g, '$1');
  return [s, noTrailing(s), straight, noTrailing(straight)];
}

function tryParse(s: string): unknown {
  for (const candidate of repairs(s)) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

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
  if (q === undefined && a === undefined) return null;
  const question = asText(q ?? '');
  const answer = asText(a ?? '');
  if (question === undefined || answer === undefined) return { ok: false, reason: 'the reply\'s "question" or "answer" is not text' };
  return { ok: true, question, answer };
}

/** "Question: … Answer: …" lines, a common plain-text reply. */
function fromLabels(text: string): ParsedReply | null {
  const m = /(?:^|\n)\s*\**(?:question|q)\**\s*[:：]\s*(.+?)\s*\n+\s*\**(?:answer|a)\**\s*[:：]\s*(.+?)\s*$/is.exec(text);
  if (!m) return null;
  return { ok: true, question: m[1]!.trim(), answer: m[2]!.trim() };
}

/** The question and answer of a reply, or one reason why there are none. */
export function parseReply(reply: string): ParsedReply {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (!text) return { ok: false, reason: 'the reply is empty' };
  const unfenced = text.replace(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g, '$1').trim();
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
