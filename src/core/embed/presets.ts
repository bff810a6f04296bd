/**
 * Embedding model presets: each model's own prompts, pooling, length limit and Matryoshka
 * dimensions, read from its model card and sentence-transformers files (named per entry:
 * `config_sentence_transformers.json` holds the prompts, `1_Pooling/config.json` the pooling,
 * `sentence_bert_config.json` the max_seq_length, `modules.json` whether a Normalize layer
 * follows). A wrong prefix or pooling costs several points of retrieval quality silently, so
 * they live here once and every embedder, the CLI and the exports read them.
 */

/** How token vectors become one vector: mean over real tokens, the first ([CLS]) token, the
 * last real token, or the model's own pooled output (`sentence_embedding`, e.g. EmbeddingGemma's
 * mean + dense layers exported inside the ONNX graph). */
export type Pooling = 'mean' | 'cls' | 'last' | 'model';

export interface EmbeddingSettings {
  /** Text put before a query ("query: ", an instruction). */
  queryPrefix: string;
  /** Text put before every unit embedded for the index. */
  passagePrefix: string;
  pooling: Pooling;
  /** L2-normalise (every preset does; cosine = dot product then). */
  normalize: boolean;
  /** Input limit in tokens, special tokens included (longer texts are truncated and counted). */
  maxTokens: number;
  /** Output dimensions the model was trained to be cut to (Matryoshka), largest first; empty when not. */
  matryoshka: number[];
  /** nomic-embed-text-v1.5 applies a layer norm before cutting (its card's transformers.js example). */
  layerNormBeforeTruncation?: boolean;
}

export interface EmbeddingPreset extends EmbeddingSettings {
  /** Short name used by the CLI (`--embedder bge-small-en-v1.5`) and the page. */
  name: string;
  /** ONNX repository on the Hugging Face hub (Xenova / onnx-community / the author's own onnx/ folder). */
  id: string;
  label: string;
  /** Full output dimension. */
  dim: number;
  dtype: 'fp32' | 'fp16' | 'q8' | 'q4';
  /** 'static': a Model2Vec token table and a mean, no transformer (runs as `model_type: 'model2vec'`). */
  architecture: 'transformer' | 'static';
  languages: string;
  /** Where the values above come from. */
  source: string;
  /** Hub revision holding the ONNX files when they are not on main. */
  revision?: string;
  testModel?: boolean;
  /**
   * 'recommended': a long-context mean-pooling model, what late chunking was made for (its
   * spans can hold thousands of tokens of a document; see late-chunking.ts).
   */
  lateChunking?: 'recommended';
}

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

