import { describe, expect, it } from 'vitest';
import { describeEmbeddingSend, endpointConfig, endpointFromParam, endpointToParam, presetForEndpointModel, type EmbeddingSendPlan } from './endpoint-choice';

const PLAN: EmbeddingSendPlan = { units: 1250, tokens: 31400, parts: [{ what: 'sentences', count: 1000 }, { what: 'leafs', count: 250 }] };
const DEFAULTS = { batchSize: 64, concurrency: 4 };

describe('what the page says before text goes to an embedding endpoint', () => {
  it('a local endpoint, no key, a model with a preset: count, tokens, URL, model, batching, prompts', () => {
    expect(describeEmbeddingSend({ baseUrl: 'http://127.0.0.1:11434', model: 'nomic-embed-text:latest' }, PLAN, DEFAULTS)).toEqual({
      headline: "All 1,250 units' text (~31,400 tokens, estimated) will be sent to http://127.0.0.1:11434/v1/embeddings (model nomic-embed-text:latest).",
      details: [
        'That is 1,000 sentences, 250 leafs.',
        'In batches of 64, 4 requests at a time; a fixed test text ("dimension probe") goes first to learn the vector size.',
        'Each text starts with the nomic-embed-text-v1.5 preset\'s prompt ("search_query: " for questions, "search_document: " for units).',
        'Each question you ask while this model is chosen goes there too, and so does the text of documents you add later. Vectors this browser already keeps for this endpoint and model are not sent again.',
        'No API key is sent.',
        'The endpoint is on this machine, so the text does not leave it.',
      ],
    });
  });

  it('a remote endpoint with a key and dimensions: the key is said, never shown; the text leaves the machine', () => {
    const said = describeEmbeddingSend({ baseUrl: 'https://api.example.com/v1', model: 'text-embedding-3-small', apiKey: 'sk-secret', dimensions: 256, batchSize: 100, concurrency: 2 }, { units: 1, tokens: 9, parts: [{ what: 'sentences', count: 1 }] }, DEFAULTS);
    expect(said.headline).toBe("All 1 unit's text (~9 tokens, estimated) will be sent to https://api.example.com/v1/embeddings (model text-embedding-3-small).");
    expect(said.details.slice(1, 3)).toEqual(['In batches of 100, 2 requests at a time, asking for 256 dimensions; a fixed test text ("dimension probe") goes first to learn the vector size.', 'No prompt is added (no preset matches this model name).']);
    expect(said.details.slice(-2)).toEqual(['An API key is sent in the Authorization header (the key itself is not shown here).', 'The text leaves this machine for api.example.com.']);
    expect(JSON.stringify(said)).not.toContain('sk-secret');
    expect(describeEmbeddingSend({ baseUrl: 'http://gpu-box:8080', model: 'm' }, PLAN, DEFAULTS).details.at(-1)).toBe('The text leaves this machine for gpu-box:8080, unencrypted (plain http).');
  });

  it('a URL that cannot be used says so instead of a statement', () => {
    expect(describeEmbeddingSend({ baseUrl: 'localhost:11434', model: 'm' }, PLAN, DEFAULTS)).toEqual({
      headline: 'Nothing can be sent: "localhost:11434" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1.',
      details: [],
    });
  });
});

describe('an endpoint choice', () => {
  it("takes a preset's prompts by model name and drops an empty key", () => {
    expect(presetForEndpointModel('nomic-embed-text:latest')?.name).toBe('nomic-embed-text-v1.5');
    expect(presetForEndpointModel('text-embedding-3-small')).toBeUndefined();
    expect(endpointConfig({ baseUrl: 'http://h/v1', model: ' bge-small-en-v1.5 ', apiKey: '  ' })).toEqual({ baseUrl: 'http://h/v1', model: 'bge-small-en-v1.5', queryPrefix: 'Represent this sentence for searching relevant passages: ', passagePrefix: '' });
  });

  it('goes into the URL without its key and comes back the same; bad values are named', () => {
    const e = { baseUrl: 'http://127.0.0.1:5000/v1', model: 'mock-embed', dimensions: 32, batchSize: 16, concurrency: 2 };
    expect(endpointToParam({ ...e, apiKey: 'sk-1' })).toBe('{"u":"http://127.0.0.1:5000/v1","m":"mock-embed","d":32,"b":16,"c":2}');
    expect(endpointFromParam(endpointToParam({ ...e, apiKey: 'sk-1' }))).toEqual(e);
    expect(endpointFromParam('{"u":"ftp://x","m":"a"}')).toBe('"ftp://x" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1');
    expect(endpointFromParam('{"u":"http://h","m":""}')).toBe('it needs a base URL and a model');
    expect(endpointFromParam('{"u":"http://h","m":"a","b":0}')).toBe('dimensions, batch size or concurrency out of range');
    expect(endpointFromParam('nope')).toBe('not JSON');
  });
});
