/**
 * Prompt assembly: a strategy's blocks become numbered sources in a prompt that fits the
 * generator's context. With a context limit L, the fixed part C (instructions, question,
 * room for the answer) and blocks of size |S|, at most k ≤ (L − |C|) / |S| blocks fit
 * (the seeds' bound); blocks are taken in rank order, each counted with the generator's
 * own tokenizer, and a block that does not fit is left out while smaller later ones may
 * still go in.
 */
import type { TokenCounter } from '../segment/tokens';

/** A block as the prompt needs it (what every strategy's ContextBlock can give). */
export interface PromptBlock {
  id: string;
  text: string;
  header?: string;
  docTitle: string;
  sectionPath: string[];
  pageStart?: number;
  pageEnd?: number;
}

export interface PromptOptions {
  /** The generator's context window in its tokens (L). */
  contextTokens: number;
  /** Tokens kept free for the answer. */
  answerTokens: number;
  /** Counts tokens with the generator's tokenizer. */
  counter: TokenCounter;
  /** Include each block's contextual header in its source entry. Default true. */
  headers?: boolean;
  /** Replaces the default instructions. */
  instructions?: string;
}

export interface PromptSource {
  /** The number the answer cites, from 1. */
  n: number;
  blockId: string;
  label: string;
  tokens: number;
}

export interface AssembledPrompt {
  system: string;
  user: string;
  sources: PromptSource[];
  /** Blocks that did not fit, in rank order. */
  left: string[];
  /** Tokens of system + user as counted (the answer's room not included). */
  promptTokens: number;
  /** The fixed part C: instructions, question and answer room. */
  fixedTokens: number;
}

/** Role markers and separators a chat template adds per message: an estimate, for endpoints whose tokenizer is not here. */
export const CHAT_MESSAGE_TOKENS = 4;

export const DEFAULT_INSTRUCTIONS =
  'Answer the question using only the numbered sources below. Cite every claim with the number of its source in square brackets, like [1] or [2][3]. If the sources do not contain the answer, say that you cannot answer from them.';

/** "Title › Section › Sub · p. 4" */
export function sourceLabel(b: PromptBlock): string {
  const path = b.sectionPath.filter((t) => t && t !== b.docTitle);
  const pages = b.pageStart === undefined ? '' : b.pageEnd !== undefined && b.pageEnd !== b.pageStart ? ` · pp. ${b.pageStart}–${b.pageEnd}` : ` · p. ${b.pageStart}`;
  return [b.docTitle, ...path].join(' › ') + pages;
}

function sourceEntry(n: number, b: PromptBlock, headers: boolean): string {
  const head = headers && b.header ? `${b.header}\n` : '';
  return `[${n}] ${sourceLabel(b)}\n${head}${b.text.trim()}`;
}

/**
 * Builds the prompt: instructions as the system message; the sources, then the
 * question, as the user message. Throws when not even the question fits.
 */
export function assemblePrompt(question: string, blocks: PromptBlock[], options: PromptOptions): AssembledPrompt {
  const { counter } = options;
  const headers = options.headers ?? true;
  const system = options.instructions ?? DEFAULT_INSTRUCTIONS;
  const tail = `Question: ${question.trim()}`;
  const fixedTokens = counter.count(system) + counter.count(tail) + options.answerTokens;
  if (fixedTokens > options.contextTokens) {
    throw new RangeError(`the question and the room for the answer (${fixedTokens} tokens) do not fit the model's context of ${options.contextTokens} tokens`);
  }
  let room = options.contextTokens - fixedTokens;
  const entries: string[] = [];
  const sources: PromptSource[] = [];
  const left: string[] = [];
  for (const b of blocks) {
    const entry = sourceEntry(sources.length + 1, b, headers);
    // Two newlines join entries: count them with the entry.
    const tokens = counter.count(`${entry}\n\n`);
    if (tokens > room) {
      left.push(b.id);
      continue;
    }
    room -= tokens;
    entries.push(entry);
    sources.push({ n: sources.length + 1, blockId: b.id, label: sourceLabel(b), tokens });
  }
  const user = `${entries.length ? `Sources:\n\n${entries.join('\n\n')}\n\n` : 'There are no sources.\n\n'}${tail}`;
  return { system, user, sources, left, promptTokens: counter.count(system) + counter.count(user), fixedTokens };
}
