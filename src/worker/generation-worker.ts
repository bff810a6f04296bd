/**
 * The generation worker: one in-browser language model, loaded on request, answering one
 * prompt at a time. The RPC listens before transformers.js is imported (lazily), so no
 * message is lost while it loads.
 */
import { describeError, serve, type RpcContext } from '../rpc/server';
import { RpcError, type RpcPort } from '../rpc/wire';
import { GENERATION_TAG, type GenerationApi, type GenerationProgress, type LoadedGenerator } from './generation-protocol';

type Generator = import('../core/generate/local').LocalGenerator;

let generator: { gen: Generator; info: LoadedGenerator } | null = null;

function need(): Generator {
  if (!generator) throw new RpcError('no-model', 'no in-browser model is loaded');
  return generator.gen;
}

async function load(req: GenerationApi['load']['params'], ctx: RpcContext<GenerationProgress>): Promise<LoadedGenerator> {
  const env = await import('./model-env');
  const local = await import('../core/generate/local');
  env.configureRuntime(req.ortWasm, req.threads);
  if (generator) await generator.gen.dispose().catch(() => undefined);
  generator = null;
  try {
    await env.configureModelSource(req.choice, req.modelsUrl);
    const device = await env.pickDevice(req.choice.device);
    const gen = await local.LocalGenerator.load({
      model: req.choice.model,
      dtype: req.choice.dtype,
      device,
      onLoadProgress: (p) =>
        ctx.progress({ kind: 'load', status: p.status, ...(p.file ? { file: p.file } : {}), ...(p.loaded !== undefined ? { loaded: p.loaded } : {}), ...(p.total !== undefined ? { total: p.total } : {}) }),
    });
    generator = { gen, info: { model: gen.model, contextTokens: gen.contextTokens, counter: gen.counter.name, device } };
    return generator.info;
  } catch (e) {
    if ((e as { name?: string }).name === 'GenerationError') throw e;
    throw new RpcError('model-unavailable', (e as Error)?.message ?? String(e), env.describeLoadError(e, req.choice.model));
  }
}

async function generate(req: GenerationApi['generate']['params'], ctx: RpcContext<GenerationProgress>) {
  const flag = req.stopFlag ? new Int32Array(req.stopFlag) : null;
  // The signal the model reads: cancelled by the page's cancel, or by the shared stop flag.
  const stop = new AbortController();
  ctx.signal.addEventListener('abort', () => stop.abort(), { once: true });
  if (ctx.signal.aborted) stop.abort();
  return need().stream(req.messages, {
    signal: stop.signal,
    maxTokens: req.maxTokens,
    temperature: req.temperature,
    onToken: (text) => {
      ctx.progress({ kind: 'token', text });
      // Read synchronously between tokens: the cancel message cannot arrive mid-answer.
      if (flag && Atomics.load(flag, 0) === 1 && !stop.signal.aborted) stop.abort();
    },
  });
}

serve<GenerationApi>(
  self as unknown as RpcPort,
  GENERATION_TAG,
  {
    // Loading and generating share the model: they run one after another.
    load: { concurrency: 'serial', run: load },
    generate: { concurrency: 'serial', run: generate },
    // Counting and assembling only read the tokenizer: they wait for a load, not for an answer.
    assemble: {
      concurrency: { after: ['load'] },
      run: async (req) => {
        const { assemblePrompt } = await import('../core/generate/prompt');
        const g = need();
        return assemblePrompt(req.question, req.blocks, {
          contextTokens: Math.min(g.contextTokens, req.options.contextTokens ?? Infinity),
          answerTokens: req.options.answerTokens,
          counter: g.counter,
          headers: req.options.headers,
          ...(req.options.instructions ? { instructions: req.options.instructions } : {}),
        });
      },
    },
    count: { concurrency: { after: ['load'] }, run: (req) => need().countChat(req.messages) },
  },
  {
    // A GenerationError travels with its kind: the page rebuilds the same error.
    describeError: (e) => {
      const g = e as { name?: string; kind?: string; message?: string };
      return g?.name === 'GenerationError' ? { code: 'generation', message: g.message ?? '', data: { kind: g.kind } } : describeError(e);
    },
  },
);
