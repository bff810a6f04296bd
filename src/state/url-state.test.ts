import { describe, expect, it } from 'vitest';
import { COLUMN_IDS } from './columns';
import { decodeView, defaultView, encodeView, normaliseColumns } from './url-state';

describe('view state in the URL', () => {
  it('the defaults encode to an empty string and decode back to themselves', () => {
    expect(encodeView(defaultView())).toBe('');
    expect(decodeView('')).toEqual({ view: defaultView(), notices: [] });
  });

  it('round-trips every parameter a user can change', () => {
    const v = defaultView();
    v.query = 'What is AI risk?';
    v.retrieval.retriever = 'bm25';
    v.retrieval.topK = 25;
    v.retrieval.budgetTokens = 512;
    v.retrieval.window = { before: 1, after: 4, bySection: true };
    v.retrieval.merge.threshold = 0.3;
    v.retrieval.rrf = { c: 10, weights: { bm25: 0.7, vector: 0 } };
    v.retrieval.rerank.topN = 30;
    v.retrieval.filters = { docs: ['a1', 'b2'], section: 'Risk', languages: ['en', 'pt'], dateFrom: '2020-01-01', dateTo: '2024' };
    v.structure.chunkLevels = [1024, 256, 64];
    v.structure.sectionLevel = 2;
    v.structure.naive = { size: 256, overlap: 32 };
    v.structure.packed = { size: 384, overlap: 75 };
    v.structure.semantic = { buffer: 2, percentile: 90.5 };
    v.structure.headers = { enabled: true, title: false, section: true, fields: ['page', 'fileName'] };
    v.structure.lexical = { analyzer: 'words+stop', bm25: 'bm25plus' };
    v.structure.vectors = 'late';
    v.embedder = { model: 'rag-lab/test-embedder', dtype: 'fp32', device: 'wasm', source: 'local' };
    v.reranker = { model: 'Xenova/ms-marco-MiniLM-L-6-v2', dtype: 'q8', device: 'webgpu', source: 'hub' };
    v.indexBackend = 'voy';
    v.columns = ['window', 'automerge', 'naive'];
    v.compare = ['naive', 'window'];
    const url = encodeView(v);
    expect(decodeView(url)).toEqual({ view: v, notices: [] });
    expect(url).toContain('q=What+is+AI+risk%3F');
    expect(url).toContain('w=0.7%2C0');
    expect(url).toContain('hf=page%2CfileName&lc=1&an=words%2Bstop&bm=bm25plus');
    expect(url).toContain('nc=256&no=32&pc=384&po=75&sb=2&sp=90.5');
    expect(url).toContain('cols=window%2Cautomerge%2Cnaive&cmp=naive%2Cwindow');
  });

  it('keeps the chosen columns in their order, ignores unknown ones with a notice, and keeps all by default', () => {
    expect(decodeView('?cols=naive,window').view.columns).toEqual(['naive', 'window']);
    const { view, notices } = decodeView('?cols=window,bogus,automerge,window,evil');
    expect(view.columns).toEqual(['window', 'automerge']);
    expect(notices).toEqual([`ignored unknown columns in cols: bogus, evil (known: ${COLUMN_IDS.join(', ')})`]);
    // Nothing known: every column, as by default.
    expect(decodeView('?cols=bogus')).toEqual({ view: defaultView(), notices: [`ignored unknown columns in cols: bogus (known: ${COLUMN_IDS.join(', ')})`] });
    // Every column in the default order is the default, and encodes to nothing.
    expect(decodeView(`?cols=${COLUMN_IDS.join(',')}`)).toEqual({ view: defaultView(), notices: [] });
    expect(normaliseColumns([...COLUMN_IDS])).toBeNull();
    expect(normaliseColumns([...COLUMN_IDS].reverse())).toEqual([...COLUMN_IDS].reverse());
  });

  it('compares two different shown columns, and says why it ignores any other pair', () => {
    expect(decodeView('?cmp=hybrid,naive').view.compare).toEqual(['hybrid', 'naive']);
    for (const [search, cmp] of [
      ['?cmp=naive,naive', 'naive,naive'],
      ['?cmp=naive', 'naive'],
      ['?cmp=naive,bogus', 'naive,bogus'],
      ['?cols=window,naive&cmp=window,hybrid', 'window,hybrid'],
    ]) {
      const { view, notices } = decodeView(search!);
      expect(view.compare).toBeNull();
      expect(notices).toEqual([`ignored cmp=${cmp}: two different columns that are shown`]);
    }
  });

  it('keeps the analyzer and BM25 variant, and says which values it ignored', () => {
    expect(decodeView('?an=stem&bm=lucene').view.structure.lexical).toEqual({ analyzer: 'stem', bm25: 'lucene' });
    expect(decodeView('?an=porter&bm=bm42')).toMatchObject({
      // Ignored values fall back to the default, Lucene BM25 · stem+stop.
      view: { structure: { lexical: { analyzer: 'stem+stop', bm25: 'lucene' } } },
      notices: ['ignored an=porter: use words, stem, words+stop or stem+stop', 'ignored bm=bm42: use bm25plus or lucene'],
    });
  });

  it('keeps late chunking as lc=1, says why it ignores another value, and reads a view saved before the switch as plain', () => {
    expect(decodeView('?lc=1').view.structure.vectors).toBe('late');
    expect(decodeView('?lc=0').view.structure.vectors).toBe('plain');
    expect(decodeView('?lc=yes')).toEqual({ view: defaultView(), notices: ['ignored lc=yes: use 0 or 1'] });
    const old = defaultView();
    delete (old.structure as Partial<typeof old.structure>).vectors;
    expect(encodeView(old)).toBe('');
    expect(decodeView('?lc=1', old).view.structure).toEqual({ ...defaultView().structure, vectors: 'late' });
  });

  it('clamps or ignores nonsense, each with a notice, and keeps the rest', () => {
    const { view, notices } = decodeView('?k=-5&b=NaN&wb=999&mt=7&c=abc&lv=128,512&hf=page,evil&em=../../etc&zz=1&ws=yes&r=magic&wa=2');
    const d = defaultView();
    expect(view.retrieval.topK).toBe(1);
    expect(view.retrieval.budgetTokens).toBe(d.retrieval.budgetTokens);
    expect(view.retrieval.window.before).toBe(20);
    expect(view.retrieval.window.after).toBe(2);
    expect(view.retrieval.merge.threshold).toBe(1);
    expect(view.retrieval.rrf.c).toBe(d.retrieval.rrf.c);
    expect(view.structure.chunkLevels).toEqual(d.structure.chunkLevels);
    expect(view.structure.headers.fields).toEqual(['page']);
    expect(view.embedder).toEqual(d.embedder);
    expect(view.retrieval.retriever).toBe(d.retrieval.retriever);
    expect(notices).toEqual([
      'ignored unknown parameter zz',
      'ignored r=magic: use bm25, vector or hybrid',
      'k=-5 clamped to 1',
      'ignored b=NaN: not a number',
      'wb=999 clamped to 20',
      'ignored ws=yes: use 0 or 1',
      'mt=7 clamped to 1',
      'ignored c=abc: not a number',
      'ignored lv=128,512: 1–4 shrinking sizes between 16 and 8192',
      'ignored unknown header fields in hf=page,evil',
      'ignored em: not a model choice',
    ]);
  });

  it('clamps packed and semantic chunk parameters with a notice, and reads views saved before they existed', () => {
    const { view, notices } = decodeView('?pc=8&po=9999&sb=99&sp=150');
    expect(view.structure.packed).toEqual({ size: 16, overlap: 8 });
    expect(view.structure.semantic).toEqual({ buffer: 10, percentile: 100 });
    expect(notices).toEqual(['pc=8 clamped to 16', 'po=9999 clamped to 2048', 'packed overlap clamped below the chunk size', 'sb=99 clamped to 10', 'sp=150 clamped to 100']);
    expect(decodeView('?sp=abc&sb=-1').notices).toEqual(['sb=-1 clamped to 0', 'ignored sp=abc: not a number']);
    // A view stored before these chunkers existed: the defaults, nothing in the URL.
    const old = defaultView();
    delete (old.structure as Partial<typeof old.structure>).packed;
    delete (old.structure as Partial<typeof old.structure>).semantic;
    expect(encodeView(old)).toBe('');
    expect(decodeView('?pc=200', old).view.structure).toEqual({ ...defaultView().structure, packed: { size: 200, overlap: 25 } });
  });

  it('cuts a very long question and accepts "none" for the budget and models', () => {
    const { view, notices } = decodeView(`q=${'x'.repeat(10_000)}&b=none&em=none&rm=none`);
    expect(view.query).toHaveLength(2000);
    expect(view.retrieval.budgetTokens).toBeNull();
    expect(view.embedder).toBeNull();
    expect(view.reranker).toBeNull();
    expect(notices).toEqual(['the question was cut to 2000 characters']);
  });
});
