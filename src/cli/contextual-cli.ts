/**
 * --contextual for index, query, eval and export: situating contexts written for one unit kind
 * (--context-unit, default naive chunks) by the generator the question commands use (--endpoint
 * URL --model NAME [--api-key-env VAR], or --model rag-lab/test-generator: the TEST model, run
 * here), then contextual retrieval switched on. The plan (calls, tokens, time, what is sent
 * where) is printed before the first call; Ctrl-C stops the run and keeps what was written;
 * units that already have a context (a saved corpus's) are never sent again.
 */
import type { ContextualValues } from './option-tables';
import { CONTEXT_UNIT_KINDS, type ContextUnitKind } from '../core/context/context-store';
import { generateContexts, planContexts, unitContextKey, type ContextGenerator } from '../core/context/generate-contexts';
import { DEFAULT_ENDPOINT_CONTEXT_TOKENS, endpointContextGenerator, localContextGenerator } from '../core/context/generators';
import { contextMessages, DEFAULT_CONTEXT_PROMPT } from '../core/context/prompt';
import type { RetrievalEngine } from '../core/engine';
import { describeRequest, type EndpointConfig } from '../core/generate/openai';
import type { LocalGenerator } from '../core/generate/local';
import { TEST_GENERATOR_ID } from '../core/generate/generator-models';
import { modelSource } from '../node/model-source';
import { ProgressBar } from './progress';
import { visible } from './terminal';
import { UsageError } from './usage';




/** The unit kind contexts are written for (--context-unit, as the Contextual chunks column reads it). */
export function contextKind(values: ContextualValues): ContextUnitKind {
  const v = values['context-unit'];
  if (v === undefined) return 'chunk';
  if (typeof v !== 'string' || !(CONTEXT_UNIT_KINDS as readonly string[]).includes(v)) throw new UsageError(`--context-unit must be ${CONTEXT_UNIT_KINDS.join(', ')}, got "${String(v)}"`);
  return v as ContextUnitKind;
}

