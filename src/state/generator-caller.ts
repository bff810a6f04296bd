/**
 * The generator chosen in the Generator panel as the core's runs call it (answer runs, their
 * judge, query rewrites): its identity for the reply cache, how many calls may be in flight,
 * and `complete` with a run's settings — structured outputs and bounded retries (429 after its
 * Retry-After, 5xx, unreachable) for an endpoint; the same prompt without them for a model in
 * this browser.
 */
import type { AnswerGenerator } from '../core/answers/answer-run';
import type { ReplySettings } from '../core/answers/reply-cache';
import type { ReplyCaller } from '../core/answers/run-replies';
import { CHAT_MESSAGE_TOKENS } from '../core/generate/prompt';
import { ApproxTokenCounter } from '../core/segment/tokens';
import { EndpointGenerator, type Generator } from './generators';

const approx = new ApproxTokenCounter();

export function replyCaller(gen: Generator, settings: ReplySettings, onRetry?: (line: string) => void): ReplyCaller {
  const endpoint = gen instanceof EndpointGenerator;
  return {
    concurrency: gen.concurrency,
    complete: (messages, { signal, responseFormat }) =>
      gen.stream(messages, {
        maxTokens: settings.maxTokens,
        temperature: settings.temperature,
        ...(signal ? { signal } : {}),
        ...(endpoint && responseFormat ? { responseFormat } : {}),
        ...(endpoint ? { retry: { onRetry: (i) => onRetry?.(`retry ${i.attempt}: ${i.reason}${i.waitMs ? `; waiting ${Math.round(i.waitMs / 1000)} s` : ''}`) } } : {}),
      }),
  };
}

/** As an answer run's generator; token counts are estimates for plans (prompts are counted by the generator's own assembly). */
export function answerGeneratorOf(gen: Generator, settings: ReplySettings, onRetry?: (line: string) => void): AnswerGenerator {
  return {
    model: gen.identity,
    label: gen.label,
    count: (messages) => messages.reduce((n, m) => n + approx.count(m.content) + CHAT_MESSAGE_TOKENS, 0),
    caller: replyCaller(gen, settings, onRetry),
  };
}
