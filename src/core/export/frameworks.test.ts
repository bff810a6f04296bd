/**
 * The embedding model in the generated framework code: the class, model, base URL, prefixes and
 * dimensions each framework gets, as exact lines (the rest of each file is tested in export.test).
 */
import { describe, expect, it } from 'vitest';
import { embeddingTarget } from './framework-embedders';
import { haystackYaml, langchainRetriever, llamaindexPy } from './frameworks';
import type { Manifest } from './manifest';

type Embedding = NonNullable<Manifest['embedding']>;

const BASE = {
  strategy: 'window',
  params: { retriever: 'hybrid', topK: 10, budgetTokens: null, rrf: { c: 60, weights: { bm25: 1, vector: 1 } }, window: { before: 2, after: 2 }, merge: { threshold: 0.5 } },
  structure: { chunkLevels: [512, 128] },
  bm25: { variant: 'bm25plus', k1: 1.2, b: 0.7, delta: 0.5, analyzer: 'stem', languages: ['en'], label: 'BM25+ · stem' },
} as unknown as Parameters<typeof haystackYaml>[0];

const cfg = (embedding: Embedding | null) => ({ ...BASE, embedding });

const ENDPOINT: Embedding = {
  model: 'endpoint:127.0.0.1:5000/mock-embed@64',
  dtype: 'fp32',
  pooling: 'endpoint',
  normalize: true,
  dims: 64,
  queryPrefix: 'search_query: ',
  passagePrefix: 'search_document: ',
  testModel: false,
  source: 'endpoint http://127.0.0.1:5000/v1/embeddings model mock-embed dimensions 64',
};
const OLLAMA: Embedding = { ...ENDPOINT, model: 'endpoint:localhost:11434/nomic-embed-text:latest@768', dims: 768, queryPrefix: '', passagePrefix: '', source: 'endpoint http://localhost:11434/v1/embeddings model nomic-embed-text:latest' };
const BGE: Embedding = { model: 'Xenova/bge-small-en-v1.5', dtype: 'q8', pooling: 'cls', normalize: true, dims: 384, queryPrefix: 'Represent this sentence for searching relevant passages: ', passagePrefix: '', testModel: false, source: 'transformers.js Xenova/bge-small-en-v1.5' };
const NOMIC_256: Embedding = { model: 'nomic-ai/nomic-embed-text-v1.5@256', dtype: 'q8', pooling: 'mean', normalize: true, dims: 256, queryPrefix: 'search_query: ', passagePrefix: 'search_document: ', testModel: false, source: 'transformers.js nomic-ai/nomic-embed-text-v1.5' };

/** The lines of `text` from the first that contains `from` up to and including the first after it that contains `to`. */
function span(text: string, from: string, to: string): string[] {
  const lines = text.split('\n');
  const a = lines.findIndex((l) => l.includes(from));
  const b = lines.findIndex((l, i) => i > a && l.includes(to));
  expect(a, `no line with ${from}`).toBeGreaterThanOrEqual(0);
  return lines.slice(a, b + 1);
}

describe('embeddingTarget: the manifest record read for the frameworks', () => {
  it('an endpoint: its API base, model and the dimensions it was asked for', () => {
    expect(embeddingTarget(ENDPOINT)).toEqual({ kind: 'endpoint', apiBase: 'http://127.0.0.1:5000/v1', ollama: null, model: 'mock-embed', dims: 64, requestDims: 64, queryPrefix: 'search_query: ', passagePrefix: 'search_document: ' });
    expect(embeddingTarget(OLLAMA)).toMatchObject({ ollama: 'http://localhost:11434', model: 'nomic-embed-text:latest', requestDims: null });
    // A bundle from before the source named the URL: the model key still gives host and model.
    expect(embeddingTarget({ ...ENDPOINT, source: undefined })).toMatchObject({ apiBase: 'http://127.0.0.1:5000/v1', model: 'mock-embed', requestDims: null });
  });

  it('a transformers.js preset: its original repository for Python, a Matryoshka cut from the full size', () => {
    expect(embeddingTarget(BGE)).toMatchObject({ kind: 'hub', id: 'Xenova/bge-small-en-v1.5', pythonId: 'BAAI/bge-small-en-v1.5', pooling: 'cls', cutFrom: null });
    expect(embeddingTarget(NOMIC_256)).toMatchObject({ id: 'nomic-ai/nomic-embed-text-v1.5', pythonId: 'nomic-ai/nomic-embed-text-v1.5', dims: 256, cutFrom: 768, layerNormBeforeCut: true });
    expect(embeddingTarget(null)).toMatchObject({ id: 'Xenova/all-MiniLM-L6-v2', pythonId: 'sentence-transformers/all-MiniLM-L6-v2', assumed: true });
  });
});

