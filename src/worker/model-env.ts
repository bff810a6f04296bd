/**
 * Where a worker's transformers.js finds ONNX Runtime and models. Each worker has its own
 * copy of transformers.js's global `env`, so the indexing worker and the generation worker
 * both call these.
 */
import { env } from '@huggingface/transformers';
import type { Device, ModelChoice, ModelFailure } from './protocol';

const HUB_HOST = 'https://huggingface.co/';
const HUB_PATH = '{model}/resolve/{revision}/';

/** The self-hosted folder does not hold a model's files (a static server answers with its index.html). */
export class ModelFilesNotFound extends Error {
  constructor(readonly folder: string) {
    super(`model files not found at ${folder}`);
    this.name = 'ModelFilesNotFound';
  }
}

/**
 * ONNX Runtime's wasm is self-hosted: nothing is fetched from a CDN. transformers.js's wasm
 * cache would re-import ORT's loader from a blob: URL, which the page's CSP (script-src
 * 'self') forbids; ORT loads it from its own URL instead.
 */
export function configureRuntime(ortWasm: { mjs: string; wasm: string }, threads: number): void {
  env.useWasmCache = false;
  const onnx = env.backends.onnx as { wasm?: { wasmPaths?: unknown; numThreads?: number } };
  if (onnx.wasm) {
    onnx.wasm.wasmPaths = { ...ortWasm };
    onnx.wasm.numThreads = threads;
  }
}

/**
 * Self-hosted models go through transformers.js's remote path with this site as the host: it
 * then reads file sizes with HEAD/range requests and keeps files in the browser cache. (Its
 * "local" path fetches each file whole twice and leaves the first body unread, which broke
 * later downloads with "network error"; for http:// local paths it also misses tokenizers.)
 * A self-hosted model is checked first: a static server answers a missing file with its
 * index.html, so an OK response alone proves nothing.
 */
export async function configureModelSource(choice: Pick<ModelChoice, 'model' | 'source'>, modelsUrl: string): Promise<void> {
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  if (choice.source !== 'local') {
    env.remoteHost = HUB_HOST;
    env.remotePathTemplate = HUB_PATH;
    return;
  }
  const models = new URL(modelsUrl);
  env.remoteHost = `${models.origin}/`;
  env.remotePathTemplate = `${models.pathname.replace(/^\//, '')}{model}/`;
  const folder = `${modelsUrl}${choice.model}/`;
  let ok = false;
  try {
    for (const file of ['config.json', 'tokenizer.json']) {
      const r = await fetch(`${folder}${file}`);
      ok = r.ok && (await r.text()).trim().startsWith('{');
      if (!ok) break;
    }
  } catch {
    ok = false;
  }
  if (!ok) throw new ModelFilesNotFound(folder);
}

/** WebGPU only when the browser really gives an adapter; WASM otherwise. */
export async function pickDevice(device: Device): Promise<'wasm' | 'webgpu'> {
  if (device !== 'webgpu') return 'wasm';
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  const adapter = gpu ? await gpu.requestAdapter().catch(() => null) : null;
  return adapter ? 'webgpu' : 'wasm';
}

/** Why a model failed to load, as a code the page words. */
export function describeLoadError(e: unknown, model: string): ModelFailure {
  if (e instanceof ModelFilesNotFound) return { code: 'not-found', folder: e.folder };
  const msg = (e as Error)?.message ?? String(e);
  if (/Failed to fetch|NetworkError|fetch failed|ERR_/i.test(msg)) return { code: 'offline', model };
  if (/Unexpected token|JSON/i.test(msg)) return { code: 'not-model-files', model };
  return { code: 'load-failed', model, detail: msg.split('\n')[0] ?? '' };
}
