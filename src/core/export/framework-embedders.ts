/**
 * The embedding model in the exported LangChain.js / LlamaIndex / Haystack code: the class that
 * reaches the model the lab measured with, with the same prompts (prefixes) and dimensions. An
 * endpoint model becomes the OpenAI-compatible class with its base URL (Ollama's own classes on
 * Ollama's port, 11434); a transformers.js model the Hugging Face / sentence-transformers one.
 * Class and parameter names are the frameworks' own (checked against their API references).
 */
import { findPreset } from '../embed/presets';
import { apiBaseOf } from '../util/endpoint-url';
import type { Manifest } from './manifest';

export type EmbeddingTarget =
  | {
      kind: 'hub';
      /** transformers.js (ONNX) repository, as the lab loaded it. */
      id: string;
      /** The original sentence-transformers repository, for the Python frameworks. */
      pythonId: string;
      pooling: string;
      dtype: string;
      dims: number;
      /** Matryoshka: the model's full size when the lab cut its vectors to `dims`, else null. */
      cutFrom: number | null;
      layerNormBeforeCut: boolean;
      queryPrefix: string;
      passagePrefix: string;
      testModel: boolean;
      /** The lab ran BM25 only: this is a default, not a measured model. */
      assumed: boolean;
    }
  | {
      kind: 'endpoint';
      /** The API base an SDK takes ("http://127.0.0.1:5000/v1"). */
      apiBase: string;
      /** Ollama's origin when the endpoint is on Ollama's port (its own classes are used), else null. */
      ollama: string | null;
      model: string;
      dims: number;
      /** `dimensions` sent with each request, when the lab sent it. */
      requestDims: number | null;
      queryPrefix: string;
      passagePrefix: string;
    };

const DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';
/** Models whose cards load them with trust_remote_code=True in sentence-transformers (their own model code). */
const REMOTE_CODE = /^(nomic-ai|jinaai)\//;
const OLLAMA_PORT = '11434';

