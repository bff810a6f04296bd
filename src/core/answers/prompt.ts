/**
 * The prompt of an answer run: the generator panel's own assembly (generate/prompt.ts: the
 * blocks as numbered sources, counted with the generator's tokenizer, in its context window),
 * with instructions that ask for a short answer, so that exact match and F1 against a reference
 * mean something. The instructions are shown and editable wherever a run is planned; the panel's
 * own default instructions (long, cited answers) work too, scored by F1 and the judge.
 */
import type { ChatMessage } from '../generate/endpoint-types';
import type { AssembledPrompt } from '../generate/prompt';

export const DEFAULT_ANSWER_INSTRUCTIONS =
  'Answer the question using only the numbered sources below. Give the answer alone, in as few words as possible (a name, a number, a date or a short phrase), in the language of the question, then the number of its source in square brackets, like [2]. If the sources do not contain the answer, say that you cannot answer from them.';

/** Tokens kept for an answer by default (short answers; the panel keeps 512 for long ones). */
export const DEFAULT_ANSWER_TOKENS = 64;

/** The chat of an assembled prompt, as the generator panel sends it. */
export function chatOf(p: Pick<AssembledPrompt, 'system' | 'user'>): ChatMessage[] {
  return [
    { role: 'system', content: p.system },
    { role: 'user', content: p.user },
  ];
}

/** The sources part of an assembled user message (what was handed over), without the question. */
export function handedText(user: string): string {
  const at = user.lastIndexOf('\n\nQuestion: ');
  const sources = at < 0 ? user : user.slice(0, at);
  return sources.replace(/^Sources:\n\n/, '').replace(/^There are no sources\.$/, '');
}
