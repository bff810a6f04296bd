/**
 * The CLI's embedding model choice: `--embedder <preset | hub id | test | test-static | none>`,
 * or `--embedding-endpoint URL` (the model named by --embedder, the key read from the
 * environment variable --embedding-key-env names, never from the command line where shells and
 * `ps` keep it) with optional `--embedding-dimensions N` (Matryoshka size, or `dimensions` sent to
 * the endpoint). Says on stderr which settings are in use, which were guessed, and where text goes.
 */
import type { EmbedderValues } from './option-tables';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../core/embed/embedder';
import { presetForEndpointModel } from '../core/embed/endpoint-choice';
import { describeSettings, EMBEDDING_PRESETS, findPreset } from '../core/embed/presets';
import { modelSource } from '../node/model-source';




export { presetForEndpointModel } from '../core/embed/endpoint-choice';

function dimensionsOf(values: EmbedderValues, usage: (m: string) => Error): number | undefined {
  const raw = values['embedding-dimensions'];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw usage(`--embedding-dimensions: "${raw}" is not a positive whole number`);
  return n;
}

/** The embedder the options ask for, or null for `--embedder none`. `usage` makes the one-line user error. */
export async function loadEmbedderFromOptions(given: EmbedderValues, modelsDir: string, usage: (m: string) => Error): Promise<Embedder | null> {
  // A bundle or corpus names its model as the embedder made it: an endpoint's key asks for that endpoint.
  const values = given.embedder?.startsWith('endpoint:') ? { ...given, ...savedEmbedderValues(given.embedder, { ...given, embedder: undefined }, usage) } : given;
  const dimensions = dimensionsOf(values, usage);
  const endpoint = values['embedding-endpoint'];
  if (endpoint !== undefined) {
    const model = values.embedder;
    if (!model || model === 'test' || model === 'none') throw usage('--embedding-endpoint: name the endpoint\'s model with --embedder (e.g. --embedder nomic-embed-text)');
    const keyEnv = values['embedding-key-env'];
    if (keyEnv !== undefined && !process.env[keyEnv]) throw usage(`--embedding-key-env: the environment variable ${keyEnv} is not set`);
    const preset = presetForEndpointModel(model);
    try {
      // The HTTP client loads only when an endpoint embeds.
      const { EndpointEmbedder } = await import('../core/embed/endpoint-embedder');
      const e = await EndpointEmbedder.connect({
        baseUrl: endpoint,
        model,
        ...(keyEnv ? { apiKey: process.env[keyEnv] } : {}),
        ...(dimensions ? { dimensions } : {}),
        ...(preset ? { queryPrefix: preset.queryPrefix, passagePrefix: preset.passagePrefix } : {}),
      }, { onRetry: (r) => process.stderr.write(`note: ${r.reason}; trying again in ${(r.waitMs / 1000).toFixed(1)} s (retry ${r.attempt})\n`) });
      process.stderr.write(
        `note: embedding with ${e.url} (model "${model}", ${e.dim} dimensions): the text of every unit embedded and every question is sent there\n` +
          `note: prefixes ${preset ? `from the ${preset.name} preset: ${describeSettings(preset).split(' · ').slice(1, 3).join(' · ')}` : 'none (no preset matches this model name)'}\n`,
      );
      return e;
    } catch (err) {
      throw usage((err as Error).message);
    }
  }
  const choice = values.embedder ?? 'test';
  if (choice === 'none') return null;
  const preset = findPreset(choice);
  if (preset?.testModel && !existsSync(join(modelsDir, preset.id, 'onnx', 'model.onnx'))) {
    throw usage(`the ${preset.name === 'test' ? 'test embedder' : `test model ${preset.id}`} is not generated yet: run "npm run models:test" first`);
  }
  try {
    // transformers.js (and ONNX Runtime) load only when a model runs here.
    const { TransformersEmbedder } = await import('../core/embed/transformers-embedder');
    const e = await TransformersEmbedder.load({ model: choice, ...modelSource(), ...(dimensions ? { dimensions } : {}) });
    if (!e.isTestModel) {
      const guessed = e.guessed.length ? ` (guessed: ${e.guessed.join(', ')})` : '';
      process.stderr.write(`note: embedder ${e.model}: ${describeSettings(e.settings, e.dim, e.guessed)}${guessed}\n`);
    }
    return e;
  } catch (err) {
    const id = preset?.id ?? choice;
    throw usage(`cannot load embedding model "${id}" from ${modelsDir}${values.remote ? ' or the hub' : ' (add --remote to allow the hub)'}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/**
 * What to load for a saved corpus when --embedder is not given: its own model (and Matryoshka
 * size). A corpus embedded through an endpoint is never re-embedded silently with another model:
 * without --embedding-endpoint it is refused, naming the endpoint and model.
 */
export function savedEmbedderValues(saved: string | null, values: EmbedderValues, usage: (m: string) => Error): EmbedderValues {
  if (values.embedder) return { embedder: values.embedder };
  if (saved === null) return { embedder: 'none' };
  const m = /^endpoint:([^/]+)\/(.+)@(\d+)$/.exec(saved);
  if (m) {
    if (values['embedding-endpoint'] === undefined) throw usage(`this corpus was embedded by the endpoint at ${m[1]} (model "${m[2]}", ${m[3]} dimensions): give --embedding-endpoint URL --embedder ${m[2]}, or --embedder none`);
    return { embedder: m[2]! };
  }
  if (saved.includes('#')) throw usage(`this corpus was embedded by ${saved.split('#')[0]} with custom settings the CLI cannot repeat: give --embedder`);
  const [id, dims] = saved.split('@') as [string, string | undefined];
  const preset = findPreset(id);
  return { embedder: preset?.testModel ? preset.name : id, ...(dims ? { 'embedding-dimensions': dims } : {}) };
}
