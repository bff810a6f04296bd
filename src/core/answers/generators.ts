/**
 * The generators an answer run (and its judge) can use, as the run needs them: a model running
 * here (transformers.js: the TEST model in tests, a small instruct model in Node) and an
 * OpenAI-compatible endpoint (bounded retries of 429 and 5xx, several calls in flight). Each has
 * an identity for the reply cache — a different URL, model or precision never shares a reply —
 * and assembles prompts with its own tokenizer (or an estimate) and context window, exactly as
 * the generator panel does.
 */
import type { LocalGenerator } from '../generate/local';
import { chatCompletionsUrl, type EndpointConfig } from '../generate/openai';
import { assemblePrompt, CHAT_MESSAGE_TOKENS } from '../generate/prompt';
import { chatWithRetry, type RetryOptions } from '../generate/retry';
import { ApproxTokenCounter, type TokenCounter } from '../segment/tokens';
import type { Assemble } from './answer-prompts';
import type { AnswerGenerator } from './answer-run';
import type { ReplySettings } from './reply-cache';

/** How a run's prompts are assembled: the instructions (editable), headers on or off, the room kept for the reply. */
export interface AnswerPromptOptions {
  instructions: string;
  headers: boolean;
  answerTokens: number;
}

/** Calls in flight at once to an endpoint by default: enough to hide latency, few enough not to be rate-limited at once. */
export const ENDPOINT_CONCURRENCY = 4;

export function endpointIdentity(e: EndpointConfig): string {
  return `endpoint ${chatCompletionsUrl(e.baseUrl)} model ${e.model}`;
}

export function localIdentity(model: string, dtype?: string): string {
  return `model ${model}${dtype ? ` ${dtype}` : ''}`;
}

function assembler(counter: TokenCounter, contextTokens: number, o: AnswerPromptOptions): Assemble {
  return (question, blocks) =>
    Promise.resolve(assemblePrompt(question, blocks, { contextTokens, answerTokens: o.answerTokens, counter, headers: o.headers, instructions: o.instructions }));
}

export interface EndpointAnswerOptions extends Pick<RetryOptions, 'onRetry' | 'sleep' | 'retries' | 'timeoutMs'> {
  contextTokens: number;
  concurrency?: number;
  fetch?: typeof fetch;
}

/** An OpenAI-compatible endpoint: tokens estimated (its tokenizer is not here), the chat template's overhead kept free. */
export function endpointAnswerGenerator(endpoint: EndpointConfig, settings: ReplySettings, o: EndpointAnswerOptions): { generator: AnswerGenerator; assemble: (p: AnswerPromptOptions) => Assemble } {
  const counter = new ApproxTokenCounter();
  return {
    generator: {
      model: endpointIdentity(endpoint),
      label: `${endpoint.model} at ${chatCompletionsUrl(endpoint.baseUrl)}`,
      count: (messages) => messages.reduce((n, m) => n + counter.count(m.content) + CHAT_MESSAGE_TOKENS, 0),
      caller: {
        concurrency: o.concurrency ?? ENDPOINT_CONCURRENCY,
        complete: (messages, { signal, responseFormat }) =>
          chatWithRetry(endpoint, messages, {
            maxTokens: settings.maxTokens,
            temperature: settings.temperature,
            ...(signal ? { signal } : {}),
            ...(responseFormat ? { responseFormat } : {}),
            ...(o.onRetry ? { onRetry: o.onRetry } : {}),
            ...(o.sleep ? { sleep: o.sleep } : {}),
            ...(o.retries !== undefined ? { retries: o.retries } : {}),
            ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
            ...(o.fetch ? { fetch: o.fetch } : {}),
          }),
      },
    },
    assemble: (p) => assembler(counter, o.contextTokens - 2 * CHAT_MESSAGE_TOKENS, p),
  };
}

/** A model loaded here: its own tokenizer and context, one call at a time. */
export function localAnswerGenerator(gen: Pick<LocalGenerator, 'model' | 'isTestModel' | 'contextTokens' | 'counter' | 'stream' | 'countChat'>, settings: ReplySettings, dtype?: string): { generator: AnswerGenerator; assemble: (p: AnswerPromptOptions) => Assemble } {
  return {
    generator: {
      model: localIdentity(gen.model, dtype),
      label: `${gen.model}${gen.isTestModel ? ' (TEST MODEL: always the same answer)' : ''}`,
      count: (messages) => gen.countChat(messages),
      caller: {
        concurrency: 1,
        complete: (messages, { signal }) => gen.stream(messages, { maxTokens: settings.maxTokens, temperature: settings.temperature, ...(signal ? { signal } : {}) }),
      },
    },
    assemble: (p) => assembler(gen.counter, gen.contextTokens, p),
  };
}