export const EMBEDDING_PRESETS: EmbeddingPreset[] = [
  {
    // sentence-transformers/all-MiniLM-L6-v2: 1_Pooling mean, modules.json Normalize, sentence_bert_config max_seq_length 256.
    name: 'all-MiniLM-L6-v2', id: 'Xenova/all-MiniLM-L6-v2', label: 'all-MiniLM-L6-v2 (English)', dim: 384, dtype: 'q8', architecture: 'transformer',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 256, matryoshka: [], languages: 'English',
    source: 'sentence-transformers/all-MiniLM-L6-v2: 1_Pooling/config.json, modules.json, sentence_bert_config.json',
  },
  {
    // intfloat/multilingual-e5-small card: "query: " / "passage: " prefixes, average pooling; max 512.
    name: 'multilingual-e5-small', id: 'Xenova/multilingual-e5-small', label: 'multilingual-e5-small (100 languages)', dim: 384, dtype: 'q8', architecture: 'transformer',
    queryPrefix: 'query: ', passagePrefix: 'passage: ', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'multilingual',
    source: 'intfloat/multilingual-e5-small model card ("Usage") and 1_Pooling/config.json',
  },
  {
    // BAAI/bge-small-en-v1.5: config_sentence_transformers.json prompt for queries, none for passages; 1_Pooling CLS.
    name: 'bge-small-en-v1.5', id: 'Xenova/bge-small-en-v1.5', label: 'bge-small-en-v1.5 (English)', dim: 384, dtype: 'q8', architecture: 'transformer',
    queryPrefix: BGE_QUERY, passagePrefix: '', pooling: 'cls', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English',
    source: 'BAAI/bge-small-en-v1.5 model card ("query instruction"), 1_Pooling/config.json (CLS), modules.json (Normalize)',
  },
  {
    // Snowflake/snowflake-arctic-embed-xs: config_sentence_transformers.json prompts {query: …}; 1_Pooling CLS; ONNX in the repo's onnx/.
    name: 'snowflake-arctic-embed-xs', id: 'Snowflake/snowflake-arctic-embed-xs', label: 'snowflake-arctic-embed-xs (English)', dim: 384, dtype: 'q8', architecture: 'transformer',
    queryPrefix: BGE_QUERY, passagePrefix: '', pooling: 'cls', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English',
    source: 'Snowflake/snowflake-arctic-embed-xs: config_sentence_transformers.json, 1_Pooling/config.json',
  },
  {
    name: 'snowflake-arctic-embed-s', id: 'Snowflake/snowflake-arctic-embed-s', label: 'snowflake-arctic-embed-s (English)', dim: 384, dtype: 'q8', architecture: 'transformer',
    queryPrefix: BGE_QUERY, passagePrefix: '', pooling: 'cls', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English',
    source: 'Snowflake/snowflake-arctic-embed-s: config_sentence_transformers.json, 1_Pooling/config.json',
  },
  {
    // thenlper/gte-small card: average pooling, no instruction; max 512.
    name: 'gte-small', id: 'Xenova/gte-small', label: 'gte-small (English)', dim: 384, dtype: 'q8', architecture: 'transformer',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English',
    source: 'thenlper/gte-small model card and 1_Pooling/config.json',
  },
  {
    // nomic-ai/nomic-embed-text-v1.5 card: task prefixes, mean pooling, Matryoshka 768/512/256/128/64 with a
    // layer norm before cutting (its transformers.js example); 8,192-token context (rotary). Late chunking
    // recommended: mean pooling over a long context is what the method needs (Günther et al. 2024, arXiv 2409.04701).
    name: 'nomic-embed-text-v1.5', id: 'nomic-ai/nomic-embed-text-v1.5', label: 'nomic-embed-text-v1.5 (English, 8k tokens)', dim: 768, dtype: 'q8', architecture: 'transformer',
    queryPrefix: 'search_query: ', passagePrefix: 'search_document: ', pooling: 'mean', normalize: true, maxTokens: 8192,
    matryoshka: [768, 512, 256, 128, 64], layerNormBeforeTruncation: true, languages: 'English', lateChunking: 'recommended',
    source: 'nomic-ai/nomic-embed-text-v1.5 model card ("Task instruction prefixes", "Adjusting Dimensionality", Transformers.js example)',
  },
  {
    // jinaai/jina-embeddings-v2-small-en card: mean pooling, 8,192 tokens (ALiBi), no prefixes. Late chunking
    // recommended: the model of jina-ai/late-chunking's README evaluation (SciFact nDCG@10 64.2 → 66.1).
    name: 'jina-embeddings-v2-small-en', id: 'Xenova/jina-embeddings-v2-small-en', label: 'jina-embeddings-v2-small-en (English, 8k tokens)', dim: 512, dtype: 'q8', architecture: 'transformer',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 8192, matryoshka: [], languages: 'English', lateChunking: 'recommended',
    source: 'jinaai/jina-embeddings-v2-small-en model card ("mean pooling", 8192 sequence length)',
  },
  {
    // google/embeddinggemma-300m: config_sentence_transformers.json prompts "query" and "document"; pooling is mean
    // + two dense layers, exported inside the ONNX graph as `sentence_embedding`; MRL 768/512/256/128; 2,048 tokens.
    // The card warns activations do not support fp16.
    name: 'embeddinggemma-300m', id: 'onnx-community/embeddinggemma-300m-ONNX', label: 'EmbeddingGemma-300m (100+ languages)', dim: 768, dtype: 'q8', architecture: 'transformer',
    queryPrefix: 'task: search result | query: ', passagePrefix: 'title: none | text: ', pooling: 'model', normalize: true, maxTokens: 2048,
    matryoshka: [768, 512, 256, 128], languages: 'multilingual',
    source: 'google/embeddinggemma-300m: config_sentence_transformers.json (prompts), model card (MRL, precision); onnx-community/embeddinggemma-300m-ONNX card (sentence_embedding output)',
  },
  // Model2Vec static models: a token table and a mean (config.json: normalize true). The Model2Vec README's
  // JavaScript example loads the ONNX weights from revision refs/pr/1 (not merged to main when it was written).
  {
    name: 'potion-base-8M', id: 'minishlab/potion-base-8M', label: 'potion-base-8M (static, English, fastest)', dim: 256, dtype: 'fp32', architecture: 'static',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English', revision: 'refs/pr/1',
    source: 'minishlab/potion-base-8M config.json (hidden_dim, normalize), Model2Vec README (JavaScript example; max_length 512 in encode)',
  },
  {
    name: 'potion-retrieval-32M', id: 'minishlab/potion-retrieval-32M', label: 'potion-retrieval-32M (static, English, for retrieval)', dim: 512, dtype: 'fp32', architecture: 'static',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English', revision: 'refs/pr/1',
    source: 'minishlab/potion-retrieval-32M config.json and model card (MTEB retrieval 35.1 vs all-MiniLM-L6-v2 42.9)',
  },
  {
    name: 'potion-multilingual-128M', id: 'minishlab/potion-multilingual-128M', label: 'potion-multilingual-128M (static, 101 languages)', dim: 256, dtype: 'fp32', architecture: 'static',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'multilingual', revision: 'refs/pr/1',
    source: 'minishlab/potion-multilingual-128M config.json and model card',
  },
];

