/**
 * The embeddings endpoint's URL, request body and the checks on its reply: every failure is one
 * EmbeddingEndpointError sentence naming the URL (and the model where it matters).
 */
import { clip, quoteClip, redactKey, serverMessage, tryJson, isObject } from '../generate/endpoint-replies';
import { endpointUrl, EndpointUrlError } from '../util/endpoint-url';

export type EndpointErrorKind = 'config' | 'unreachable' | 'auth' | 'not-found' | 'rate-limit' | 'server' | 'bad-response' | 'bad-vectors';

export class EmbeddingEndpointError extends Error {
  constructor(
    message: string,
    readonly kind: EndpointErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingEndpointError';
  }
}

/** The embeddings URL for a base URL, as chatCompletionsUrl does for chat (see endpointUrl). */
export function embeddingsUrl(baseUrl: string): string {
  try {
    return endpointUrl(baseUrl, '/embeddings', 'the embedding endpoint URL');
  } catch (e) {
    if (e instanceof EndpointUrlError) throw new EmbeddingEndpointError(e.message, 'config');
    throw e;
  }
}

export function embeddingsBody(model: string, input: string[], dimensions?: number): string {
  return JSON.stringify({ model, input, encoding_format: 'float', ...(dimensions ? { dimensions } : {}) });
}

const MAX_SHOWN = 200;

/** The error for a non-2xx answer; `retryable` says whether trying again may help. */
export function httpFailure(status: number, body: string, url: string, model: string, key: string | undefined): { error: EmbeddingEndpointError; retryable: boolean } {
  const msg = clip(redactKey(serverMessage(body), key ?? ''), MAX_SHOWN);
  const http = msg === '' ? `(HTTP ${status})` : `(HTTP ${status}: ${msg})`;
  const e = (m: string, kind: EndpointErrorKind, retryable = false) => ({ error: new EmbeddingEndpointError(m, kind, status), retryable });
  if (status === 401 || status === 403) return e(key ? `the embedding endpoint ${url} refused the key ${http}` : `the embedding endpoint ${url} refused the request ${http} — no key was sent; give one`, 'auth');
  if (status === 404) return e(`no embeddings at ${url}, or no model "${model}" there ${http}`, 'not-found');
  if (status === 429) return e(`the embedding endpoint ${url} is limiting requests ${http}`, 'rate-limit', true);
  if (status >= 500) return e(`the embedding endpoint ${url} failed ${http}`, 'server', true);
  return e(`the embedding endpoint ${url} rejected the request for model "${model}" ${http}`, 'server');
}

/**
 * The vectors of a 2xx reply, in input order (by `index`), each checked: the count, the
 * dimension, finite numbers, not all zero for a text that has words. Returned L2-normalised.
 */
export function parseEmbeddings(body: string, contentType: string, url: string, model: string, texts: string[], dim: number | undefined): { vectors: Float32Array; dim: number } {
  const obj = tryJson(body);
  if (obj === undefined) {
    const html = /^\s*</.test(body) || /html/i.test(contentType);
    throw new EmbeddingEndpointError(
      html ? `${url} answered with a web page (HTML), not JSON: check that the URL points at the API (often it ends in /v1)` : `${url} answered with something that is not JSON (${quoteClip(body || 'an empty body')})`,
      'bad-response',
    );
  }
  const data = isObject(obj) ? obj.data : undefined;
  if (!Array.isArray(data)) {
    const err = isObject(obj) && obj.error !== undefined ? `: ${clip(serverMessage(body), MAX_SHOWN)}` : '';
    throw new EmbeddingEndpointError(`${url} answered without a "data" list of embeddings${err}`, 'bad-response');
  }
  if (data.length !== texts.length) throw new EmbeddingEndpointError(`${url} returned ${data.length} vectors for ${texts.length} texts (model "${model}")`, 'bad-vectors');
  const rows = data.map((d, i) => ({ index: isObject(d) && typeof d.index === 'number' ? d.index : i, embedding: isObject(d) ? d.embedding : undefined }));
  rows.sort((a, b) => a.index - b.index);
  const size = dim ?? (Array.isArray(rows[0]?.embedding) ? (rows[0]!.embedding as unknown[]).length : 0);
  if (!size) throw new EmbeddingEndpointError(`${url} returned an empty or unreadable vector (model "${model}"); base64 replies are not read, floats are asked for`, 'bad-vectors');
  const vectors = new Float32Array(texts.length * size);
  rows.forEach((r, i) => {
    const v = r.embedding;
    if (!Array.isArray(v)) throw new EmbeddingEndpointError(`${url} returned an unreadable vector for text ${i + 1} of the batch (model "${model}")`, 'bad-vectors');
    if (v.length !== size) throw new EmbeddingEndpointError(`${url} returned a vector of ${v.length} dimensions, expected ${size} (model "${model}")`, 'bad-vectors');
    let s = 0;
    for (const x of v) {
      if (typeof x !== 'number' || !Number.isFinite(x)) throw new EmbeddingEndpointError(`${url} returned a vector with NaN or non-numbers for text ${i + 1} of the batch (model "${model}")`, 'bad-vectors');
      s += x * x;
    }
    if (s === 0 && /[\p{L}\p{N}]/u.test(texts[i]!)) throw new EmbeddingEndpointError(`${url} returned an all-zero vector for a text with words (model "${model}")`, 'bad-vectors');
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    const row = vectors.subarray(i * size, (i + 1) * size);
    for (let d = 0; d < size; d++) row[d] = (v[d] as number) * inv;
  });
  return { vectors, dim: size };
}
