/**
 * The two context generators the page and the CLI offer, as the driver's ContextGenerator: a
 * model running here (transformers.js: the test model in tests, a small instruct model in the
 * page) and an OpenAI-compatible endpoint (with retries). Each says in its `source` what wrote
 * the contexts; a reply cut short by cancelling is an error, so it is never stored.
 */
import type { LocalGenerator } from '../generate/local';
import { chatCompletionsUrl, type EndpointConfig } from '../generate/openai';
import { chatWithRetry, type RetryOptions } from '../generate/retry';
import { ApproxTokenCounter } from '../segment/tokens';
import { REPLY_EXTRA_TOKENS, type ContextGenerator } from './generate-contexts';
import { MAX_CONTEXT_TOKENS } from './reply';

/** Tokens a reply may run to: the context's limit and room for a label or a reasoning line (the cleaner drops them); the driver keeps this free. */
const REPLY_ROOM = MAX_CONTEXT_TOKENS + REPLY_EXTRA_TOKENS;
export { DEFAULT_ENDPOINT_CONTEXT_TOKENS } from '../generate/generator-models';
import { DEFAULT_ENDPOINT_CONTEXT_TOKENS } from '../generate/generator-models';

/** The driver checks its signal first: a stopped reply never becomes a context. */
const cancelled = () => new Error('the reply was stopped');

/** A model loaded here; its own tokenizer sizes the windows. */
export function localContextGenerator(gen: Pick<LocalGenerator, 'model' | 'isTestModel' | 'contextTokens' | 'counter' | 'stream'>): ContextGenerator {
  return {
    source: `model ${gen.model}${gen.isTestModel ? ' (test model)' : ''}`,
    contextTokens: gen.contextTokens,
    counter: gen.counter,
    async complete(messages, { signal }) {
      const r = await gen.stream(messages, { ...(signal ? { signal } : {}), maxTokens: REPLY_ROOM });
      if (r.stopped) throw cancelled();
      return r.text;
    },
  };
}

export interface EndpointGeneratorOptions extends Pick<RetryOptions, 'onRetry' | 'sleep' | 'retries' | 'timeoutMs'> {
  /** The model's context window in tokens (default DEFAULT_ENDPOINT_CONTEXT_TOKENS); longer documents are cut to windows. */
  contextTokens?: number;
  fetch?: typeof fetch;
}

/** An OpenAI-compatible endpoint: tokens are estimated (its tokenizer is not here), greedy replies. */
export function endpointContextGenerator(endpoint: EndpointConfig, o: EndpointGeneratorOptions = {}): ContextGenerator {
  return {
    source: `endpoint ${chatCompletionsUrl(endpoint.baseUrl)} model ${endpoint.model}`,
    contextTokens: o.contextTokens ?? DEFAULT_ENDPOINT_CONTEXT_TOKENS,
    counter: new ApproxTokenCounter(),
    async complete(messages, { signal }) {
      const r = await chatWithRetry(endpoint, messages, {
        ...(signal ? { signal } : {}),
        maxTokens: REPLY_ROOM,
        temperature: 0,
        ...(o.onRetry ? { onRetry: o.onRetry } : {}),
        ...(o.sleep ? { sleep: o.sleep } : {}),
        ...(o.retries !== undefined ? { retries: o.retries } : {}),
        ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
        ...(o.fetch ? { fetch: o.fetch } : {}),
      });
      if (r.stopped) throw cancelled();
      return r.text;
    },
  };
}