export const TEST_EMBEDDER_ID = 'rag-lab/test-embedder';
export const TEST_STATIC_EMBEDDER_ID = 'rag-lab/test-static-embedder';

/** The project's generated stand-ins: labelled test models everywhere. */
export const TEST_PRESETS: EmbeddingPreset[] = [
  {
    name: 'test', id: TEST_EMBEDDER_ID, label: 'TEST MODEL (random bag of word pieces)', dim: 128, dtype: 'fp32', architecture: 'transformer',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'English word pieces', testModel: true,
    source: 'generated by scripts/make-test-model.ts',
  },
  {
    name: 'test-static', id: TEST_STATIC_EMBEDDER_ID, label: 'TEST STATIC MODEL (Model2Vec-shaped random table)', dim: 128, dtype: 'fp32', architecture: 'static',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [64, 32], languages: 'English word pieces', testModel: true,
    source: 'generated by scripts/make-static-model.ts',
  },
];

/** A preset by short name or hub id (case-insensitive; "BAAI/bge-small-en-v1.5" finds the Xenova copy). */
export function findPreset(nameOrId: string): EmbeddingPreset | undefined {
  const q = nameOrId.trim().toLowerCase();
  const base = q.split('/').pop()!;
  const all = [...EMBEDDING_PRESETS, ...TEST_PRESETS];
  return all.find((p) => p.id.toLowerCase() === q || p.name.toLowerCase() === q) ?? all.find((p) => !p.testModel && q.includes('/') && p.name.toLowerCase() === base);
}

export interface ResolvedModel {
  preset: EmbeddingPreset;
  /** Names of the settings that were guessed (empty for a preset). */
  guessed: (keyof EmbeddingSettings | 'architecture')[];
}

