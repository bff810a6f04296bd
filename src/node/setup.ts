/**
 * Node-only wiring for the core (CLI, tests, benchmarks): where models and voy's wasm
 * come from. The core itself stays free of Node and DOM imports.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { configureModelSource } from '../core/embed/transformers-embedder';
import { setVoyWasmSource } from '../core/index/voy-index';
import { setOcrEnvironment } from '../core/documents/ocr';
import { nodeOcrEnvironment } from './ocr-env';
import { PROJECT_MODELS_DIR } from './paths';

export { PROJECT_MODELS_DIR, PROJECT_ROOT, SHARED_DATA } from './paths';

const require = createRequire(import.meta.url);

export function setupNode(options: { modelsDir?: string; allowRemoteModels?: boolean } = {}): void {
  const dir = resolve(options.modelsDir ?? PROJECT_MODELS_DIR);
  configureModelSource({ localModelPath: dir.endsWith('/') ? dir : `${dir}/`, allowRemoteModels: options.allowRemoteModels ?? false });
  setVoyWasmSource(() => readFile(require.resolve('voy-search/voy_search_bg.wasm')));
  setOcrEnvironment(nodeOcrEnvironment());
}
