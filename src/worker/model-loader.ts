/**
 * Loading the lab's two models — the embedder and the cross-encoder reranker — from the
 * self-hosted folder or the hub, with download progress; a failure becomes a status with a
 * coded reason, never an exception.
 */
import type { Embedder } from '../core/embed/embedder';
import { endpointConfig, type EndpointChoice } from '../core/embed/endpoint-choice';
import { EndpointEmbedder } from '../core/embed/endpoint-embedder';
import { lateChunkingOf } from '../core/embed/late-chunking';
import { CrossEncoderReranker, type Reranker } from '../core/embed/reranker';
import { TransformersEmbedder } from '../core/embed/transformers-embedder';
import { configureModelSource, describeLoadError, pickDevice } from './model-env';
import type { ModelChoice, ModelProgress, ModelStatus } from './protocol';

type Role = ModelProgress['role'];

/** Forwards transformers.js download events as model progress. */
function progressOf(role: Role, emit: (p: ModelProgress) => void) {
  return (p: { status: string; file?: string; loaded?: number; total?: number }) =>
    emit({ kind: 'model', role, status: p.status, ...(p.file ? { file: p.file } : {}), ...(p.loaded !== undefined ? { loaded: p.loaded } : {}), ...(p.total !== undefined ? { total: p.total } : {}) });
}

export interface Loaded<M> {
  model: M | null;
  status: ModelStatus;
}

/**
 * An endpoint is checked with one fixed text (EndpointEmbedder.connect), never the user's; the
 * browser's own fetch carries the requests, so the page's CSP and the server's CORS apply.
 */
async function loadEndpoint(e: EndpointChoice): Promise<Loaded<Embedder>> {
  const label = `"${e.model.trim()}" at ${e.baseUrl.trim()}`;
  try {
    const model = await EndpointEmbedder.connect(endpointConfig(e), {
      ...(e.batchSize ? { batchSize: e.batchSize } : {}),
      ...(e.concurrency ? { concurrency: e.concurrency } : {}),
      fetch: (input, init) => globalThis.fetch(input, init),
    });
    return { model, status: { state: 'ready', model: `${e.model.trim()} at ${model.url}`, dim: model.dim, isTestModel: false, lateChunking: lateChunkingOf(model) } };
  } catch (err) {
    // The endpoint's own sentence names the URL and model; the page shows it as is.
    return { model: null, status: { state: 'failed', model: label, failure: { code: 'load-failed', model: label, detail: (err as Error).message } } };
  }
}

export async function loadEmbedder(choice: ModelChoice | null, modelsUrl: string, emit: (p: ModelProgress) => void): Promise<Loaded<Embedder>> {
  if (!choice) return { model: null, status: { state: 'none' } };
  if (choice.endpoint) return loadEndpoint(choice.endpoint);
  try {
    await configureModelSource(choice, modelsUrl);
    const device = await pickDevice(choice.device);
    // Changed settings or a cut size make other vectors: the embedder's model key (its `model`) says so, and the page shows it.
    const model = await TransformersEmbedder.load({
      model: choice.model,
      dtype: choice.dtype,
      device,
      ...(choice.settings && Object.keys(choice.settings).length ? { settings: choice.settings } : {}),
      ...(choice.dimensions ? { dimensions: choice.dimensions } : {}),
      onLoadProgress: progressOf('embedder', emit),
    });
    return { model, status: { state: 'ready', model: model.model, dim: model.dim, isTestModel: model.isTestModel, lateChunking: lateChunkingOf(model) } };
  } catch (e) {
    return { model: null, status: { state: 'failed', model: choice.model, failure: describeLoadError(e, choice.model) } };
  }
}

export async function loadReranker(choice: ModelChoice | null, modelsUrl: string, emit: (p: ModelProgress) => void): Promise<Loaded<Reranker>> {
  if (!choice) return { model: null, status: { state: 'none' } };
  try {
    await configureModelSource(choice, modelsUrl);
    const model = await CrossEncoderReranker.load({
      model: choice.model,
      dtype: choice.dtype === 'q8' ? 'q8' : 'fp32',
      device: await pickDevice(choice.device),
      onLoadProgress: progressOf('reranker', emit),
    });
    return { model, status: { state: 'ready', model: choice.model, isTestModel: choice.model.startsWith('rag-lab/') } };
  } catch (e) {
    return { model: null, status: { state: 'failed', model: choice.model, failure: describeLoadError(e, choice.model) } };
  }
}
