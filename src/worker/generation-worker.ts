/**
 * The generation worker: one in-browser language model, loaded on request, answering one
 * prompt at a time. `onmessage` is set before transformers.js is imported (lazily), so no
 * message is lost while it loads.
 */
import { GENERATION_TAG, type GenerationRequest, type GenerationResponse, type LoadedGenerator } from './generation-protocol';

type Local = typeof import('../core/generate/local');
type Generator = import('../core/generate/local').LocalGenerator;

const post = (msg: GenerationResponse) => (self as unknown as Worker).postMessage({ tag: GENERATION_TAG, ...msg });
const controllers = new Map<number, AbortController>();
let generator: { gen: Generator; info: LoadedGenerator } | null = null;
// Loading and generating share the model: they run one after another.
let queue: Promise<unknown> = Promise.resolve();
// Counting and assembling only read the tokenizer: they wait for a load, not for an answer.
let loading: Promise<unknown> = Promise.resolve();

async function handle(req: Exclude<GenerationRequest, { type: 'stop' }>, controller: AbortController): Promise<unknown> {
  const { signal } = controller;
  const local: Local = await import('../core/generate/local');
  const { assemblePrompt } = await import('../core/generate/prompt');
  switch (req.type) {
    case 'load': {
      const env = await import('./model-env');
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
            post({
              id: req.id,
              type: 'progress',
              progress: { kind: 'load', status: p.status, ...(p.file ? { file: p.file } : {}), ...(p.loaded !== undefined ? { loaded: p.loaded } : {}), ...(p.total !== undefined ? { total: p.total } : {}) },
            }),
        });
        generator = { gen, info: { model: gen.model, contextTokens: gen.contextTokens, counter: gen.counter.name, device } };
        return generator.info;
      } catch (e) {
        if ((e as { name?: string }).name === 'GenerationError') throw e;
        throw new Error(env.describeLoadError(e, req.choice.model));
      }
    }
    case 'assemble': {
      const g = need();
      const contextTokens = Math.min(g.contextTokens, req.options.contextTokens ?? Infinity);
      return assemblePrompt(req.question, req.blocks, {
        contextTokens,
        answerTokens: req.options.answerTokens,
        counter: g.counter,
        headers: req.options.headers,
        ...(req.options.instructions ? { instructions: req.options.instructions } : {}),
      });
    }
    case 'count':
      return need().countChat(req.messages);
    case 'generate': {
      const flag = req.stopFlag ? new Int32Array(req.stopFlag) : null;
      return need().stream(req.messages, {
        signal,
        maxTokens: req.maxTokens,
        temperature: req.temperature,
        onToken: (text) => {
          post({ id: req.id, type: 'progress', progress: { kind: 'token', text } });
          // Read synchronously between tokens: the stop message cannot arrive mid-answer.
          if (flag && Atomics.load(flag, 0) === 1 && !signal.aborted) controller.abort();
        },
      });
    }
  }
}

function need(): Generator {
  if (!generator) throw new Error('no in-browser model is loaded');
  return generator.gen;
}

self.onmessage = (event: MessageEvent) => {
  const data = event.data as ({ tag?: string } & GenerationRequest) | undefined;
  if (!data || data.tag !== GENERATION_TAG) return;
  const req = data as GenerationRequest;
  if (req.type === 'stop') {
    controllers.get(req.target)?.abort();
    post({ id: req.id, type: 'result', result: controllers.has(req.target) });
    return;
  }
  const controller = new AbortController();
  controllers.set(req.id, controller);
  const run = async () => {
    try {
      post({ id: req.id, type: 'result', result: await handle(req, controller) });
    } catch (e) {
      const err = e as { message?: string; kind?: string };
      post({ id: req.id, type: 'error', message: err?.message ?? String(e), ...(err?.kind ? { kind: err.kind as never } : {}) });
    } finally {
      controllers.delete(req.id);
    }
  };
  if (req.type === 'count' || req.type === 'assemble') void loading.then(run);
  else {
    queue = queue.then(run);
    if (req.type === 'load') loading = queue;
  }
};
