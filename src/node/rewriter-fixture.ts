/**
 * A deterministic query rewriter for the query-transformation tests, as a behaviour of the
 * OpenAI-compatible fixture: it recognises the four rewrite prompts (transform/rewrites.ts) and
 * answers as a careful model would, by rule, so a run's results are known in advance.
 *   multiquery    the question's parts (split at " and "), one per line, numbered
 *   subquestions  one sub-question per part, as fenced JSON: a part with a number or a
 *                 capitalised word after its first goes to the tool whose description says "exact
 *                 words", the others to the one that says "meaning" (else the first tool); a
 *                 question containing "unreadable" gets prose instead
 *   router        the same rule for the whole question, as JSON {choice, reason}
 *   hyde          a passage that restates each part as a sentence
 */
import type { ChatCall, ChatReply } from './openai-fixture';

const parts = (q: string) => q.replace(/[?？]\s*$/, '').split(/\s+and\s+/i).map((s) => s.trim()).filter(Boolean);
const keywordish = (s: string) => /\d/.test(s) || /\s\p{Lu}/u.test(s);

/** The tools listed in a sub-question prompt's second example: name → description. */
function tools(user: string): [string, string][] {
  const blocks = [...user.matchAll(/<Tools>\n```json\n([\s\S]*?)\n```/g)];
  const last = blocks.at(-1)?.[1];
  return last ? Object.entries(JSON.parse(last) as Record<string, string>) : [];
}

export function rewriter(call: ChatCall): ChatReply {
  const u = call.user;
  if (/Generate \d+ search queries/.test(u)) {
    const q = /Query: (.*)\n/.exec(u)?.[1] ?? '';
    return { content: parts(q).map((p, i) => `${i + 1}. ${p}`).join('\n') };
  }
  if (u.includes('<User Question>')) {
    const q = /<User Question>\n([^\n]*)\n\n<Output>\n$/.exec(u)?.[1] ?? '';
    if (/unreadable/i.test(q)) return { content: 'I would look this up in the documents, I think.' };
    const ts = tools(u);
    const keyword = ts.find(([, d]) => /exact words/i.test(d))?.[0] ?? ts[0]![0];
    const meaning = ts.find(([, d]) => /meaning/i.test(d))?.[0] ?? ts[0]![0];
    const questions = parts(q).map((p) => ({ question: `${p}?`, tool: keywordish(p) ? keyword : meaning }));
    return { content: `Here are the sub-questions:\n\`\`\`json\n${JSON.stringify({ questions })}\n\`\`\`` };
  }
  if (u.startsWith('Some choices are given below.')) {
    const q = /most relevant to the question: '([\s\S]*)'\n$/.exec(u)?.[1] ?? '';
    const choices = [...u.matchAll(/^\((\d+)\) (.*)$/gm)];
    const keyword = Number(choices.find((c) => /exact words/i.test(c[2]!))?.[1] ?? 1);
    const meaning = Number(choices.find((c) => /meaning/i.test(c[2]!))?.[1] ?? 1);
    const choice = keywordish(q) ? keyword : meaning;
    return { content: JSON.stringify({ choice, reason: keywordish(q) ? 'it names exact words' : 'it asks about a meaning' }) };
  }
  if (u.startsWith('Please write a passage to answer the question')) {
    const q = /\n\n\n([\s\S]*?)\n\n\nPassage:/.exec(u)?.[1] ?? '';
    return { content: `Passage: ${parts(q).map((p) => `${p.charAt(0).toUpperCase()}${p.slice(1)}.`).join(' ')}` };
  }
  return { content: 'I cannot tell what is asked.' };
}
