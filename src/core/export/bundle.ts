import type { RetrievalEngine } from '../engine';
import { retrievalParams, type RetrievalParams, type RetrieverName, type StrategyName } from '../retrieve/params';
import { GOLDEN, MANIFEST, SQL_FILES, jsonlPath, parquetPath, type BundleFile } from './format';
import { goldenRun, type QuestionInput } from './golden';
import { frameworkFiles } from './frameworks';
import { transformFiles, transformManifest, type ExportTransform } from './transform-code';
import { writeJsonl } from './jsonl';
import { buildManifest, fileEntries, tableSummary, SQL_STRATEGIES, type Manifest } from './manifest';
import { writeParquet } from './parquet';
import { dataSql, functionsSql, schemaSql } from './sql';
import { SQL_STRATEGY_UNIT } from './golden';
import { corpusTables } from './tables';
import { bundleContexts, CONTEXTS_FILE } from './contexts';

export interface ExportOptions {
  /** The column being exported. */
  strategy: StrategyName;
  params?: Partial<RetrievalParams>;
  /** Questions of the golden run (an evaluation set's, or typed ones). */
  questions?: QuestionInput[];
  labVersion?: string;
  /** Retrievers of the golden run; default bm25, and vector and hybrid when the vectors are there. */
  retrievers?: RetrieverName[];
  /** A query transformation the configuration runs before retrieval: recorded, with framework code. */
  queryTransform?: ExportTransform;
}

export interface ExportResult {
  files: BundleFile[];
  manifest: Manifest;
  /** Bytes of the vectors as raw float32 plus the documents' text as UTF-8: what a bundle is measured against. */
  rawBytes: number;
}

const encoder = new TextEncoder();

/**
 * Exports the engine's corpus and one column's configuration as a bundle: manifest,
 * Parquet and JSONL tables, PostgreSQL + pgvector SQL, and the golden run. Pure: the
 * caller writes the files (a folder in Node, a zip in the page).
 */
export async function exportBundle(engine: RetrievalEngine, options: ExportOptions): Promise<ExportResult> {
  // The cross-encoder is not reproducible in SQL: the exported configuration retrieves without it.
  const params = retrievalParams({ ...options.params, rerank: { ...retrievalParams(options.params).rerank, enabled: false } });
  const { tables, vectorKinds, dim } = corpusTables(engine, params.filters);
  const vectorsFor = (r: RetrieverName) => r === 'bm25' || SQL_STRATEGIES.every((s) => vectorKinds.includes(SQL_STRATEGY_UNIT[s]));
  const retrievers = (options.retrievers ?? ['bm25', 'vector', 'hybrid']).filter((r) => vectorsFor(r));
  const golden = await goldenRun(engine, options.questions ?? [], params, { retrievers, strategies: SQL_STRATEGIES });

  const contexts = bundleContexts(engine);
  const files: BundleFile[] = [];
  for (const t of tables) files.push({ name: parquetPath(t.name), bytes: writeParquet(t) });
  for (const t of tables) files.push({ name: jsonlPath(t.name), bytes: writeJsonl(t) });
  const base = buildManifest({
    engine,
    strategy: options.strategy,
    params,
    labVersion: options.labVersion ?? 'unknown',
    vectorKinds,
    tables: tableSummary(tables),
    targets: [
      { name: 'PostgreSQL + pgvector (PGlite 0.5.14, pgvector 0.8)', files: [...SQL_FILES], status: 'verified by tests' },
      { name: 'Parquet (hyparquet) and JSONL', files: ['parquet/', 'jsonl/'], status: 'verified by tests' },
      { name: 'LangChain.js EnsembleRetriever fusion (RRF order on the golden questions)', files: ['frameworks/langchain/fusion.mjs'], status: 'verified by tests' },
      { name: 'LangChain.js retriever wiring', files: ['frameworks/langchain/retriever.mjs'], status: 'generated only' },
      { name: 'Haystack 2.x pipelines (indexing and query)', files: ['frameworks/haystack/pipelines.yaml'], status: 'generated only' },
      { name: 'LlamaIndex (Python)', files: ['frameworks/llamaindex/pipeline.py'], status: 'generated only' },
    ],
  });
  if (contexts) base.contextual = contexts.manifest;
  if (options.queryTransform) {
    base.queryTransform = transformManifest(options.queryTransform);
    base.targets.push({ name: `Query transformation: ${base.queryTransform.description}`, files: base.queryTransform.files, status: 'generated only' });
  }
  const [schema, data, functions] = SQL_FILES;
  files.push({ name: schema, bytes: encoder.encode(schemaSql(dim)) });
  files.push({ name: data, bytes: dataSql(tables, base) });
  files.push({ name: functions, bytes: encoder.encode(functionsSql()) });
  files.push({ name: GOLDEN, bytes: encoder.encode(JSON.stringify(golden)) });
  if (contexts) files.push({ name: CONTEXTS_FILE, bytes: encoder.encode(JSON.stringify(contexts.json)) });
  files.push(...frameworkFiles(base));
  if (options.queryTransform) files.push(...transformFiles(options.queryTransform));
  const manifest: Manifest = { ...base, files: await fileEntries(files) };
  files.unshift({ name: MANIFEST, bytes: encoder.encode(JSON.stringify(manifest, null, 2) + '\n') });

  const vectorBytes = (dim ?? 0) * 4 * vectorKinds.reduce((n, k) => n + engine.unitCount(k), 0);
  const textBytes = engine.corpus.docs.reduce((n, d) => n + encoder.encode(d.text).length, 0);
  return { files, manifest, rawBytes: vectorBytes + textBytes };
}
