/**
 * The CLI with an embedding endpoint: `eval --embedding-endpoint` against the mock embeddings
 * server (started here on 127.0.0.1), a corpus indexed through it and refused without it, bad
 * endpoints, and presets named on the command line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessRunner } from './cli-runner';
import { startEmbeddingMockServer, type MockEmbeddingServer } from './embedding-mock-server';

/** main() in this process (cli-runner.ts), the mock server's key in the environment; progress lines left out. */
const cli = inProcessRunner({ env: { MOCK_EMBED_KEY: 'k-123' }, keep: (l) => Boolean(l.trim()) && !/^\r?embedding [^:]*(\[|: \d)/.test(l) });

const PARAGRAPHS = [
  'The copper bridge crosses the northern river. It was built in 1887 by the harbour guild.',
  'Violins are made of spruce and maple. The varnish takes weeks to dry in winter.',
  'The lantern market opens at dusk. Traders sell lamps, candles and glass beads.',
];
const QUESTIONS = [
  ['Who built the copper bridge?', 'the harbour guild', 0],
  ['What wood are violins made of?', 'spruce and maple', 1],
  ['When does the lantern market open?', 'at dusk', 2],
] as const;

let dir: string;
let mock: MockEmbeddingServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-embed-'));
  mock = await startEmbeddingMockServer({ dim: 64, key: 'k-123' });
  const squad = {
    version: '1.1',
    data: [{
      title: 'Town',
      paragraphs: PARAGRAPHS.map((context, p) => ({
        context,
        qas: QUESTIONS.filter((q) => q[2] === p).map(([question, answer], i) => ({ id: `q${p}-${i}`, question, answers: [{ text: answer, answer_start: context.indexOf(answer) }] })),
      })),
    }],
  };
  writeFileSync(join(dir, 'squad.json'), JSON.stringify(squad));
  writeFileSync(join(dir, 'town.md'), `# Town\n\n${PARAGRAPHS.join('\n\n')}\n`);
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

const endpoint = () => ['--embedding-endpoint', mock.url, '--embedder', 'mock-embed', '--embedding-key-env', 'MOCK_EMBED_KEY'];

describe('CLI with an embedding endpoint', () => {
  it('eval --embedding-endpoint: the units and questions are embedded there; vector and hybrid are measured', async () => {
    const before = mock.requests.length;
    const r = await cli('eval', '--data', join(dir, 'squad.json'), '--strategies', 'sentence', '--json', ...endpoint());
    expect(r.stderr).toContain(`note: embedding with ${mock.url}/v1/embeddings (model "mock-embed", 64 dimensions): the text of every unit embedded and every question is sent there`);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { embedder: string; questions: number; results: { strategy: string; params: { retriever: string }; metrics: Record<string, number> }[] };
    expect(out.embedder).toBe(`endpoint:${new URL(mock.url).host}/mock-embed@64`);
    expect(out.questions).toBe(3);
    expect(out.results.map((x) => x.params.retriever).sort()).toEqual(['bm25', 'hybrid', 'vector']);
    const sent = mock.requests.slice(before).flatMap((q) => q.texts);
    for (const [question] of QUESTIONS) expect(sent).toContain(question);
    expect(sent).toContain('It was built in 1887 by the harbour guild.');
    expect(mock.requests.slice(before).every((q) => q.authorization === 'Bearer k-123')).toBe(true);
  });

  it('a corpus indexed through the endpoint is refused without it, naming it, and reused with it (no unit sent again)', async () => {
    const corpus = join(dir, 'corpus.json');
    expect((await cli('index', join(dir, 'town.md'), '--out', corpus, ...endpoint())).code).toBe(0);
    const host = new URL(mock.url).host;
    const refused = await cli('query', 'Who built the copper bridge?', '--corpus', corpus);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`this corpus was embedded by the endpoint at ${host} (model "mock-embed", 64 dimensions): give --embedding-endpoint URL --embedder mock-embed, or --embedder none`);
    const before = mock.requests.length;
    const q = await cli('query', 'Who built the copper bridge?', '--corpus', corpus, '--strategies', 'sentence', ...endpoint());
    expect(q.code).toBe(0);
    expect(q.stdout).toContain('harbour guild');
    expect(mock.requests.slice(before).flatMap((x) => x.texts)).toEqual(['dimension probe', 'Who built the copper bridge?']);
  });

  it('a 429 waits its Retry-After, says so, and the run completes', async () => {
    mock.options.fail429 = 1;
    const r = await cli('query', 'Who built the copper bridge?', join(dir, 'town.md'), '--strategies', 'sentence', ...endpoint());
    mock.options.fail429 = 0;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`note: the embedding endpoint ${mock.url}/v1/embeddings is limiting requests (HTTP 429: Rate limit reached); trying again in 1.0 s (retry 1)`);
    expect(r.stdout).toContain('harbour guild');
  });

  it('a wrong model or key is one line, exit 2', async () => {
    const wrong = await cli('eval', '--data', join(dir, 'squad.json'), '--embedding-endpoint', mock.url, '--embedder', 'nomic-embed-text', '--embedding-key-env', 'MOCK_EMBED_KEY');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`no embeddings at ${mock.url}/v1/embeddings, or no model "nomic-embed-text" there (HTTP 404`);
    const nokey = await cli('eval', '--data', join(dir, 'squad.json'), '--embedding-endpoint', mock.url, '--embedder', 'mock-embed');
    expect(nokey.code).toBe(2);
    expect(nokey.stderr).toContain('refused the request (HTTP 401: Incorrect API key provided) — no key was sent; give one');
  });

  it('export with an endpoint model: the bundle and the generated framework code name that endpoint, model and prefixes', async () => {
    // A server that calls its model nomic-embed-text: the CLI takes the nomic preset's prompts for it.
    const nomic = await startEmbeddingMockServer({ dim: 32, models: ['nomic-embed-text'] });
    try {
      const out = join(dir, 'bundle-endpoint');
      const r = await cli('export', '--out', out, join(dir, 'town.md'), '--strategy', 'sentence', '--embedding-endpoint', `${nomic.url}/v1`, '--embedder', 'nomic-embed-text');
      expect(r.code).toBe(0);
      const text = (name: string) => readFileSync(join(out, name), 'utf8');
      const manifest = JSON.parse(text('manifest.json')) as { embedding: Record<string, unknown> };
      expect(manifest.embedding).toMatchObject({ model: `endpoint:${new URL(nomic.url).host}/nomic-embed-text@32`, pooling: 'endpoint', dims: 32, queryPrefix: 'search_query: ', passagePrefix: 'search_document: ', source: `endpoint ${nomic.url}/v1/embeddings model nomic-embed-text` });
      const js = text('frameworks/langchain/retriever.mjs');
      expect(js).toContain(`  configuration: { baseURL: "${nomic.url}/v1" },`);
      expect(js).toContain('  model: "nomic-embed-text",');
      expect(js).toContain('export const QUERY_PREFIX = "search_query: ";');
      expect(js).toContain('export const PASSAGE_PREFIX = "search_document: ";');
      const py = text('frameworks/llamaindex/pipeline.py');
      expect(py).toContain(`    api_base="${nomic.url}/v1",`);
      expect(py).toContain('QUERY_PREFIX = "search_query: "');
      const yaml = text('frameworks/haystack/pipelines.yaml');
      expect(yaml).toContain(`        api_base_url: "${nomic.url}/v1"`);
      expect(yaml).toContain('        prefix: "search_document: "');
      expect(yaml).toContain('        prefix: "search_query: "');
      // Every unit went to the endpoint with the passage prompt in front.
      const sent = nomic.requests.flatMap((q) => q.texts);
      expect(sent).toContain('search_document: It was built in 1887 by the harbour guild.');
    } finally {
      await nomic.close();
    }
  });

  it('a preset name resolves to its ONNX repository; the static test model runs through eval', async () => {
    const r = await cli('eval', '--data', join(dir, 'squad.json'), '--embedder', 'bge-small-en-v1.5', '--strategies', 'sentence');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot load embedding model "Xenova/bge-small-en-v1.5"');
    const s = await cli('eval', '--data', join(dir, 'squad.json'), '--embedder', 'test-static', '--strategies', 'sentence', '--json');
    expect(s.code).toBe(0);
    expect((JSON.parse(s.stdout) as { embedder: string }).embedder).toBe('rag-lab/test-static-embedder (TEST MODEL: random word-piece vectors, no learned meaning)');
  });
});
