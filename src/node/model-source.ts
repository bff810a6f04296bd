/**
 * Where models come from in Node (the project's model folder, the hub only when allowed), kept
 * without loading transformers.js: the CLI records it when it makes an engine and hands it to
 * each model it loads (the loaders configure transformers.js with it), so a command that runs no
 * model — BM25 over a saved corpus — never imports transformers.js or ONNX Runtime.
 */
import { resolve } from 'node:path';
import type { ModelSource } from '../core/embed/transformers-embedder';
import { PROJECT_MODELS_DIR } from './paths';

export interface NodeModelOptions {
  modelsDir?: string;
  allowRemoteModels?: boolean;
}

let source: Required<ModelSource> = sourceOf({});

function sourceOf(options: NodeModelOptions): Required<ModelSource> {
  const dir = resolve(options.modelsDir ?? PROJECT_MODELS_DIR);
  return { localModelPath: dir.endsWith('/') ? dir : `${dir}/`, allowRemoteModels: options.allowRemoteModels ?? false };
}

/** Records where models come from (the project's model folder and no hub unless told). */
export function setModelSource(options: NodeModelOptions): Required<ModelSource> {
  return (source = sourceOf(options));
}

/** Where models come from, as last recorded: spread into a model loader's options. */
export function modelSource(): Required<ModelSource> {
  return { ...source };
}
