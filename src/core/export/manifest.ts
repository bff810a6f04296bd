import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { modelInfo } from '../embed/models';
import type { TransformManifest } from './transform-code';
import type { RetrievalEngine } from '../engine';
import { analyzerWords, type AnalyzerName } from '../index/analyzer';
import { lexicalLabel, type Bm25Variant, type LexicalParams } from '../index/lexical-index';
import { STRATEGIES, type RetrievalParams, type StrategyName, type StructureParams, type UnitKind } from '../retrieve/params';
import { checkManifestSchema } from './manifest-schema';
import { variantParams } from './postings';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BundleError, TABLES, type BundleFile, type TableName } from './format';

/** Strategies the SQL functions reproduce; the others are in the golden run only when asked. */
export const SQL_STRATEGIES = ['naive', 'sentence', 'window', 'automerge'] as const satisfies readonly StrategyName[];
export type SqlStrategy = (typeof SQL_STRATEGIES)[number];

export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  version: number;
  lab: { name: string; version: string };
  /** The column that was exported: its strategy, retriever and every retrieval parameter. */
  strategy: StrategyName;
  retriever: RetrievalParams['retriever'];
  params: RetrievalParams;
  /** Chunk levels, section level, naive chunk size and overlap, headers and their fields. */
  structure: StructureParams;
  corpus: { documents: number; sentences: number; leaves: number; parents: number; chunks: number; maxSentenceTokens: number };
  /** Token counts (sentences, chunks, budgets, headers) are in this tokenizer's tokens. */
  tokenizer: string;
  embedding: {
    model: string;
    dtype: string;
    /** mean | cls | last | model | static | endpoint (see EmbedRecipe). */
    pooling: string;
    normalize: true;
    dims: number;
    queryPrefix: string;
    passagePrefix: string;
    testModel: boolean;
    /** Where the vectors came from ('transformers.js <id>', 'endpoint <URL> model <name>'). */
    source?: string;
  } | null;
  bm25: {
    /** `bm25plus` (MiniSearch BM25+) or `lucene` (Lucene's BM25Similarity): what raglab.bm25_search scores. */
    variant: Bm25Variant;
    /** "Lucene BM25 · stem", as the lab shows it beside a score. */
    label: string;
    description: string;
    k1: number;
    b: number;
    /** BM25+'s lower bound δ; 0 for Lucene's BM25, which has none. */
    delta: number;
    idf: string;
    /** How a unit's length (unit_lengths.length) and the mean (bm25_stats.avg_length) are counted. */
    length: string;
    score: string;
    ties: string;
    /** The analyzer's name (words, stem, words+stop, stem+stop) and what it does per language. */
    analyzer: AnalyzerName;
    analysis: string;
    /** The corpus's document languages (each analysed in its own). */
    languages: string[];
    queryTerms: string;
  };
  vectors: {
    kinds: UnitKind[];
    normalized: true;
    storage: { parquet: string; jsonl: string; postgres: string };
  };
  rrf: { formula: string; conventions: Record<string, string> };
  /** Contextual retrieval, when the exported configuration uses it (export/contexts.ts). */
  contextual?: ContextualManifest;
  /** The query transformation the exported configuration runs before retrieval (export/transform-code.ts). */
  queryTransform?: TransformManifest;
  sql: { strategies: SqlStrategy[]; notReproduced: string[]; call: string };
  /** Which targets the project's tests execute, and which are generated only. */
  targets: { name: string; files: string[]; status: 'verified by tests' | 'generated only' }[];
  tables: Record<string, { rows: number; columns: string[] }>;
  files: ManifestFile[];
}

/** The manifest's account of contextual retrieval, when the exported configuration uses it (export/contexts.ts). */
export interface ContextualManifest {
  /** contexts.json: the contexts of the exported documents, as the lab saves them. */
  file: string;
  /** Contexts carried per unit kind. */
  contexts: Partial<Record<UnitKind, number>>;
  /** Who wrote them ("model …", "endpoint … model …", "edited by you"), each with how many. */
  sources: Record<string, number>;
  /** The prompt's user template of the last run that wrote contexts (the default when none is recorded). */
  prompt: string;
  text: string;
  vectors: string;
  postings: string;
}

export interface ManifestInput {
  engine: RetrievalEngine;
  strategy: StrategyName;
  params: RetrievalParams;
  labVersion: string;
  vectorKinds: UnitKind[];
  tables: Record<string, { rows: number; columns: string[] }>;
  targets: Manifest['targets'];
}

