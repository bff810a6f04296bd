import { describe, expect, it } from 'vitest';
import { decodeView, defaultView, encodeView } from './url-state';

describe('an embedding endpoint in the view URL', () => {
  const endpoint = { baseUrl: 'http://127.0.0.1:5000/v1', model: 'mock-embed', batchSize: 16, concurrency: 2 };
  const view = { ...defaultView(), embedder: { model: 'mock-embed at http://127.0.0.1:5000/v1', dtype: 'fp32' as const, device: 'wasm' as const, source: 'hub' as const, endpoint } };

  it('is em=endpoint with its settings in ee (no key), and decodes to the same choice', () => {
    const q = encodeView({ ...view, embedder: { ...view.embedder, endpoint: { ...endpoint, apiKey: 'sk-secret' } } });
    const p = new URLSearchParams(q);
    expect(p.get('em')).toBe('endpoint');
    expect(p.get('ee')).toBe('{"u":"http://127.0.0.1:5000/v1","m":"mock-embed","b":16,"c":2}');
    expect(q).not.toContain('sk-secret');
    expect(decodeView(encodeView(view))).toEqual({ view, notices: [] });
  });

  it('a broken endpoint parameter is ignored with a notice, keeping the default model', () => {
    const d = decodeView('em=endpoint&ee=%7B%22u%22%3A%22ftp%3A%2F%2Fx%22%2C%22m%22%3A%22a%22%7D');
    expect(d.view.embedder).toEqual(defaultView().embedder);
    expect(d.notices).toEqual(['ignored em=endpoint: "ftp://x" is not an http(s) URL; it should look like http://localhost:11434 or https://api.openai.com/v1']);
  });
});
