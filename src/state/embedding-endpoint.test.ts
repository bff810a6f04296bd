import { beforeAll, describe, expect, it } from 'vitest';

/** A Map-backed localStorage for Node, installed before the module reads it. */
const stored = new Map<string, string>();
beforeAll(() => {
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  };
});

const load = () => import('./embedding-endpoint');

describe('the embedding endpoint in the page', () => {
  it('keeps the settings in this browser, the key only when asked, and never in the view', async () => {
    const m = await load();
    m.setEndpointSettings((s) => Object.assign(s, { baseUrl: 'http://127.0.0.1:5000/v1', model: 'mock-embed', apiKey: 'k-1', dimensions: 32 }));
    const raw = () => JSON.parse(stored.get('rag-lab:embedding-endpoint')!) as { settings: Record<string, unknown> };
    expect(raw().settings).toMatchObject({ baseUrl: 'http://127.0.0.1:5000/v1', model: 'mock-embed', apiKey: '', dimensions: 32 });
    m.setEndpointSettings((s) => void (s.rememberKey = true));
    expect(raw().settings.apiKey).toBe('k-1');
    m.setEndpointSettings((s) => void (s.rememberKey = false));
    expect(raw().settings.apiKey).toBe('');
    const choice = m.endpointChoiceOf(m.useEmbeddingEndpoint.getState().settings);
    expect(choice).toEqual({ model: 'mock-embed at http://127.0.0.1:5000/v1', dtype: 'fp32', device: 'wasm', source: 'hub', endpoint: { baseUrl: 'http://127.0.0.1:5000/v1', model: 'mock-embed', dimensions: 32, batchSize: 64, concurrency: 4 } });
    expect(JSON.stringify(choice)).not.toContain('k-1');
  });

  it('sends the key only to the URL it was typed for', async () => {
    const m = await load();
    const mine = m.endpointChoiceOf(m.useEmbeddingEndpoint.getState().settings);
    expect(m.withEndpointKey(mine)?.endpoint?.apiKey).toBe('k-1');
    const other = { ...mine, endpoint: { ...mine.endpoint!, baseUrl: 'https://elsewhere.example/v1' } };
    expect(m.withEndpointKey(other)?.endpoint?.apiKey).toBeUndefined();
  });

  it('remembers consent per endpoint URL and model, and asking shows the asked endpoint', async () => {
    const m = await load();
    const e = { baseUrl: 'http://127.0.0.1:5000', model: 'mock-embed' };
    expect(m.hasConsent(e)).toBe(false);
    m.askConsent({ model: 'x', dtype: 'fp32', device: 'wasm', source: 'hub', endpoint: { ...e, batchSize: 8 } });
    expect(m.useEmbeddingEndpoint.getState().ask?.plan).toBeNull();
    expect(m.useEmbeddingEndpoint.getState().settings).toMatchObject({ baseUrl: 'http://127.0.0.1:5000', batchSize: 8, apiKey: '' });
    m.recordConsent(e);
    expect(m.useEmbeddingEndpoint.getState().ask).toBeNull();
    // The same endpoint however its base URL is written; another model is asked again.
    expect(m.hasConsent({ baseUrl: 'http://127.0.0.1:5000/v1/', model: 'mock-embed' })).toBe(true);
    expect(m.hasConsent({ ...e, model: 'other' })).toBe(false);
    expect(JSON.parse(stored.get('rag-lab:embedding-endpoint')!).consented).toEqual(['http://127.0.0.1:5000/v1/embeddings|mock-embed']);
  });
});