export function buildManifest(input: ManifestInput): Omit<Manifest, 'files'> {
  const { engine, params } = input;
  const e = engine.embedder;
  const info = e ? modelInfo(e.model) : undefined;
  const h = engine.hierarchy;
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    lab: { name: 'rag-context-lab', version: input.labVersion },
    strategy: input.strategy,
    retriever: params.retriever,
    params,
    structure: { ...engine.structure, chunkLevels: [...engine.structure.chunkLevels], headers: { ...engine.structure.headers, fields: [...engine.structure.headers.fields] } },
    corpus: {
      documents: engine.corpus.docs.length,
      sentences: engine.corpus.sentences.length,
      leaves: h.leaves.length,
      parents: h.nodes.length - h.leaves.length,
      chunks: engine.chunks.length,
      maxSentenceTokens: engine.corpus.maxSentenceTokens,
    },
    tokenizer: engine.corpus.tokenizer,
    embedding: e
      ? {
          model: e.model,
          dtype: info?.dtype ?? 'fp32',
          pooling: e.recipe?.pooling ?? 'mean',
          normalize: true,
          dims: e.dim,
          queryPrefix: e.recipe?.queryPrefix ?? info?.queryPrefix ?? '',
          passagePrefix: e.recipe?.passagePrefix ?? info?.passagePrefix ?? '',
          testModel: e.isTestModel,
          ...(e.recipe ? { source: e.recipe.source } : {}),
        }
      : null,
    bm25: bm25Manifest(engine.structure.lexical, engine.corpus.docs.map((d) => d.language)),
    vectors: {
      kinds: input.vectorKinds,
      normalized: true,
      storage: {
        parquet: 'FIXED_LEN_BYTE_ARRAY of dims*4 bytes: little-endian IEEE-754 float32, L2-normalised as the lab stores them',
        jsonl: 'base64 of the same little-endian float32 bytes',
        postgres: `pgvector vector(${e?.dim ?? 'n'}), each value the shortest decimal that reads back to the same float32 (exact round trip)`,
      },
    },
    rrf: {
      formula: `score(u) = sum over lists of w / (c + rank), rank from 1, c = ${params.rrf.c}, weights bm25 ${params.rrf.weights.bm25} vector ${params.rrf.weights.vector}; each list fetches 2 x top-k; ties keep first-seen order (BM25 list first); a weight of 0 contributes nothing`,
      conventions: {
        langchain: `EnsembleRetriever(c=${params.rrf.c}, weights=[${params.rrf.weights.bm25}, ${params.rrf.weights.vector}]): same formula, rank from 1`,
        llamaindex: 'QueryFusionRetriever(mode="reciprocal_rerank") ranks from 0 with k fixed at 60 and no weights: rank r (from 1) here is r-1 there',
        haystack: 'DocumentJoiner(join_mode="reciprocal_rank_fusion") ranks from 0 with k = 61, scales weights to sum 1 and normalises scores: the order equals the lab\'s with c = 60 and equal weights',
        elasticsearch: `rrf retriever: rank_constant = ${params.rrf.c} (rank from 1), no per-list weights before 8.18`,
        qdrant: 'Fusion.RRF: fixed k = 2 in early versions, configurable k in newer: set it to c',
      },
    },
    sql: {
      strategies: [...SQL_STRATEGIES],
      notReproduced: [...STRATEGIES.filter((s) => !(SQL_STRATEGIES as readonly string[]).includes(s)), 'rerank (cross-encoder)', 'query fusion (LLM-written variants)'],
      call: "SELECT * FROM raglab.search('window', ARRAY['query','terms'], '[…query vector…]'::vector);",
    },
    targets: input.targets,
    tables: input.tables,
  };
}

/** The manifest's account of BM25: variant, parameters, how length is counted, the analyzer per language of the corpus. */
export function bm25Manifest(lexical: LexicalParams, languages: string[]): Manifest['bm25'] {
  const { k1, b, delta } = variantParams(lexical.bm25);
  const langs = [...new Set(languages)].sort();
  const perLanguage = langs.map((l) => `${l}: ${analyzerWords(lexical.analyzer, l)}`).join('; ');
  const common = {
    label: lexicalLabel(lexical),
    k1,
    b,
    delta,
    idf: 'ln(1 + (N - df + 0.5) / (df + 0.5)), N = units of the kind, df = units holding the term',
    analyzer: lexical.analyzer,
    languages: langs,
    analysis: `${ANALYSIS[lexical.analyzer]} Per language of this corpus: ${perLanguage || 'none'}. Units are indexed with their header when headers are on`,
    queryTerms: 'the query is analysed by the lab with the same analyzer (in the corpus\'s language when it has one; in a mixed corpus the detected language if the corpus has it, else its most common one); engines take these terms as text[] (golden.json holds them per question)',
  };
  if (lexical.bm25 === 'lucene') {
    return {
      variant: 'lucene',
      description: "Lucene's BM25Similarity as Anserini runs it (Lucene 8+, no (k1 + 1) factor); Elasticsearch and OpenSearch score with it too, with their own analyzers",
      ...common,
      length: "a unit's length is its number of TOKENS (every analysed term, repeats included: unit_lengths.length); avg_length is the total over units of the kind divided by their number (bm25_stats). Lengths are exact, not Lucene's one-byte norms",
      score: 'sum over query term occurrences (repeats count again) of idf * tf / (tf + k1*(1 - b + b*length/avg_length)); no matched-term multiplier',
      ties: 'equal scores go to the smaller unit id',
    };
  }
  return {
    variant: 'bm25plus',
    description: 'MiniSearch 7 BM25+ (not textbook BM25)',
    ...common,
    length: "a unit's length is its number of DISTINCT terms (unit_lengths.length); avg_length is MiniSearch's running mean (bm25_stats)",
    score: 'sum over query term occurrences (repeats count again) of idf * (delta + tf*(k1+1) / (tf + k1*(1 - b + b*length/avg_length))), times the number of distinct query terms the unit matched. Exact for queries of at most 30 distinct terms',
    ties: 'equal scores keep first-seen order: the first query term position that matches the unit, then the unit id',
  };
}

