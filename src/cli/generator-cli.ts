/**
 * The generator a command asks (answer runs, their judge, query transformations), as the options
 * name it — `--endpoint URL --model NAME [--api-key-env VAR] [--context-tokens N]`, or `--model
 * test` (the TEST model) or another model id run here — read into a GeneratorChoice before any
 * work, and opened (loaded, or connected) when the command needs it.
 */
import { endpointAnswerGenerator, localAnswerGenerator } from '../core/answers/generators';
import type { ReplySettings } from '../core/answers/reply-cache';
import { describeRequest, type EndpointConfig } from '../core/generate/openai';
import { TEST_GENERATOR_ID } from '../core/generate/generator-models';
import type { LocalGenerator } from '../core/generate/local';
import { modelSource } from '../node/model-source';
import { visible } from './terminal';
import { UsageError } from './usage';

/** A generator as the options name it (nothing loaded yet). */
export type GeneratorChoice = { kind: 'endpoint'; endpoint: EndpointConfig; contextTokens: number } | { kind: 'local'; model: string };

function apiKey(varName: string | undefined, option: string): string | undefined {
  if (!varName) return undefined;
  const key = process.env[varName];
  if (!key) throw new UsageError(`--${option} ${varName}: that environment variable is not set`);
  return key;
}

/** The generator the options name; `what` says which option needs one when none is given. */
export function generatorChoice(endpoint: string | undefined, model: string | undefined, keyVar: string | undefined, contextTokens: number, names: { endpoint: string; model: string; key: string; what: string }): GeneratorChoice {
  if (endpoint) {
    if (!model) throw new UsageError(`--${names.endpoint} needs --${names.model} NAME`);
    const key = apiKey(keyVar, names.key);
    return { kind: 'endpoint', endpoint: { baseUrl: endpoint, model, ...(key ? { apiKey: key } : {}) }, contextTokens };
  }
  if (!model) throw new UsageError(`${names.what} needs a generator: --endpoint URL --model NAME, or --model test (the TEST model)`);
  return { kind: 'local', model: model === 'test' ? TEST_GENERATOR_ID : model };
}

const retryLine = ({ reason, waitMs }: { reason: string; waitMs: number }) => process.stderr.write(`retry: ${visible(reason)}${waitMs ? `; waiting ${(waitMs / 1000).toFixed(1)} s` : ''}\n`);

export interface OpenGenerator {
  /** The generator with a run's settings (reply length, temperature), and its prompt assembly. */
  make: (settings: ReplySettings) => ReturnType<typeof endpointAnswerGenerator>;
  /** Exactly where a request goes and what it carries. */
  where: (messages: Parameters<typeof describeRequest>[1]) => string;
  dispose: () => Promise<void>;
}

/** Loads (a model here) or connects (an endpoint) the chosen generator. */
export async function openGenerator(choice: GeneratorChoice, concurrency: number): Promise<OpenGenerator> {
  if (choice.kind === 'endpoint') {
    return {
      make: (settings) => endpointAnswerGenerator(choice.endpoint, settings, { contextTokens: choice.contextTokens, concurrency, onRetry: retryLine }),
      where: (m) => describeRequest(choice.endpoint, m),
      dispose: async () => undefined,
    };
  }
  let lm: LocalGenerator;
  try {
    // transformers.js loads only when a model runs here.
    const { LocalGenerator } = await import('../core/generate/local');
    lm = await LocalGenerator.load({ model: choice.model, ...modelSource() });
  } catch (e) {
    throw new UsageError(`--model ${choice.model}: ${(e as Error).message.split('\n')[0]}`);
  }
  return {
    make: (settings) => localAnswerGenerator(lm, settings),
    where: () => `runs here (${lm.model}${lm.isTestModel ? ', a TEST MODEL' : ''}); nothing leaves this machine`,
    dispose: () => lm.dispose(),
  };
}