/** The generator the options name, or null when none is named; a wrong combination is a UsageError. */
export async function contextGenerator(values: ContextualValues): Promise<{ generator: ContextGenerator; endpoint: EndpointConfig | null; dispose(): Promise<void> } | null> {
  if (values.endpoint) {
    if (!values.model) throw new UsageError('--contextual: --endpoint needs --model NAME');
    let apiKey: string | undefined;
    if (values['api-key-env']) {
      apiKey = process.env[values['api-key-env']];
      if (!apiKey) throw new UsageError(`--api-key-env ${values['api-key-env']}: that environment variable is not set`);
    }
    const tokens = values['context-tokens'];
    const contextTokens = tokens === undefined ? DEFAULT_ENDPOINT_CONTEXT_TOKENS : Number(tokens);
    if (!Number.isInteger(contextTokens) || contextTokens < 512) throw new UsageError(`--context-tokens must be a whole number ≥ 512, got "${tokens}"`);
    const endpoint: EndpointConfig = { baseUrl: values.endpoint, model: values.model, ...(apiKey ? { apiKey } : {}) };
    const generator = endpointContextGenerator(endpoint, { contextTokens, onRetry: ({ reason, waitMs }) => process.stderr.write(`retry: ${visible(reason)}${waitMs ? `; waiting ${(waitMs / 1000).toFixed(1)} s` : ''}\n`) });
    return { generator, endpoint, dispose: async () => undefined };
  }
  if (!values.model) return null;
  if (values['context-tokens'] !== undefined) throw new UsageError('--context-tokens is for an endpoint: a model run here says its own');
  let lm: LocalGenerator;
  try {
    // transformers.js loads only when a model runs here.
    const { LocalGenerator } = await import('../core/generate/local');
    lm = await LocalGenerator.load({ model: values.model === 'test' ? TEST_GENERATOR_ID : values.model, ...modelSource() });
  } catch (e) {
    throw new UsageError(`--model ${values.model}: ${(e as Error).message.split('\n')[0]}`);
  }
  return { generator: localContextGenerator(lm), endpoint: null, dispose: () => lm.dispose() };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * With --contextual: writes the missing contexts of the chosen kind (plan first, progress, Ctrl-C
 * keeps what was written), switches contextual retrieval on and embeds the contexts. Returns the
 * kind, or null without --contextual.
 */
export async function applyContextual(engine: RetrievalEngine, values: ContextualValues, options: { switchOn?: boolean } = {}): Promise<ContextUnitKind | null> {
  if (!values.contextual && !values['sweep-contextual']) return null;
  const kind = contextKind(values);
  const store = engine.contexts.store;
  const missing = engine.unitCount(kind) - countWritten(engine, kind);
  const chosen = await contextGenerator(values);
  if (!chosen && missing > 0) {
    throw new UsageError(`--contextual: ${missing} of ${engine.unitCount(kind)} ${kind} units have no context and no generator is given: --endpoint URL --model NAME, or --model ${TEST_GENERATOR_ID} (the TEST model)`);
  }
  if (chosen && missing > 0) {
    try {
      const g = chosen.generator;
      const plan = planContexts(engine, kind, store, { generator: g });
      for (const note of plan.notes) process.stderr.write(`note: ${visible(note)}\n`);
      const where = chosen.endpoint ? describeRequest(chosen.endpoint, contextMessages(DEFAULT_CONTEXT_PROMPT, { document: engine.corpus.docs[0]!.text, chunk: '…', title: '', language: '' })) : `runs here (${g.source}); nothing leaves this machine`;
      process.stderr.write(
        `contexts: ${plan.calls} ${kind} units without one (${plan.have} have one) in ${plan.documents} documents; ${plan.calls} calls, about ${plan.promptTokens} prompt tokens ` +
          `(${plan.cachedPrefixTokens} of them the same document prefix again, which an endpoint with prompt caching reuses) + ${plan.replyTokens} reply tokens, about ${plan.seconds} s at an ${plan.rate} rate\n` +
          `each call: ${visible(where)}\n`,
      );
      const controller = new AbortController();
      const onSigint = () => {
        process.stderr.write('\nstopping: the contexts written so far are kept\n');
        controller.abort();
      };
      process.once('SIGINT', onSigint);
      const bar = new ProgressBar(`contexts (${kind})`);
      const r = await generateContexts({ units: engine, kind, store, generator: g, signal: controller.signal, onProgress: (p) => bar.update(p.done, p.total) });
      process.off('SIGINT', onSigint);
      const p = r.progress;
      process.stderr.write(`contexts: ${p.written} written${p.cut ? ` (${p.cut} cut to the limit)` : ''}, ${p.failed} failed, ${p.calls} calls in ${seconds(p.elapsedMs)}${r.cancelled ? ' (stopped: the rest keep their plain text)' : ''}\n`);
      if (r.failed.length) process.stderr.write(`first failure: ${visible(r.failed[0]!.reason)}\n`);
      if (r.error) process.stderr.write(`error: ${visible(r.error)}\n`);
    } finally {
      await chosen.dispose();
    }
  } else await chosen?.dispose();
  if (options.switchOn !== false) engine.setContextual(true);
  if (engine.embedder) await engine.contexts.embed(kind);
  const { written, total } = engine.contexts.coverage(kind);
  process.stderr.write(`contextual retrieval: ${written} of ${total} ${kind} units have a context${written < total ? `; the other ${total - written} are retrieved by their plain text` : ''}\n`);
  return kind;
}

function countWritten(engine: RetrievalEngine, kind: ContextUnitKind): number {
  let n = 0;
  for (let id = 0; id < engine.unitCount(kind); id++) if (engine.contexts.store.has(unitContextKey(engine, kind, id))) n++;
  return n;
}