describe('an endpoint model in the generated code', () => {
  it('LangChain.js: OpenAIEmbeddings with the base URL and dimensions, the prompts put before each text', () => {
    const js = langchainRetriever(cfg(ENDPOINT));
    expect(js).toContain("import { OpenAIEmbeddings } from '@langchain/openai';");
    expect(span(js, 'export const QUERY_PREFIX', 'PASSAGE_PREFIX')).toEqual(['export const QUERY_PREFIX = "search_query: ";', 'export const PASSAGE_PREFIX = "search_document: ";']);
    expect(span(js, 'const model = new OpenAIEmbeddings', 'export const embeddings')).toEqual([
      'const model = new OpenAIEmbeddings({',
      '  model: "mock-embed",',
      '  dimensions: 64,',
      "  apiKey: process.env.EMBEDDING_API_KEY ?? 'none',",
      '  configuration: { baseURL: "http://127.0.0.1:5000/v1" },',
      '});',
      'export const embeddings = new PrefixedEmbeddings(model);',
    ]);
  });

  it('LlamaIndex: OpenAILikeEmbedding with api_base and dimensions, prompts by a subclass', () => {
    const py = llamaindexPy(cfg(ENDPOINT));
    expect(py).toContain('from llama_index.embeddings.openai_like import OpenAILikeEmbedding');
    expect(py).toContain('class PrefixedEmbedding(OpenAILikeEmbedding):');
    expect(py).toContain('        return super()._get_query_embedding(QUERY_PREFIX + query)');
    expect(span(py, 'embed_model = PrefixedEmbedding(', 'Settings.embed_model')).toEqual([
      'embed_model = PrefixedEmbedding(',
      '    model_name="mock-embed",',
      '    api_base="http://127.0.0.1:5000/v1",',
      '    api_key=os.environ.get("EMBEDDING_API_KEY", "fake"),',
      '    dimensions=64,',
      ')',
      'Settings.embed_model = embed_model',
    ]);
  });

  it('Haystack: OpenAIDocumentEmbedder and OpenAITextEmbedder with api_base_url, each with its prefix', () => {
    const yaml = haystackYaml(cfg(ENDPOINT));
    expect(span(yaml, '    embedder:', 'prefix:')).toEqual([
      '    embedder:',
      '      type: haystack.components.embedders.openai_document_embedder.OpenAIDocumentEmbedder',
      '      init_parameters:',
      '        model: "mock-embed"',
      '        api_base_url: "http://127.0.0.1:5000/v1"',
      '        api_key: {type: env_var, env_vars: [EMBEDDING_API_KEY], strict: true}',
      '        dimensions: 64',
      '        prefix: "search_document: "',
    ]);
    expect(span(yaml, '    text_embedder:', 'prefix:').slice(1, 2).concat(span(yaml, '    text_embedder:', 'prefix:').slice(-1))).toEqual([
      '      type: haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder',
      '        prefix: "search_query: "',
    ]);
  });

  it("Ollama's port: Ollama's own classes, with no dimensions when none were asked for", () => {
    const js = langchainRetriever(cfg(OLLAMA));
    expect(js).toContain('export const embeddings = new OllamaEmbeddings({ model: "nomic-embed-text:latest", baseUrl: "http://localhost:11434" });');
    expect(js).not.toContain('PrefixedEmbeddings');
    expect(span(llamaindexPy(cfg(OLLAMA)), 'embed_model = OllamaEmbedding(', ')')).toEqual([
      'embed_model = OllamaEmbedding(',
      '    model_name="nomic-embed-text:latest",',
      '    base_url="http://localhost:11434",',
      '    query_instruction="",',
      '    text_instruction="",',
      ')',
    ]);
    const yaml = haystackYaml(cfg(OLLAMA));
    expect(yaml).toContain('      type: haystack_integrations.components.embedders.ollama.document_embedder.OllamaDocumentEmbedder');
    expect(span(yaml, 'OllamaTextEmbedder', 'url:')).toEqual([
      '      type: haystack_integrations.components.embedders.ollama.text_embedder.OllamaTextEmbedder',
      '      init_parameters:',
      '        model: "nomic-embed-text:latest"',
      '        url: "http://localhost:11434"',
    ]);
  });

  it('a query prefix OllamaTextEmbedder cannot take is said beside the pipeline', () => {
    expect(haystackYaml(cfg({ ...OLLAMA, queryPrefix: 'search_query: ' }))).toContain('# OllamaTextEmbedder takes no prefix: put "search_query: " before each question yourself, as the lab did.');
  });
});