/** What the manifest's embedding record says, read into the fields each framework needs. */
export function embeddingTarget(e: Manifest['embedding']): EmbeddingTarget {
  if (e?.pooling === 'endpoint') {
    const src = /^endpoint (\S+) model (.+?)(?: dimensions (\d+))?$/.exec(e.source ?? '');
    const key = /^endpoint:([^/]+)\/(.+)@\d+$/.exec(e.model);
    const url = src?.[1] ?? `http://${key?.[1] ?? 'localhost'}/v1/embeddings`;
    const apiBase = apiBaseOf(url, '/embeddings');
    const u = new URL(url);
    return {
      kind: 'endpoint',
      apiBase,
      ollama: u.port === OLLAMA_PORT ? u.origin : null,
      model: src?.[2] ?? key?.[2] ?? e.model,
      dims: e.dims,
      requestDims: src?.[3] ? Number(src[3]) : null,
      queryPrefix: e.queryPrefix,
      passagePrefix: e.passagePrefix,
    };
  }
  const model = e?.model ?? DEFAULT_MODEL;
  const id = model.split(/[@#]/)[0]!;
  const preset = findPreset(id);
  const cut = /@(\d+)/.exec(model);
  // A preset's source names the model's own repository first ("BAAI/bge-small-en-v1.5 model card …").
  const original = preset && !preset.testModel ? /^[\w.-]+\/[\w.-]+/.exec(preset.source)?.[0] : undefined;
  return {
    kind: 'hub',
    id,
    pythonId: original ?? id,
    pooling: e?.pooling ?? preset?.pooling ?? 'mean',
    dtype: e?.dtype ?? preset?.dtype ?? 'q8',
    dims: e?.dims ?? preset?.dim ?? 384,
    cutFrom: cut ? (preset?.dim ?? null) : null,
    layerNormBeforeCut: Boolean(cut && preset?.layerNormBeforeTruncation),
    queryPrefix: e?.queryPrefix ?? preset?.queryPrefix ?? '',
    passagePrefix: e?.passagePrefix ?? preset?.passagePrefix ?? '',
    testModel: e?.testModel ?? false,
    assumed: e === null,
  };
}

const q = (s: string) => JSON.stringify(s);

/** One comment line (without its marker) naming what the lab measured with. */
export function describeTarget(t: EmbeddingTarget): string {
  const prefixes = `query prefix ${t.queryPrefix ? q(t.queryPrefix) : 'none'}, passage prefix ${t.passagePrefix ? q(t.passagePrefix) : 'none'}`;
  if (t.kind === 'endpoint') return `Embedding model: "${t.model}" at ${t.apiBase} (OpenAI-compatible), ${t.dims} dims, ${prefixes}.`;
  if (t.assumed) return `Embedding model: none was loaded (the lab ran BM25 only); ${t.id} is a default, not a measured model.`;
  return `Embedding model: ${t.id}${t.testModel ? ' (TEST MODEL: random vectors; put your real model here)' : ''}, pooling ${t.pooling}, ${t.dims} dims${t.cutFrom ? ` cut from ${t.cutFrom} (Matryoshka)` : ''}, ${prefixes}.`;
}

const POOLING_JS: Record<string, string> = { mean: 'mean', cls: 'cls', last: 'last_token' };

/** Lines of LangChain.js that define `embeddings` (imports first). */
export function langchainEmbeddings(t: EmbeddingTarget): string {
  const lines: string[] = [];
  let base: string;
  if (t.kind === 'endpoint' && t.ollama) {
    lines.push("import { OllamaEmbeddings } from '@langchain/ollama';");
    base = `new OllamaEmbeddings({ model: ${q(t.model)}, baseUrl: ${q(t.ollama)}${t.requestDims ? `, dimensions: ${t.requestDims}` : ''} })`;
  } else if (t.kind === 'endpoint') {
    lines.push("import { OpenAIEmbeddings } from '@langchain/openai';");
    base = [
      'new OpenAIEmbeddings({',
      `  model: ${q(t.model)},`,
      ...(t.requestDims ? [`  dimensions: ${t.requestDims},`] : []),
      "  apiKey: process.env.EMBEDDING_API_KEY ?? 'none',",
      `  configuration: { baseURL: ${q(t.apiBase)} },`,
      '})',
    ].join('\n');
  } else {
    lines.push("import { HuggingFaceTransformersEmbeddings } from '@langchain/community/embeddings/huggingface_transformers';");
    const pooling = POOLING_JS[t.pooling];
    base = [
      'new HuggingFaceTransformersEmbeddings({',
      `  model: ${q(t.id)},`,
      `  pretrainedOptions: { dtype: ${q(t.dtype)} },`,
      `  pipelineOptions: { pooling: ${q(pooling ?? 'mean')}, normalize: true },`,
      // transformers.js's last_token takes the last position, padding included: one text per batch keeps it the last real token.
      ...(t.pooling === 'last' ? ['  batchSize: 1,'] : []),
      '})',
    ].join('\n');
    if (!pooling) {
      lines.push(
        t.pooling === 'static'
          ? '// NOTE: a Model2Vec static model is not a feature-extraction pipeline; this class cannot run it the way the lab did.'
          : `// NOTE: the lab pooled with the model's own output (pooling ${t.pooling}); the feature-extraction pipeline reads last_hidden_state, so vectors differ.`,
      );
    }
  }
  const cut = t.kind === 'hub' && t.cutFrom ? t.dims : null;
  const wrap = t.queryPrefix !== '' || t.passagePrefix !== '' || cut !== null;
  if (wrap) lines.push("import { Embeddings } from '@langchain/core/embeddings';");
  lines.push('', `// ${describeTarget(t)}`);
  if (!wrap) return [...lines, `export const embeddings = ${base};`].join('\n');
  if (t.kind === 'hub' && t.layerNormBeforeCut) lines.push("// NOTE: the lab applies the model's layer norm before cutting (its card's recipe); this cut does not.");
  lines.push(
    `export const QUERY_PREFIX = ${q(t.queryPrefix)};`,
    `export const PASSAGE_PREFIX = ${q(t.passagePrefix)};`,
    '',
    "/** The model's prompts before each text (LangChain adds none)" + (cut ? ', vectors cut to their first dimensions and renormalised' : '') + '. */',
    'class PrefixedEmbeddings extends Embeddings {',
    '  constructor(inner, dimensions) {',
    '    super({});',
    '    this.inner = inner;',
    '    this.dimensions = dimensions;',
    '  }',
    '  cut(v) {',
    '    if (!this.dimensions || v.length <= this.dimensions) return v;',
    '    const head = v.slice(0, this.dimensions);',
    '    const norm = Math.hypot(...head) || 1;',
    '    return head.map((x) => x / norm);',
    '  }',
    '  async embedQuery(text) {',
    '    return this.cut(await this.inner.embedQuery(QUERY_PREFIX + text));',
    '  }',
    '  async embedDocuments(texts) {',
    '    return (await this.inner.embedDocuments(texts.map((t) => PASSAGE_PREFIX + t))).map((v) => this.cut(v));',
    '  }',
    '}',
    '',
    `const model = ${base};`,
    `export const embeddings = new PrefixedEmbeddings(model${cut ? `, ${cut}` : ''});`,
  );
  return lines.join('\n');
}

const py = (s: string) => JSON.stringify(s);

/** Python lines (LlamaIndex) that set `embed_model` and make it the default (imports first). */
export function llamaindexEmbeddings(t: EmbeddingTarget): string {
  if (t.kind === 'hub') {
    return [
      'from llama_index.embeddings.huggingface import HuggingFaceEmbedding',
      '',
      `# ${describeTarget(t)}`,
      '# sentence-transformers reads the pooling from the model\'s own files.',
      ...(t.cutFrom ? [`# The lab cut each vector to its first ${t.dims} values and renormalised (Matryoshka); do the same with these vectors.`] : []),
      'embed_model = HuggingFaceEmbedding(',
      `    model_name=${py(t.pythonId)},`,
      `    query_instruction=${py(t.queryPrefix)},`,
      `    text_instruction=${py(t.passagePrefix)},`,
      '    normalize=True,',
      ...(REMOTE_CODE.test(t.pythonId) ? ['    trust_remote_code=True,'] : []),
      ')',
      'Settings.embed_model = embed_model',
    ].join('\n');
  }
  if (t.ollama) {
    return [
      'from llama_index.embeddings.ollama import OllamaEmbedding',
      '',
      `# ${describeTarget(t)}`,
      'embed_model = OllamaEmbedding(',
      `    model_name=${py(t.model)},`,
      `    base_url=${py(t.ollama)},`,
      `    query_instruction=${py(t.queryPrefix)},`,
      `    text_instruction=${py(t.passagePrefix)},`,
      ')',
      'Settings.embed_model = embed_model',
    ].join('\n');
  }
  const prefixed = t.queryPrefix !== '' || t.passagePrefix !== '';
  const args = [
    `    model_name=${py(t.model)},`,
    `    api_base=${py(t.apiBase)},`,
    '    api_key=os.environ.get("EMBEDDING_API_KEY", "fake"),',
    ...(t.requestDims ? [`    dimensions=${t.requestDims},`] : []),
  ];
  const lines = ['import os', 'from llama_index.embeddings.openai_like import OpenAILikeEmbedding', '', `# ${describeTarget(t)}`];
  if (!prefixed) return [...lines, 'embed_model = OpenAILikeEmbedding(', ...args, ')', 'Settings.embed_model = embed_model'].join('\n');
  return [
    ...lines,
    `QUERY_PREFIX = ${py(t.queryPrefix)}`,
    `PASSAGE_PREFIX = ${py(t.passagePrefix)}`,
    '',
    'class PrefixedEmbedding(OpenAILikeEmbedding):',
    '    """The model\'s prompts before each text, as the lab sent them (OpenAILikeEmbedding adds none)."""',
    '    def _get_query_embedding(self, query):',
    '        return super()._get_query_embedding(QUERY_PREFIX + query)',
    '    async def _aget_query_embedding(self, query):',
    '        return await super()._aget_query_embedding(QUERY_PREFIX + query)',
    '    def _get_text_embedding(self, text):',
    '        return super()._get_text_embedding(PASSAGE_PREFIX + text)',
    '    async def _aget_text_embedding(self, text):',
    '        return await super()._aget_text_embedding(PASSAGE_PREFIX + text)',
    '    def _get_text_embeddings(self, texts):',
    '        return super()._get_text_embeddings([PASSAGE_PREFIX + t for t in texts])',
    '    async def _aget_text_embeddings(self, texts):',
    '        return await super()._aget_text_embeddings([PASSAGE_PREFIX + t for t in texts])',
    '',
    'embed_model = PrefixedEmbedding(',
    ...args,
    ')',
    'Settings.embed_model = embed_model',
  ].join('\n');
}

/** Haystack YAML: the indexing `embedder` and the query `text_embedder` components (indented for their place). */
export function haystackEmbedders(t: EmbeddingTarget): { document: string; text: string; notes: string[] } {
  const block = (type: string, params: string[]) => [`      type: ${type}`, '      init_parameters:', ...params.map((p) => `        ${p}`)].join('\n');
  const notes = [describeTarget(t)];
  if (t.kind === 'hub') {
    const common = [`model: ${q(t.pythonId)}`, 'normalize_embeddings: true', ...(t.cutFrom ? [`truncate_dim: ${t.dims}`] : []), ...(REMOTE_CODE.test(t.pythonId) ? ['trust_remote_code: true'] : [])];
    return {
      document: block('haystack.components.embedders.sentence_transformers_document_embedder.SentenceTransformersDocumentEmbedder', [...common, `prefix: ${q(t.passagePrefix)}`]),
      text: block('haystack.components.embedders.sentence_transformers_text_embedder.SentenceTransformersTextEmbedder', [...common, `prefix: ${q(t.queryPrefix)}`]),
      notes,
    };
  }
  if (t.ollama) {
    if (t.queryPrefix) notes.push(`OllamaTextEmbedder takes no prefix: put ${q(t.queryPrefix)} before each question yourself, as the lab did.`);
    const common = [`model: ${q(t.model)}`, `url: ${q(t.ollama)}`];
    return {
      document: block('haystack_integrations.components.embedders.ollama.document_embedder.OllamaDocumentEmbedder', [...common, `prefix: ${q(t.passagePrefix)}`]),
      text: block('haystack_integrations.components.embedders.ollama.text_embedder.OllamaTextEmbedder', common),
      notes,
    };
  }
  notes.push('The key is read from the environment variable EMBEDDING_API_KEY (any value for a server without keys).');
  const common = [
    `model: ${q(t.model)}`,
    `api_base_url: ${q(t.apiBase)}`,
    'api_key: {type: env_var, env_vars: [EMBEDDING_API_KEY], strict: true}',
    ...(t.requestDims ? [`dimensions: ${t.requestDims}`] : []),
  ];
  return {
    document: block('haystack.components.embedders.openai_document_embedder.OpenAIDocumentEmbedder', [...common, `prefix: ${q(t.passagePrefix)}`]),
    text: block('haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder', [...common, `prefix: ${q(t.queryPrefix)}`]),
    notes,
  };
}
