/**
 * An embedding endpoint as a user chooses it (URL, model, optional key and size, batching), the
 * prompts its model gets from a matching preset, and the statement shown before any text is
 * sent: how many units, about how many tokens, to which URL — worded with the same helpers as
 * the chat endpoint's (generate/endpoint-request.ts).
 */
import { hasKey, isLoopback, plural } from '../generate/endpoint-replies';
import type { EmbeddingEndpointConfig, EndpointTuning } from './endpoint-embedder';
import { embeddingsUrl } from './endpoint-reply';
import { EMBEDDING_PRESETS, findPreset, type EmbeddingPreset } from './presets';

/** What the page sends the worker to embed through an endpoint (the key only in memory). */
export type EndpointChoice = Pick<EmbeddingEndpointConfig, 'baseUrl' | 'model' | 'apiKey' | 'dimensions'> & Pick<EndpointTuning, 'batchSize' | 'concurrency'>;

/** A preset whose prompts fit an endpoint's model name ("nomic-embed-text:latest" → nomic-embed-text-v1.5). */
export function presetForEndpointModel(model: string): EmbeddingPreset | undefined {
  const base = model.toLowerCase().replace(/:[^/]*$/, '').split('/').pop()!;
  return findPreset(model) ?? EMBEDDING_PRESETS.find((p) => p.name.toLowerCase() === base || p.name.toLowerCase().startsWith(`${base}-v`));
}

/** The endpoint config with the matching preset's prompts (none when no preset matches). */
export function endpointConfig(c: EndpointChoice): EmbeddingEndpointConfig {
  const preset = presetForEndpointModel(c.model);
  return {
    baseUrl: c.baseUrl,
    model: c.model.trim(),
    ...(c.apiKey?.trim() ? { apiKey: c.apiKey.trim() } : {}),
    ...(c.dimensions ? { dimensions: c.dimensions } : {}),
    ...(preset ? { queryPrefix: preset.queryPrefix, passagePrefix: preset.passagePrefix } : {}),
  };
}

/** What embedding a corpus sends: units per kind of text and their estimated tokens. */
export interface EmbeddingSendPlan {
  units: number;
  tokens: number;
  parts: { what: string; count: number }[];
}

/**
 * The statement shown before the first request: "All N units' text (~T tokens, estimated) will
 * be sent to <URL> (model M)." then how, what else goes, and whether it leaves the machine.
 * Never contains the key. A URL that cannot be used says so instead.
 */
export function describeEmbeddingSend(c: EndpointChoice, plan: EmbeddingSendPlan, defaults: { batchSize: number; concurrency: number }): { headline: string; details: string[] } {
  let url: string;
  try {
    url = embeddingsUrl(c.baseUrl);
  } catch (err) {
    return { headline: `Nothing can be sent: ${(err as Error).message}.`, details: [] };
  }
  const model = c.model.trim();
  const host = new URL(url);
  const preset = presetForEndpointModel(model);
  const tokens = plan.tokens.toLocaleString('en-US');
  return {
    headline: `All ${plural(plan.units, 'unit')}${plan.units === 1 ? "'s" : "'"} text (~${tokens} tokens, estimated) will be sent to ${url} (model ${model}).`,
    details: [
      plan.parts.length ? `That is ${plan.parts.map((p) => `${p.count.toLocaleString('en-US')} ${p.what}`).join(', ')}.` : 'There are no documents yet.',
      `In batches of ${c.batchSize ?? defaults.batchSize}, ${c.concurrency ?? defaults.concurrency} requests at a time${c.dimensions ? `, asking for ${c.dimensions} dimensions` : ''}; a fixed test text ("dimension probe") goes first to learn the vector size.`,
      preset ? `Each text starts with the ${preset.name} preset's prompt (${preset.queryPrefix ? JSON.stringify(preset.queryPrefix) : 'none'} for questions, ${preset.passagePrefix ? JSON.stringify(preset.passagePrefix) : 'none'} for units).` : 'No prompt is added (no preset matches this model name).',
      'Each question you ask while this model is chosen goes there too, and so does the text of documents you add later. Vectors this browser already keeps for this endpoint and model are not sent again.',
      hasKey({ baseUrl: c.baseUrl, model, apiKey: c.apiKey ?? '' }) ? 'An API key is sent in the Authorization header (the key itself is not shown here).' : 'No API key is sent.',
      isLoopback(host.hostname) ? 'The endpoint is on this machine, so the text does not leave it.' : `The text leaves this machine for ${host.host}${host.protocol === 'http:' ? ', unencrypted (plain http)' : ''}.`,
    ],
  };
}

/** An endpoint choice as one URL parameter (never the key): {"u":base,"m":model,"d":dims,"b":batch,"c":concurrency}. */
export function endpointToParam(e: EndpointChoice): string {
  return JSON.stringify({ u: e.baseUrl, m: e.model, ...(e.dimensions ? { d: e.dimensions } : {}), ...(e.batchSize ? { b: e.batchSize } : {}), ...(e.concurrency ? { c: e.concurrency } : {}) });
}

/** The parameter read back, or a sentence saying why it is not a usable endpoint. */
export function endpointFromParam(raw: string): EndpointChoice | string {
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch {
    return 'not JSON';
  }
  if (typeof o !== 'object' || o === null) return 'not an endpoint';
  const { u, m, d, b, c } = o as Record<string, unknown>;
  const int = (v: unknown, max: number) => v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= max);
  if (typeof u !== 'string' || typeof m !== 'string' || !m.trim() || m.length > 200) return 'it needs a base URL and a model';
  try {
    embeddingsUrl(u);
  } catch (err) {
    return (err as Error).message;
  }
  if (!int(d, 65536) || !int(b, 2048) || !int(c, 32)) return 'dimensions, batch size or concurrency out of range';
  return { baseUrl: u, model: m, ...(d ? { dimensions: d as number } : {}), ...(b ? { batchSize: b as number } : {}), ...(c ? { concurrency: c as number } : {}) };
}