/**
 * Settings for any model id: the preset's, or guesses for an unknown model (mean pooling, no
 * prefixes, 512 tokens, no Matryoshka; a name with "model2vec"/"potion" is taken as static), each
 * named in `guessed` so the page and CLI can say so and let the user change them.
 */
export function resolveEmbeddingModel(nameOrId: string, overrides: Partial<EmbeddingSettings> = {}): ResolvedModel {
  const known = findPreset(nameOrId);
  if (known) return { preset: { ...known, ...overrides }, guessed: [] };
  const id = nameOrId.trim();
  const staticGuess = /model2vec|potion|static/i.test(id);
  const guessed: ResolvedModel['guessed'] = ['queryPrefix', 'passagePrefix', 'pooling', 'maxTokens', 'matryoshka', 'architecture'];
  const preset: EmbeddingPreset = {
    name: id, id, label: `${id} (settings guessed)`, dim: 0, dtype: staticGuess ? 'fp32' : 'q8', architecture: staticGuess ? 'static' : 'transformer',
    queryPrefix: '', passagePrefix: '', pooling: 'mean', normalize: true, maxTokens: 512, matryoshka: [], languages: 'unknown',
    source: 'guessed: not a preset', ...overrides,
  };
  return { preset, guessed: guessed.filter((k) => !(k in overrides)) };
}

/** One line naming the settings in use, for the CLI and the page ("pooling cls · query prefix "…" · 384 dims"). */
export function describeSettings(p: EmbeddingPreset, dims?: number, guessed: readonly string[] = []): string {
  const g = (k: string) => (guessed.includes(k) ? ' (guessed)' : '');
  const q = p.queryPrefix ? JSON.stringify(p.queryPrefix) : 'none';
  const d = p.passagePrefix ? JSON.stringify(p.passagePrefix) : 'none';
  return `${p.architecture === 'static' ? 'static (Model2Vec)' : `pooling ${p.pooling}${g('pooling')}`} · query prefix ${q}${g('queryPrefix')} · passage prefix ${d}${g('passagePrefix')} · max ${p.maxTokens} tokens${g('maxTokens')}${dims ? ` · ${dims} dims` : ''}`;
}

/** The settings a page or a caller may change: prefixes, pooling, length limit, normalisation. */
export const EDITABLE_SETTINGS = ['queryPrefix', 'passagePrefix', 'pooling', 'maxTokens', 'normalize'] as const;
export type EditableSetting = (typeof EDITABLE_SETTINGS)[number];

/**
 * The edits that really differ from `base` (a preset's or the guessed settings), in a fixed
 * order. Only these go to the embedder: an edit put back to the preset's value leaves no
 * override, so the plain preset keeps its key and its stored vectors.
 */
export function changedSettings(base: EmbeddingSettings, edits: Partial<EmbeddingSettings>): Partial<Pick<EmbeddingSettings, EditableSetting>> {
  const out: Partial<Record<EditableSetting, unknown>> = {};
  for (const k of EDITABLE_SETTINGS) if (edits[k] !== undefined && edits[k] !== base[k]) out[k] = edits[k];
  return out as Partial<Pick<EmbeddingSettings, EditableSetting>>;
}

/**
 * What vectors are keyed by (vector sets, saved vectors, manifests): the model id, `@dim` when
 * cut to a Matryoshka size, `#tag` when settings were given, so vectors of two sizes or two
 * settings never mix. The plain model's key is its id.
 */
export function embeddingModelKey(id: string, settings: EmbeddingSettings, cut: { dim: number; fullDim: number; custom: boolean }): string {
  return `${id}${cut.dim !== cut.fullDim ? `@${cut.dim}` : ''}${cut.custom ? `#${settingsTag(settings)}` : ''}`;
}

/** A short stable tag of the settings (FNV-1a of prefixes, pooling, length limit, normalisation). */
export function settingsTag(p: EmbeddingSettings): string {
  const s = JSON.stringify([p.queryPrefix, p.passagePrefix, p.pooling, p.maxTokens, p.normalize]);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
