/**
 * The prompt that asks a model for a unit's situating context. The default follows the prompt
 * Anthropic published with contextual retrieval (anthropic.com/news/contextual-retrieval, Sept
 * 2024, and its cookbook): the whole document in <document> tags, then the chunk in <chunk>
 * tags, then the request for "a short succinct context to situate this chunk within the overall
 * document for the purposes of improving search retrieval", answered with the context alone.
 * One addition: the context is asked for in the document's language (a multilingual lab).
 *
 * The document comes first on purpose: every unit of one document then sends the same prompt
 * prefix, which OpenAI-compatible endpoints cache automatically (and Anthropic's cookbook
 * marks for caching), so only the chunk and the reply cost full price after the first call.
 *
 * Placeholders: {document} (the document, or a window of it around the unit), {chunk} (the
 * unit's text), {title} and {language} (the document's).
 */
import type { ChatMessage } from '../generate/openai';

export interface ContextPrompt {
  /** Optional system message (Anthropic's prompt has none). */
  system: string;
  user: string;
}

export const DEFAULT_CONTEXT_PROMPT: ContextPrompt = {
  system: '',
  user:
    '<document>\n{document}\n</document>\n' +
    'Here is the chunk we want to situate within the whole document\n' +
    '<chunk>\n{chunk}\n</chunk>\n' +
    'Please give a short succinct context to situate this chunk within the overall document for the purposes of improving search retrieval of the chunk. ' +
    'Answer only with the succinct context and nothing else, in the language of the document ({language}).',
};

const KNOWN = ['document', 'chunk', 'title', 'language'];

/**
 * Problems of an edited prompt, one line each: `errors` make it unusable, `warnings` cost
 * money or quality but work.
 */
export function checkContextPrompt(p: ContextPrompt): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const all = `${p.system}\n${p.user}`;
  for (const name of ['document', 'chunk']) if (!p.user.includes(`{${name}}`)) errors.push(`the prompt must contain {${name}}`);
  for (const m of all.matchAll(/\{([a-z_]+)\}/g)) {
    if (!KNOWN.includes(m[1]!)) errors.push(`the prompt has an unknown placeholder {${m[1]}} (known: ${KNOWN.map((k) => `{${k}}`).join(', ')})`);
  }
  if (p.system.includes('{chunk}')) errors.push('{chunk} belongs in the user message');
  const d = p.user.indexOf('{document}');
  const c = p.user.indexOf('{chunk}');
  if (d >= 0 && c >= 0 && c < d) warnings.push('{chunk} comes before {document}: the document can no longer be a shared prompt prefix, so endpoints that cache prompts re-read it for every unit');
  return { errors, warnings };
}

export interface ContextPromptValues {
  document: string;
  chunk: string;
  title: string;
  language: string;
}

/** Fills placeholders in one pass (a document that contains "{chunk}" stays as it is). */
export function fillContextPrompt(text: string, v: ContextPromptValues): string {
  const values: Record<string, string> = { document: v.document, chunk: v.chunk, title: v.title, language: v.language };
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The messages of one call: the system message when there is one, and the user message. */
export function contextMessages(p: ContextPrompt, v: ContextPromptValues): ChatMessage[] {
  const system = fillContextPrompt(p.system, v).trim();
  return [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: fillContextPrompt(p.user, v) }];
}

/** The prompt's own tokens, roughly (the document and chunk are counted with a tokenizer). */
export function promptOverheadChars(p: ContextPrompt): number {
  return (p.system + p.user).replace(/\{(document|chunk)\}/g, '').length;
}
