/**
 * Node-only wiring for the core (CLI, tests, benchmarks): where models and voy's wasm
 * come from. The core itself stays free of Node and DOM imports.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { configureModelSource } from '../core/embed/transformers-embedder';
import { setVoyWasmSource } from '../core/index/voy-index';
import { setOcrEnvironment } from '../core/documents/ocr';
import { nodeOcrEnvironment } from './ocr-env';
import { setModelSource, type NodeModelOptions } from './model-source';

export { PROJECT_MODELS_DIR, PROJECT_ROOT, SHARED_DATA } from './paths';

const require = createRequire(import.meta.url);

/** Everything at once, transformers.js included (tests, benchmarks); the CLI loads each part where it is needed (model-source.ts). */
export function setupNode(options: NodeModelOptions = {}): void {
  configureModelSource(setModelSource(options));
  setVoyWasmSource(() => readFile(require.resolve('voy-search/voy_search_bg.wasm')));
  setOcrEnvironment(nodeOcrEnvironment());
}