describe('a transformers.js model in the generated code', () => {
  it('LangChain.js: HuggingFaceTransformersEmbeddings with its pooling and dtype; LlamaIndex and Haystack name the original repository and its instruction', () => {
    const js = langchainRetriever(cfg(BGE));
    expect(span(js, 'const model = new HuggingFaceTransformersEmbeddings', 'export const embeddings')).toEqual([
      'const model = new HuggingFaceTransformersEmbeddings({',
      '  model: "Xenova/bge-small-en-v1.5",',
      '  pretrainedOptions: { dtype: "q8" },',
      '  pipelineOptions: { pooling: "cls", normalize: true },',
      '});',
      'export const embeddings = new PrefixedEmbeddings(model);',
    ]);
    expect(js).toContain('export const QUERY_PREFIX = "Represent this sentence for searching relevant passages: ";');
    expect(span(llamaindexPy(cfg(BGE)), 'embed_model = HuggingFaceEmbedding(', ')')).toEqual([
      'embed_model = HuggingFaceEmbedding(',
      '    model_name="BAAI/bge-small-en-v1.5",',
      '    query_instruction="Represent this sentence for searching relevant passages: ",',
      '    text_instruction="",',
      '    normalize=True,',
      ')',
    ]);
    const yaml = haystackYaml(cfg(BGE));
    expect(span(yaml, 'SentenceTransformersTextEmbedder', 'prefix:')).toEqual([
      '      type: haystack.components.embedders.sentence_transformers_text_embedder.SentenceTransformersTextEmbedder',
      '      init_parameters:',
      '        model: "BAAI/bge-small-en-v1.5"',
      '        normalize_embeddings: true',
      '        prefix: "Represent this sentence for searching relevant passages: "',
    ]);
    expect(span(yaml, 'SentenceTransformersDocumentEmbedder', 'prefix:').at(-1)).toBe('        prefix: ""');
  });

  it('a Matryoshka size: cut and renormalised in LangChain.js, truncate_dim in Haystack, said in LlamaIndex', () => {
    expect(langchainRetriever(cfg(NOMIC_256))).toContain('export const embeddings = new PrefixedEmbeddings(model, 256);');
    expect(langchainRetriever(cfg(NOMIC_256))).toContain("// NOTE: the lab applies the model's layer norm before cutting (its card's recipe); this cut does not.");
    const yaml = haystackYaml(cfg(NOMIC_256));
    expect(span(yaml, 'SentenceTransformersDocumentEmbedder', 'prefix:').slice(2)).toEqual([
      '        model: "nomic-ai/nomic-embed-text-v1.5"',
      '        normalize_embeddings: true',
      '        truncate_dim: 256',
      '        trust_remote_code: true',
      '        prefix: "search_document: "',
    ]);
    const py = llamaindexPy(cfg(NOMIC_256));
    expect(py).toContain('# The lab cut each vector to its first 256 values and renormalised (Matryoshka); do the same with these vectors.');
    expect(py).toContain('    trust_remote_code=True,');
  });

  it('BM25 only: the default model is named as a default, not as measured', () => {
    expect(langchainRetriever(cfg(null))).toContain('// Embedding model: none was loaded (the lab ran BM25 only); Xenova/all-MiniLM-L6-v2 is a default, not a measured model.');
    expect(langchainRetriever(cfg(null))).toContain('export const embeddings = new HuggingFaceTransformersEmbeddings({');
  });
});

describe('the generated LangChain.js prefixing runs', () => {
  it('PrefixedEmbeddings puts the prompts first and cuts then renormalises', async () => {
    const js = langchainRetriever(cfg(NOMIC_256));
    const body = js.slice(js.indexOf('class PrefixedEmbeddings'), js.indexOf('const model = '));
    const seen: string[] = [];
    const inner = {
      embedQuery: async (t: string) => (seen.push(t), [3, 4, 12]),
      embedDocuments: async (ts: string[]) => (seen.push(...ts), ts.map(() => [0, 5, 1])),
    };
    const make = new Function('Embeddings', 'QUERY_PREFIX', 'PASSAGE_PREFIX', `${body}\nreturn PrefixedEmbeddings;`) as (...a: unknown[]) => new (inner: unknown, dims?: number) => { embedQuery(t: string): Promise<number[]>; embedDocuments(t: string[]): Promise<number[][]> };
    const Prefixed = make(class {}, 'search_query: ', 'search_document: ');
    const e = new Prefixed(inner, 2);
    expect(await e.embedQuery('bridge')).toEqual([0.6, 0.8]);
    expect(await e.embedDocuments(['a'])).toEqual([[0, 1]]);
    expect(seen).toEqual(['search_query: bridge', 'search_document: a']);
  });
});