const ANALYSIS: Record<AnalyzerName, string> = {
  words: "Intl.Segmenter word segments (isWordLike) in the unit's document language; NFKD, marks and format characters removed, lower case, NFKC; no stemming, no stop words.",
  'words+stop': "Intl.Segmenter word segments (isWordLike) in the unit's document language, lower case (NFKC); English possessives ('s) and French/Italian elisions (l', d') dropped; the language's stop words (the stopword package's lists) dropped; then NFKD, marks and format characters removed, NFKC; no stemming.",
  stem: "Intl.Segmenter word segments (isWordLike) in the unit's document language, lower case (NFKC); English possessives ('s) and French/Italian elisions (l', d') dropped; the language's Snowball stemmer (@orama/stemmers; English: Porter); then NFKD, marks and format characters removed, NFKC. Languages without a stemmer (zh, ja, ko, …) keep their words.",
  'stem+stop': "As stem, after dropping the language's stop words (the stopword package's lists).",
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a manifest's shape: one message naming the first fault. */
export function parseManifest(bytes: Uint8Array | undefined): Manifest {
  if (!bytes) throw new BundleError('not a RAG Context Lab bundle: manifest.json is missing');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new BundleError(`manifest.json is truncated or corrupt: ${(e as Error).message}`);
  }
  if (!isObj(json) || json.format !== BUNDLE_FORMAT) throw new BundleError('not a RAG Context Lab bundle: manifest.json has no "format": "rag-lab-bundle"');
  if (json.version !== BUNDLE_VERSION) throw new BundleError(`unknown bundle format version ${JSON.stringify(json.version)}: this lab reads version ${BUNDLE_VERSION}`);
  for (const key of ['params', 'structure', 'corpus', 'vectors', 'tables'] as const) {
    if (!isObj(json[key])) throw new BundleError(`manifest.json is incomplete: "${key}" is missing`);
  }
  if (!Array.isArray(json.files)) throw new BundleError('manifest.json is incomplete: "files" is missing');
  checkManifestSchema(json);
  return json as unknown as Manifest;
}

/**
 * Up to this size Web Crypto hashes in one call (native, fastest). Past it, incrementally with
 * @noble/hashes: Web Crypto has no streaming digest, and refuses one input of 256 MiB or more in
 * Node and over 2 GiB in Chromium ("size exceeds the supported range") — a 1M-sentence bundle's
 * vectors.parquet at 384 dimensions is ~2.9 GB.
 */
const ONE_CALL_MAX = 128 * 2 ** 20;

/** SHA-256 of bytes, hex (the same in Node, a page and a worker). */
export async function sha256(bytes: Uint8Array): Promise<string> {
  let d: Uint8Array;
  if (bytes.length <= ONE_CALL_MAX) d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  else {
    const h = nobleSha256.create();
    for (let o = 0; o < bytes.length; o += ONE_CALL_MAX) {
      h.update(bytes.subarray(o, o + ONE_CALL_MAX));
      // Lets a worker take its messages (a cancel) between slices of a big file.
      await new Promise((r) => setTimeout(r, 0));
    }
    d = h.digest();
  }
  return [...d].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function fileEntries(files: BundleFile[]): Promise<ManifestFile[]> {
  return Promise.all(files.map(async (f) => ({ name: f.name, bytes: f.bytes.length, sha256: await sha256(f.bytes) })));
}

export function tableSummary(tables: { name: TableName; rows: number }[]): Record<string, { rows: number; columns: string[] }> {
  return Object.fromEntries(tables.map((t) => [t.name, { rows: t.rows, columns: TABLES[t.name].map((c) => c.name) }]));
}
