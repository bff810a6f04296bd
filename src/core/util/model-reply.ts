/**
 * Reading what a language model wrote when it was asked for JSON or a short reply. Local models
 * ignore formats: they think aloud in <think> tags (sometimes left open), wrap JSON in code
 * fences or prose, return an array of one, leave trailing commas or use curly quotes as
 * delimiters. Shared by question generation, document contexts, answer runs and their judge.
 * Hand-written: JSON5-style parsers would not find an object inside prose nor take curly quotes
 * as delimiters.
 */

/** Drops reasoning blocks (<think>…</think>, also one left open) some models write first. */
export function dropThinking(reply: string): string {
  return reply.replace(/<think>[\s\S]*?(<\/think>|$)/giu, '');
}

/** Drops Markdown code fences, keeping what they hold. */
export function unfence(text: string): string {
  return text.replace(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g, '$1');
}

/** Every balanced {…} or […] in `text`, outermost first, skipping braces inside strings. */
export function balancedSpans(text: string): string[] {
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

/** `s` as JSON after the repairs above, or undefined. */
export function parseRepaired(s: string): unknown {
  for (const candidate of repairs(s)) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

/**
 * The JSON values a reply holds, best first: the whole reply (without reasoning and fences),
 * then every balanced object or array inside it. A caller takes the first one of the shape it
 * wants.
 */
export function jsonValues(reply: string): unknown[] {
  const unfenced = unfence(dropThinking(reply)).trim();
  const out: unknown[] = [];
  const whole = parseRepaired(unfenced);
  if (whole !== undefined) out.push(whole);
  for (const span of balancedSpans(unfenced.replace(/[“”„]/g, '"'))) {
    const v = parseRepaired(span);
    if (v !== undefined && (whole === undefined || span !== unfenced)) out.push(v);
  }
  return out;
}
