import { describe, expect, it } from 'vitest';
import type { ModelChoice } from '../worker/protocol';
import { decodeView, defaultView, encodeView } from './url-state';
import { embedderEditsFromParam, normaliseEdits, outputSizes } from './url-state-embedder';

const STATIC: ModelChoice = { model: 'rag-lab/test-static-embedder', dtype: 'fp32', device: 'wasm', source: 'local' };

describe('an embedder\'s changed settings and output size in the view URL', () => {
  it('are es, only what differs, and decode to the same choice', () => {
    const embedder: ModelChoice = { ...STATIC, settings: { queryPrefix: 'q: ', passagePrefix: 'doc: ', maxTokens: 64 }, dimensions: 32 };
    const q = encodeView({ ...defaultView(), embedder });
    const p = new URLSearchParams(q);
    expect(p.get('em')).toBe('rag-lab/test-static-embedder~fp32~wasm~local');
    expect(p.get('es')).toBe('{"q":"q: ","p":"doc: ","t":64,"d":32}');
    expect(decodeView(q)).toEqual({ view: { ...defaultView(), embedder }, notices: [] });
  });

  it('a plain preset has no es, and an es naming only the preset\'s own values leaves the choice plain', () => {
    expect(new URLSearchParams(encodeView({ ...defaultView(), embedder: STATIC })).get('es')).toBeNull();
    const d = decodeView(`em=rag-lab/test-static-embedder~fp32~wasm~local&es=${encodeURIComponent('{"q":"","pl":"mean","t":512,"d":128}')}`);
    expect(d).toEqual({ view: { ...defaultView(), embedder: STATIC }, notices: [] });
  });

  it('applies to the default embedder when em is not given', () => {
    const d = decodeView(`es=${encodeURIComponent('{"pl":"cls","n":0}')}`);
    expect(d.view.embedder).toEqual({ ...defaultView().embedder, settings: { pooling: 'cls', normalize: false } });
    expect(encodeView(d.view)).toBe(`es=${encodeURIComponent('{"pl":"cls","n":0}')}`);
  });

  it('a bad es is ignored with a notice saying why, and the rest of the view is kept', () => {
    const bad = (es: string, em = 'rag-lab/test-static-embedder~fp32~wasm~local') => decodeView(`k=7&em=${em}&es=${encodeURIComponent(es)}`);
    expect(bad('{"d":100}').notices).toEqual(['ignored es: rag-lab/test-static-embedder cannot be cut to 100 dimensions (it was trained for 128, 64, 32)']);
    expect(bad('{"d":64}', 'rag-lab/test-embedder~fp32~wasm~local').notices).toEqual(['ignored es: rag-lab/test-embedder cannot be cut to 64 dimensions']);
    expect(bad('{"pl":"max"}').notices).toEqual(['ignored es: pooling "max" is not one of mean, cls, last, model']);
    expect(bad('{"t":4}').notices).toEqual(['ignored es: the maximum length must be a whole number of tokens from 8 to 131072']);
    expect(bad('{"q":1}').notices).toEqual(['ignored es: a prefix is not text of at most 1000 characters']);
    expect(bad('[1]').notices).toEqual(['ignored es: not embedder settings']);
    expect(bad('{').notices).toEqual(['ignored es: not JSON']);
    expect(bad('{"p":"x"}', 'none').notices).toEqual(['ignored es: no transformers.js embedder is chosen']);
    const kept = bad('{"d":100}');
    expect([kept.view.retrieval.topK, kept.view.embedder]).toEqual([7, STATIC]);
  });

  it('output sizes: the full size then the Matryoshka ones; none for a model without them', () => {
    expect(outputSizes('nomic-ai/nomic-embed-text-v1.5')).toEqual([768, 512, 256, 128, 64]);
    expect(outputSizes('rag-lab/test-static-embedder')).toEqual([128, 64, 32]);
    expect(outputSizes('Xenova/all-MiniLM-L6-v2')).toEqual([]);
    expect(outputSizes('someone/new-embedder')).toEqual([]);
  });

  it('normaliseEdits drops the full size and values equal to the guesses of an unknown model', () => {
    expect(normaliseEdits('rag-lab/test-static-embedder', { dimensions: 128, settings: { passagePrefix: '' } })).toEqual({});
    expect(normaliseEdits('someone/new-embedder', { settings: { pooling: 'mean', queryPrefix: 'Query: ' } })).toEqual({ settings: { queryPrefix: 'Query: ' } });
  });
});
