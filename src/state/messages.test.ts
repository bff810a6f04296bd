import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/wire';
import type { LoadRefusal, ProjectionData } from '../worker/protocol';
import { bundleImportText, columnNoticeText, errorText, fileProblemText, loadCancelledText, loadRefusalText, memorySize, rewriteStateText, mapUnavailableText, modelFailureText, projectionNotes, queryLabel, queryPlacementText } from './messages';

function projection(over: Partial<ProjectionData>): ProjectionData {
  return {
    method: 'pca',
    key: 'k',
    n: 12000,
    xy: new Float32Array(0),
    doc: new Int32Array(0),
    section: new Int32Array(0),
    sections: [],
    language: new Int32Array(0),
    languages: [],
    docTitles: [],
    fitted: 12000,
    about: { method: 'pca', variance: [0.123456, 0.0456789], nonFinite: 0 },
    ms: 5,
    ...over,
  };
}

describe('the page words what the workers answer as codes', () => {
  it('column notices', () => {
    expect(columnNoticeText({ code: 'fusion-needs-generator' })).toBe(
      'A query transformation needs an LLM to rewrite the question: choose a generator and a query transformation in the Generator panel, then press Ask.',
    );
    expect(columnNoticeText({ code: 'fusion-repeats-question' })).toBe('the variants only repeat the question: this is the question searched alone');
    expect(rewriteStateText({ state: 'writing', transform: 'multiquery', generator: 'fake at 127.0.0.1' })).toBe('Writing variants of the question with fake at 127.0.0.1…');
    expect(rewriteStateText({ state: 'writing', transform: 'subquestions', generator: 'g' })).toBe('Writing sub-questions with g…');
    expect(rewriteStateText({ state: 'failed', transform: 'hyde', generator: 'g', error: 'HTTP 500' })).toBe('The query transformation failed: HTTP 500; this column stays empty.');
    const fused = [{ role: 'question' as const }, { role: 'variant' as const }, { role: 'variant' as const }];
    expect(fused.map((q, i) => queryLabel(q, i, fused))).toEqual(['question', 'variant 1', 'variant 2']);
    const subs = [{ role: 'sub' as const, tool: 'keyword_search' }, { role: 'sub' as const, tool: 'semantic_search' }];
    expect(subs.map((q, i) => queryLabel(q, i, subs))).toEqual(['sub-question 1 → keyword_search', 'sub-question 2 → semantic_search']);
    expect(queryLabel({ role: 'hyde' }, 1)).toBe('hypothetical answer');
  });

  it('model failures', () => {
    expect(modelFailureText({ code: 'not-found', folder: 'http://127.0.0.1:4173/models/foo/bar/' })).toBe(
      'model files not found at http://127.0.0.1:4173/models/foo/bar/ (download them with npm run models:download, or choose the Hugging Face hub)',
    );
    expect(modelFailureText({ code: 'offline', model: 'Xenova/all-MiniLM-L6-v2' })).toBe('could not download Xenova/all-MiniLM-L6-v2 (offline, or the hub is blocked)');
    expect(modelFailureText({ code: 'not-model-files', model: 'a/b' })).toBe('the server did not return model files for a/b');
    expect(modelFailureText({ code: 'load-failed', model: 'a/b', detail: 'bad graph' })).toBe('could not load a/b: bad graph');
  });

  it('files that were not added', () => {
    expect(fileProblemText('x.pdf', { code: 'rejected', message: 'x.pdf: not a readable PDF (bad xref)' })).toBe('x.pdf: not a readable PDF (bad xref)');
    expect(fileProblemText('y.md', { code: 'unreadable', detail: 'out of memory' })).toBe('y.md: could not be read (out of memory)');
  });

  it('why there is no map', () => {
    expect(mapUnavailableText({ code: 'no-documents' })).toMatch(/^The map needs documents/);
    expect(mapUnavailableText({ code: 'no-embedder' })).toBe('The map needs sentence vectors: choose an embedding model in the Models panel (BM25 alone has no vectors to place).');
    expect(mapUnavailableText({ code: 'vectors-missing', done: 40, total: 90, paused: true })).toBe(
      "The map needs every sentence's vector: 40 of 90 sentences are embedded so far (embedding is paused: resume it). It appears when they are done.",
    );
    expect(mapUnavailableText({ code: 'vectors-missing', done: 40, total: 90, paused: false })).not.toContain('paused');
    expect(mapUnavailableText({ code: 'umap-too-few', min: 15 })).toBe('UMAP needs at least 15 sentences; the PCA view shows them.');
    expect(mapUnavailableText({ code: 'umap-failed', message: 'boom' })).toBe('UMAP failed: boom');
  });

  it('how a projection was made, and where the query went', () => {
    expect(projectionNotes(projection({}))).toEqual([
      'PCA: the two directions of largest variance; every sentence and the query are projected exactly.',
      'Variance along x 0.123, y 0.0457.',
    ]);
    expect(projectionNotes(projection({ fitted: 5000, about: { method: 'pca', variance: [0, 0], nonFinite: 2 } }))).toEqual([
      'PCA: the two directions of largest variance, fitted on 5,000 evenly spaced sentences; every sentence and the query are projected exactly.',
      'Variance along x 0.00, y 0.00.',
      '2 sentence vectors were not finite (NaN) and are drawn as zero vectors.',
    ]);
    expect(projectionNotes(projection({ method: 'umap', fitted: 5000, about: { method: 'umap', epochs: 200, subsampled: true, placeK: 8 } }))).toEqual([
      'UMAP (umap-js, 15 neighbours, min. distance 0.1, seeded): 200 epochs, fitted on 5,000 evenly spaced sentences of 12,000 (a subsample, for speed); the others are placed at the weighted mean of their 8 nearest fitted sentences.',
      "The query is placed at the similarity-weighted mean of its 8 nearest fitted sentences' positions (not umap-js transform).",
    ]);
    expect(queryPlacementText({ method: 'pca' })).toBe('exact PCA projection of the query vector');
    expect(queryPlacementText({ method: 'umap', k: 10 })).toBe('weighted mean of the positions of its 10 nearest sentences (by cosine)');
  });

  it('errors: the lab’s codes in words, anything else by its message', () => {
    expect(errorText(new RpcError('document-gone'))).toBe('that document is no longer in the corpus');
    expect(errorText(new RpcError('no-eval-set'))).toBe('import a labelled set first');
    expect(errorText(new RpcError('model-unavailable', 'x', { code: 'offline', model: 'm' }))).toBe('could not download m (offline, or the hub is blocked)');
    expect(errorText(new RpcError('failed', 'a BEIR set needs corpus.jsonl'))).toBe('a BEIR set needs corpus.jsonl');
    expect(errorText(new Error('plain'))).toBe('plain');
    expect(errorText('text')).toBe('text');
  });

  describe('a load too large for the tab, and a cancelled load', () => {
    const bundle: LoadRefusal = {
      file: 'corpus.zip',
      source: 'bundle',
      fileBytes: 3.2e9,
      sentences: 1_000_000,
      vectorKinds: ['sentence', 'leaf', 'chunk', 'packed'],
      needBytes: 6.1e9,
      loadedBytes: 2.68e9,
      heldBytes: 4.1e8,
      budget: { bytes: 6_442_450_944, heapBytes: 4_294_705_152, basis: 'device-memory', deviceMemoryGiB: 8 },
      limit: 'budget',
      heapNeedBytes: 9e8,
    };

    it('says what it needs, what the tab can hold and holds, and that nothing was lost', () => {
      expect(loadRefusalText(bundle)).toBe(
        "'corpus.zip' needs about 6.1 GB in this tab while it loads (2.7 GB once loaded: 1,000,000 sentences with vectors of sentences, leaves, naive chunks and sentence-packed chunks); this tab can hold about 6.4 GB (3/4 of the 8 GB of memory this device reports) and already holds 410.0 MB. Nothing was loaded; what is indexed stays.",
      );
      const doc: LoadRefusal = { ...bundle, file: 'dump.txt', source: 'document', fileBytes: 95e6, sentences: 950_000, vectorKinds: [], needBytes: 1.3e9, loadedBytes: 1.2e9, heldBytes: 0, budget: { bytes: 1e9, heapBytes: null, basis: 'default' } };
      expect(fileProblemText('dump.txt', { code: 'too-large', refusal: doc })).toBe(
        "'dump.txt' needs about 1.3 GB in this tab while it loads (1.2 GB once loaded: about 950,000 sentences, estimated from its 95.0 MB file); this tab can hold about 1.0 GB (assumed: this browser does not say how much memory the device has) and holds nothing yet. Nothing was loaded; what is indexed stays.",
      );
      expect(loadRefusalText({ ...doc, vectorKinds: ['sentence'], budget: { bytes: 5e8, heapBytes: null, basis: 'override' } })).toBe(
        "'dump.txt' needs about 1.3 GB in this tab while it loads (1.2 GB once loaded: about 950,000 sentences and their vectors, estimated from its 95.0 MB file); this tab can hold about 500.0 MB (the budget set by #budget= in the address) and holds nothing yet. Nothing was loaded; what is indexed stays.",
      );
      expect(loadRefusalText({ ...bundle, limit: 'heap', heapNeedBytes: 4.5e9 })).toBe(
        "'corpus.zip' needs about 4.5 GB of JavaScript heap for its text and sentences beside what is indexed (1,000,000 sentences); this tab's heap is capped at 4.3 GB. Nothing was loaded; what is indexed stays.",
      );
      expect(bundleImportText('corpus.zip', new RpcError('load-refused', 'x', bundle))).toBe(loadRefusalText(bundle));
      expect(errorText(new RpcError('load-refused', 'x', bundle))).toBe(loadRefusalText(bundle));
    });

    it('a cancel says nothing was added; sizes in GB, MB or kB', () => {
      expect(loadCancelledText('x.zip')).toBe("Loading 'x.zip' cancelled; nothing was added.");
      expect(bundleImportText('x.zip', new RpcError('failed', 'This operation was aborted', undefined, true))).toBe("Loading 'x.zip' cancelled; nothing was added.");
      expect(bundleImportText('x.zip', new RpcError('bundle-refused', 'm', { message: 'not a RAG Context Lab bundle' }))).toBe('x.zip: not a RAG Context Lab bundle; the corpus is unchanged.');
      expect([memorySize(999_949_999), memorySize(999_950_000), memorySize(12_345_678), memorySize(6.05e9), memorySize(999_949), memorySize(999_950), memorySize(0)]).toEqual([
        '999.9 MB',
        '1.0 GB',
        '12.3 MB',
        '6.0 GB',
        '999.9 kB',
        '1.0 MB',
        '0.0 kB',
      ]);
    });
  });
});

