/**
 * rag-lab: the command line over the same retrieval core as the web app.
 *   index <files…> --out corpus.json     files → a saved corpus (documents + vectors)
 *   query "question" <files…|--corpus F>  each strategy's blocks as a readable table
 *   eval --data PATH                      dataset + strategies + params → metrics table
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { LoaderError } from '../core/documents/builder';
import { loadDocument } from '../core/documents/load';
import { TEST_RERANKER_ID } from '../core/embed/models';
import { RetrievalEngine } from '../core/engine';
import { readBeir } from '../core/eval/beir';
import { DatasetError, type EvalSet } from '../core/eval/dataset';
import { paramsInWords } from '../core/eval/describe';
import { METRIC_LABELS, RANKING_METRICS, type MetricName } from '../core/eval/metrics';
import { baselineDifferences, difference, differenceWords } from '../core/eval/compare';
import { evaluate, unitKinds, type EvalRow } from '../core/eval/run-eval';
import { defaultSweep, recommend, sweep, sweepSize, type SweepPoint } from '../core/eval/sweep';
import { CrossEncoderReranker, type Reranker } from '../core/embed/reranker';
import { ANALYZERS } from '../core/index/analyzer';
import { BM25_VARIANTS, DEFAULT_LEXICAL, lexicalLabel, type LexicalParams } from '../core/index/lexical-index';
import { BUNDLE_KINDS } from '../core/export/tables';
import { retrievalParams, UNIT_KINDS, type RetrievalParams, type StructureParams, type UnitKind } from '../core/retrieve/params';
import { RETRIEVERS, type RetrieverName } from '../core/retrieve/retrievers';
import { PARAM_GROUPS, STRATEGIES, strategyTitle, strategyWords, SWEEP_AXES, BASELINE } from '../core/strategies/registry';
import type { CliValues } from '../core/strategies/types';
import { validateLevels } from '../core/structure/hierarchy';
import { validateNaive } from '../core/structure/naive-chunks';
import { DEFAULT_PACKED, validatePacked, type PackedChunkParams } from '../core/structure/packed-chunks';
import { DEFAULT_SEMANTIC, validateSemantic, type SemanticChunkParams } from '../core/structure/semantic-chunks';
import { readSquadText } from '../core/eval/squad';
import { sectionPath } from '../core/structure/corpus';
import type { Document } from '../core/types';
import { PROJECT_MODELS_DIR, setupNode } from '../node/setup';
import { cmdExport, cmdVerify, engineFromBundle, type ExportDeps } from './export-commands';
import { ProgressBar } from './progress';
import { renderTable } from './table';
import { cmdQuestions, loadQuestionsEvalSet, queryJson, QUESTION_OPTIONS, QUESTIONS_HELP, sourceLineOf, type QuestionValues } from './questions-commands';
import { reportFailure } from './failure';
import { visible } from './terminal';
import { writeFileAtomic } from '../node/atomic-write';
import { EMBEDDER_HELP, EMBEDDER_OPTIONS, loadEmbedderFromOptions, savedEmbedderValues, type EmbedderValues } from './embedder-options';

/** A user error: printed as one line, exit code 2. */
class UsageError extends Error {}

const OPTIONS = {
  data: { type: 'string' },
  'limit-docs': { type: 'string' },
  'limit-questions': { type: 'string' },
  strategies: { type: 'string' },
  budget: { type: 'string' },
  retriever: { type: 'string' },
  embedder: { type: 'string' },
  'models-dir': { type: 'string' },
  remote: { type: 'boolean' },
  json: { type: 'boolean' },
  out: { type: 'string' },
  corpus: { type: 'string' },
  'top-k': { type: 'string' },
  'rrf-c': { type: 'string' },
  weights: { type: 'string' },
  levels: { type: 'string' },
  'chunk-size': { type: 'string' },
  'packed-size': { type: 'string' },
  'packed-overlap': { type: 'string' },
  'semantic-buffer': { type: 'string' },
  'semantic-percentile': { type: 'string' },
  headers: { type: 'boolean' },
  split: { type: 'string' },
  language: { type: 'string' },
  sweep: { type: 'boolean' },
  'sweep-headers': { type: 'boolean' },
  analyzer: { type: 'string' },
  bm25: { type: 'string' },
  reranker: { type: 'string' },
  metric: { type: 'string' },
  strategy: { type: 'string' },
  question: { type: 'string', multiple: true },
  engine: { type: 'string' },
  from: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  debug: { type: 'boolean' },
} as const;

/** The strategies' own options (--window, --threshold, …), declared by their parameter groups. */
const GROUP_OPTIONS: Record<string, { type: 'string' | 'boolean' }> = Object.assign({}, ...PARAM_GROUPS.map((g) => g.cli?.options ?? {}));

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const HELP = `rag-lab — RAG Context Lab on the command line

Commands
  index <files…> --out corpus.json   load files (pdf, docx, pptx, xlsx, csv, epub, images… see docs/formats.md), split, embed, save
  query "question" <files…>          show what each strategy hands over
  query "question" --corpus F        the same over a saved corpus
  eval --data PATH                   metrics per strategy and retriever on a labelled set
                                     (SQuAD-format .json, or a BEIR folder)
  export --out DIR (<files…>|--corpus F|--data PATH|--from DIR) [--strategy S] [--question Q]…
                                     a bundle: manifest, Parquet + JSONL tables, PostgreSQL +
                                     pgvector SQL, golden run, framework code (one column's
                                     configuration: --strategy, --retriever, retrieval options)
  verify DIR|ZIP [--engine pglite] [--json]
                                     load the bundle's SQL into PGlite and compare every
                                     golden question with the lab (exit 1 on a difference)
  index --from DIR|ZIP --out corpus.json
                                     a saved corpus from a bundle (folder or .zip), without re-embedding

Options
  --strategies a,b      ${STRATEGIES.join(',')} (default: all)
  --retriever r[,r]     ${RETRIEVERS.join(' | ')} (eval default: all three; query: hybrid);
                        bm25 alone loads no embedding model (index: saves no vectors)
  --budget TOKENS|none  context token budget (eval default 512; none = top-k blocks)
${EMBEDDER_HELP}
  --models-dir DIR      folder with <org>/<model>/ (default public/models)
  --remote              allow downloading models from the Hugging Face hub
  --limit-docs N        eval: use the first N documents / articles
  --limit-questions N   eval: use the first N questions
  --top-k K             units retrieved before expansion (default 10; eval 50)
${PARAM_GROUPS.flatMap((g) => g.cli?.help ?? []).join('\n')}
  --rrf-c C             RRF constant (default 60)  --weights W_BM25,W_VECTOR (default 0.5,0.5)
  --levels L1,L2,L3     chunk levels in tokens (default 2048,512,128)
  --chunk-size N        naive chunk size in tokens (default 128)
  --packed-size N       sentence-packed chunks (LlamaIndex SentenceSplitter): size in tokens (default ${DEFAULT_PACKED.size})
  --packed-overlap N    tokens of whole sentences carried into the next packed chunk (default ${DEFAULT_PACKED.overlap})
  --semantic-buffer N   semantic chunks (LlamaIndex SemanticSplitterNodeParser): neighbours embedded
                        with each sentence on each side (default ${DEFAULT_SEMANTIC.buffer}); needs an embedding model
  --semantic-percentile P
                        break where the neighbour distance exceeds this percentile (default ${DEFAULT_SEMANTIC.percentile})
  --headers             contextual chunk headers on
  --analyzer A[,A…]     BM25 terms: ${ANALYZERS.join(' | ')} (default stem+stop; stem: Snowball
                        per language, Porter for English; +stop drops stop words)
  --bm25 V[,V…]         BM25 variant: bm25plus (MiniSearch's BM25+) | lucene
                        (Lucene/Anserini: k1 0.9, b 0.4, length in tokens; default); eval measures each
  --split S             BEIR qrels split (default test)
  --language L          language of the dataset's documents (default: detected)
  --json                eval: print one JSON object instead of a table
  --debug               on an error, print the stack trace after the error: line
  --sweep               eval: sweep ${SWEEP_AXES.map((a) => lowerFirst(a.label)).join(', ')}, RRF c × weights
                        at each budget (--budget 256,512 by default) and recommend the best
  --sweep-headers       with --sweep: also with contextual headers on (embeds a second variant)
  --reranker R          test | none | <model id>: with --sweep, also measure rerank on
  --metric M            what "best" means: ${RANKING_METRICS[0]} (default), ${RANKING_METRICS.slice(1).join(', ')}
`;

function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isFinite(n) || n < 0 || !Number.isInteger(n)) throw new UsageError(`--${name} must be a whole number ≥ 0, got "${v}"`);
  return n;
}

function num(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = v.trim() === '' ? Number.NaN : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a number ≥ 0, got "${v}"`);
  return n;
}

function list<T extends string>(v: string | undefined, allowed: readonly T[], name: string, fallback: readonly T[]): T[] {
  if (!v) return [...fallback];
  const items = v.split(',').map((s) => s.trim()).filter(Boolean);
  for (const i of items) if (!allowed.includes(i as T)) throw new UsageError(`--${name}: unknown "${i}" (choose from ${allowed.join(', ')})`);
  return items as T[];
}

type OptionValue<O> = O extends { multiple: true } ? string[] : O extends { type: 'boolean' } ? boolean : string;
type Values = { [K in keyof typeof OPTIONS]?: OptionValue<(typeof OPTIONS)[K]> } & CliValues & QuestionValues & EmbedderValues;
function parse(argv: string[]): { values: Values; positionals: string[] } {
  return parseArgs({ args: argv, options: { ...OPTIONS, ...GROUP_OPTIONS, ...QUESTION_OPTIONS, ...EMBEDDER_OPTIONS }, allowPositionals: true, strict: true }) as { values: Values; positionals: string[] };
}

/** Retrieval options, validated before any file is read or embedded. */
function retrieval(values: Values, defaults: { topK: number; budget: number | null }): RetrievalParams {
  const [wb, wv] = (values.weights ?? '0.5,0.5').split(',').map((x) => num(x, 'weights', 0.5));
  const topK = int(values['top-k'], 'top-k', defaults.topK);
  if (topK < 1) throw new UsageError('--top-k must be at least 1');
  const build = () => {
    // Each strategy parameter group reads its own options (--window, --threshold, …).
    const groups = Object.fromEntries(PARAM_GROUPS.filter((g) => g.cli).map((g) => [g.key, g.cli!.read(values, g.defaults)]));
    return retrievalParams({
      topK,
      budgetTokens: values.budget === 'none' ? null : values.budget !== undefined ? int(values.budget.split(',')[0], 'budget', 0) : defaults.budget,
      ...(groups as Partial<RetrievalParams>),
      rrf: { c: num(values['rrf-c'], 'rrf-c', 60), weights: { bm25: wb ?? 0.5, vector: wv ?? 0.5 } },
    });
  };
  try {
    return build();
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}

/** Structure options (they change what is embedded), validated before any work. */
function structure(values: Values): Partial<StructureParams> {
  const levels = values.levels ? values.levels.split(',').map((x) => int(x, 'levels', 128)) : undefined;
  const naive = { size: int(values['chunk-size'], 'chunk-size', 128), overlap: 0 };
  try {
    if (levels) validateLevels(levels);
    validateNaive(naive);
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^chunk levels/, '--levels').replace(/^naive chunk size/, '--chunk-size'));
  }
  return {
    ...(levels ? { chunkLevels: levels } : {}),
    naive,
    ...chunkers(values),
    headers: { enabled: Boolean(values.headers), title: true, section: true, fields: [] },
    lexical: lexicalChoices(values)[0]!,
  };
}

/** Sentence-packed and semantic chunk options over `base` (the defaults, or a saved corpus's), validated. */
function chunkers(values: Values, base: { packed?: PackedChunkParams; semantic?: SemanticChunkParams } = {}): { packed: PackedChunkParams; semantic: SemanticChunkParams } {
  const p = base.packed ?? DEFAULT_PACKED;
  const sm = base.semantic ?? DEFAULT_SEMANTIC;
  const packed = { size: int(values['packed-size'], 'packed-size', p.size), overlap: int(values['packed-overlap'], 'packed-overlap', p.overlap) };
  const semantic = { buffer: int(values['semantic-buffer'], 'semantic-buffer', sm.buffer), percentile: num(values['semantic-percentile'], 'semantic-percentile', sm.percentile) };
  try {
    validatePacked(packed);
    validateSemantic(semantic);
  } catch (e) {
    // "packed.overlap must …" → "--packed-overlap must …"
    throw new UsageError((e as Error).message.replace(/^(packed|semantic)\.(\w+)/, '--$1-$2').replace(/packed\.size/, '--packed-size'));
  }
  return { packed, semantic };
}

/** Every analyzer × BM25 variant asked for (--analyzer a,b --bm25 x,y), the default alone when none. */
function lexicalChoices(values: Values): LexicalParams[] {
  const analyzers = list(values.analyzer, ANALYZERS, 'analyzer', [DEFAULT_LEXICAL.analyzer]);
  const variants = list(values.bm25, BM25_VARIANTS, 'bm25', [DEFAULT_LEXICAL.bm25]);
  return analyzers.flatMap((analyzer) => variants.map((bm25) => ({ analyzer, bm25 })));
}

/** The retrievers asked for with --retriever, or null when the option is absent. */
function requestedRetrievers(values: Values): RetrieverName[] | null {
  return values.retriever ? list(values.retriever, RETRIEVERS, 'retriever', RETRIEVERS) : null;
}

/** True when every requested retriever is BM25: no embedding model is needed, so none is loaded. */
function bm25Only(values: Values): boolean {
  const r = requestedRetrievers(values);
  return r !== null && r.every((x) => x === 'bm25');
}

async function makeEngine(values: Values, structureParams: Partial<StructureParams> = structure(values)): Promise<RetrievalEngine> {
  const modelsDir = values['models-dir'] ?? PROJECT_MODELS_DIR;
  if (values['models-dir'] && !existsSync(modelsDir)) throw new UsageError(`--models-dir: no such folder: ${modelsDir}`);
  setupNode({ modelsDir, allowRemoteModels: Boolean(values.remote) });
  let embedder = null;
  if (bm25Only(values)) {
    // BM25 needs no vectors: never ask for a model that may not be generated or reachable.
    process.stderr.write('note: --retriever bm25: no vectors computed (BM25 needs no model)\n');
  } else embedder = await loadEmbedderFromOptions(values, modelsDir, (m) => new UsageError(m));
  return new RetrievalEngine({ embedder, structure: structureParams });
}

async function embedAll(engine: RetrievalEngine, kinds: UnitKind[], quiet = false): Promise<void> {
  if (!engine.embedder) return;
  for (const kind of kinds) {
    // Semantic chunks are found first (each sentence embedded with its neighbours), then embedded.
    const bar = quiet ? null : new ProgressBar(`embedding ${kind === 'leaf' ? 'leaves' : kind === 'packed' || kind === 'semantic' ? `${kind} chunks` : `${kind}s`}`);
    const { truncated } = await engine.embedUnits(kind, { onEmbedProgress: (p) => bar?.update(p.done, p.total) });
    if (truncated.length) process.stderr.write(`warning: ${truncated.length} ${kind}(s) exceed the model's ${engine.embedder.maxTokens}-token limit and were truncated\n`);
  }
}

async function loadFiles(paths: string[]): Promise<Document[]> {
  const docs: Document[] = [];
  for (const p of paths) {
    if (!existsSync(p) || !statSync(p).isFile()) {
      process.stderr.write(`error: ${visible(p)}: no such file\n`);
      continue;
    }
    try {
      const st = statSync(p);
      docs.push(await loadDocument({ name: basename(p), bytes: readFileSync(p), lastModified: st.mtimeMs }));
    } catch (e) {
      process.stderr.write(`error: ${visible(e instanceof LoaderError ? e.message : `${p}: ${(e as Error).message}`)}\n`);
    }
  }
  return docs;
}

interface SavedCorpus {
  format: 'rag-lab-corpus';
  version: 1;
  embedder: string | null;
  structure: RetrievalEngine['structure'];
  docs: Document[];
  vectors: Partial<Record<UnitKind, string>>;
  /** Semantic chunks per document (sentence ranges from its first sentence): found with the embedder, so saved with the vectors. */
  semantic?: { start: number; end: number }[][];
}

async function cmdIndex(values: Values, files: string[]): Promise<void> {
  if (!files.length && !values.from) throw new UsageError('index: give one or more files, or --from BUNDLE_DIR');
  if (!values.out) throw new UsageError('index: --out FILE is required');
  const t0 = performance.now();
  let engine: RetrievalEngine;
  if (values.from) {
    if (files.length) throw new UsageError('index: give files or --from, not both');
    // Documents, units and vectors come from the bundle: nothing is embedded again.
    engine = await engineFromBundle(values, values.from, exportDeps);
  } else {
    engine = await makeEngine(values, structure(values));
    const docs = await loadFiles(files);
    if (!docs.length) throw new UsageError('index: no file could be loaded');
    engine.addDocuments(docs);
  }
  const docs = engine.corpus.docs;
  // A bundle carries no semantic chunks (the model cuts them): indexing from one embeds only
  // what it lacks, and a query over the saved corpus makes them when its strategies need them.
  await embedAll(engine, values.from ? [...BUNDLE_KINDS] : [...UNIT_KINDS]);
  const vectors = Object.fromEntries(
    engine.snapshotVectors('current').map(({ key, data: v }) => [RetrievalEngine.kindOf(key), Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')]),
  );
  const saved: SavedCorpus = { format: 'rag-lab-corpus', version: 1, embedder: engine.embedder?.model ?? null, structure: engine.structure, docs, vectors, ...(engine.embedder ? { semantic: engine.semanticChunks() } : {}) };
  // Whole or not at all: a failed run never leaves a half-written corpus in place of a good one.
  writeFileAtomic(values.out, JSON.stringify(saved));
  const c = engine.corpus;
  console.log(
    renderTable(
      ['document', 'language', 'sections', 'pages', 'sentences'],
      c.docs.map((d, i) => [d.title.slice(0, 60), d.language, d.sections.length - 1, d.pages.length, c.docStarts[i + 1]! - c.docStarts[i]!]),
    ),
  );
  console.log(`\n${c.sentences.length} sentences · ${engine.hierarchy.leaves.length} leaves · ${engine.chunks.length} naive chunks · embedder ${engine.embedder?.model ?? 'none'} · ${((performance.now() - t0) / 1000).toFixed(1)}s → ${values.out}`);
}

async function engineFromSaved(values: Values, path: string): Promise<RetrievalEngine> {
  let saved: SavedCorpus;
  try {
    saved = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--corpus ${path}: ${(e as Error).message}`);
  }
  if (saved?.format !== 'rag-lab-corpus') throw new UsageError(`--corpus ${path}: not a corpus saved by "rag-lab index"`);
  if (values.levels || values['chunk-size'] || values.headers) {
    throw new UsageError('--levels, --chunk-size and --headers cannot change a saved corpus; index the files again with them');
  }
  const chosen = savedEmbedderValues(saved.embedder, values, (m) => new UsageError(m));
  // The analyzer and BM25 variant only change the lexical indexes: free to choose here.
  // So are the packed and semantic chunk options: a saved corpus holds no vectors of either, both are made again.
  const fresh = await makeEngine({ ...values, ...chosen }, { ...saved.structure, ...chunkers(values, saved.structure), lexical: lexicalChoices(values)[0]! });
  fresh.addDocuments(saved.docs);
  if (fresh.embedder && fresh.embedder.model === saved.embedder) {
    // Packed and semantic vectors fit only chunks made with the same options (flags may change them).
    const same = (k: 'packed' | 'semantic') => JSON.stringify(fresh.structure[k]) === JSON.stringify(saved.structure[k] ?? (k === 'packed' ? DEFAULT_PACKED : DEFAULT_SEMANTIC));
    if (saved.semantic && same('semantic')) fresh.adoptSemanticChunks(saved.semantic);
    const usable = ([kind]: [string, unknown]) => (kind !== 'packed' || same('packed')) && (kind !== 'semantic' || (saved.semantic !== undefined && same('semantic')));
    const sets = Object.entries(saved.vectors).filter(usable).map(([kind, b64]) => {
      const buf = Buffer.from(b64!, 'base64');
      return { key: fresh.variantKey(kind as UnitKind), dim: fresh.embedder!.dim, data: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4) };
    });
    await fresh.restoreVectorSets(sets, 'exact');
  }
  return fresh;
}

async function cmdQuery(values: Values, positionals: string[]): Promise<void> {
  const [question, ...files] = positionals;
  if (!question?.trim()) throw new UsageError('query: give the question as the first argument');
  const strategies = list(values.strategies, STRATEGIES, 'strategies', STRATEGIES);
  const [retriever] = list(values.retriever, RETRIEVERS, 'retriever', ['hybrid']);
  const params = { ...retrieval(values, { topK: 10, budget: null }), retriever: retriever! }; // validated before any work
  let engine: RetrievalEngine;
  if (values.corpus) engine = await engineFromSaved(values, values.corpus);
  else {
    if (!files.length) throw new UsageError('query: give files to search, or --corpus FILE');
    engine = await makeEngine(values);
    const docs = await loadFiles(files);
    if (!docs.length) throw new UsageError('query: no file could be loaded');
    engine.addDocuments(docs);
  }
  // Only what is missing is embedded (nothing, for a saved corpus made with the same model).
  if (retriever !== 'bm25') await embedAll(engine, unitKinds(strategies));
  const results = await engine.search(question, strategies, params);
  if (values.json) return void process.stdout.write(JSON.stringify(queryJson(engine, question, results)) + '\n');
  for (const r of results) {
    console.log(`\n== ${strategyTitle(r.strategy)} · ${r.retriever} · ${r.blocks.length} blocks · ${r.totalTokens} tokens${r.retriever !== 'vector' ? ` · BM25 scored as ${lexicalLabel(engine.structure.lexical)}` : ''}${r.notes.length ? ` · ${visible(r.notes.join('; '))}` : ''}`);
    const rows = r.blocks.map((b, i) => {
      const doc = engine.corpus.docs[b.doc]!;
      const s = engine.corpus.sentences[b.sentences.start]!;
      const where = [doc.title.slice(0, 30), sectionPath(doc, s.section).slice(-1)[0]?.slice(0, 30), s.page !== undefined ? `p.${s.page}` : ''].filter(Boolean).join(' › ');
      const pr = b.provenance;
      const from = [
        ...Object.entries(pr.ranks).map(([k, v]) => `${k} #${v ?? '–'}`),
        pr.fused !== undefined ? `rrf ${pr.fused.toFixed(4)}` : '',
        pr.merged ? `merged ${pr.merged.children}/${pr.merged.of}` : '',
        pr.window?.shrunk ? 'shrunk' : '',
        pr.hits ? `${pr.hits} hits` : '',
        ...(pr.notes ?? []),
      ].filter(Boolean).join(' · ');
      return [i + 1, Number(b.score.toFixed(4)), b.tokens, where, from, b.text.replace(/\s+/g, ' ').slice(0, 90)];
    });
    console.log(renderTable(['#', 'score', 'tokens', 'where', 'from', 'text'], rows));
  }
}

function loadEvalSet(values: Values): EvalSet {
  const path = values.data;
  if (!path) throw new UsageError('eval: --data PATH is required (a SQuAD-format .json or a BEIR folder)');
  if (!existsSync(path)) throw new UsageError(`--data ${path}: no such file or folder`);
  const limitDocs = values['limit-docs'] !== undefined ? int(values['limit-docs'], 'limit-docs', 0) : undefined;
  const language = values.language;
  try {
    if (statSync(path).isDirectory()) {
      const split = values.split ?? 'test';
      const need = ['corpus.jsonl', 'queries.jsonl', join('qrels', `${split}.tsv`)];
      for (const f of need) if (!existsSync(join(path, f))) throw new UsageError(`--data ${path}: not a BEIR folder (missing ${f})`);
      const set = readBeir(
        { corpus: readFileSync(join(path, 'corpus.jsonl'), 'utf8'), queries: readFileSync(join(path, 'queries.jsonl'), 'utf8'), qrels: readFileSync(join(path, 'qrels', `${split}.tsv`), 'utf8') },
        { name: basename(path), language: language ?? 'en' },
      );
      if (limitDocs) set.docs = set.docs.slice(0, limitDocs);
      return set;
    }
    return readSquadText(readFileSync(path, 'utf8'), { limitDocs, name: basename(path), ...(language ? { language } : {}) });
  } catch (e) {
    if (e instanceof DatasetError) throw new UsageError(`--data ${path}: ${e.message}`);
    throw e;
  }
}

/** One or more budgets ("256,512"); "none" means no budget. */
function budgets(values: Values, fallback: (number | null)[]): (number | null)[] {
  if (values.budget === undefined) return fallback;
  if (values.budget === 'none') return [null];
  return values.budget.split(',').map((b) => {
    const n = int(b, 'budget', 0);
    if (n < 1) throw new UsageError('--budget must be at least 1 token');
    return n;
  });
}

async function loadReranker(values: Values): Promise<Reranker | null> {
  const choice = values.reranker ?? 'none';
  if (choice === 'none') return null;
  const model = choice === 'test' ? TEST_RERANKER_ID : choice;
  try {
    return await CrossEncoderReranker.load({ model });
  } catch (e) {
    throw new UsageError(`cannot load reranker "${model}": ${(e as Error).message.split('\n')[0]}`);
  }
}

/** What eval and eval --sweep share: the set (limited), an engine holding its documents, the retrievers. */
async function prepareEval(values: Values, structureParams: Partial<StructureParams>, files: string[] = []) {
  const strategies = list(values.strategies, STRATEGIES, 'strategies', STRATEGIES);
  const set = values.questions ? await loadQuestionsEvalSet(values, files, questionDeps) : loadEvalSet(values);
  const limitQ = values['limit-questions'] !== undefined ? int(values['limit-questions'], 'limit-questions', 0) : 0;
  if (limitQ) set.questions = set.questions.slice(0, limitQ);
  const engine = await makeEngine(values, structureParams);
  const retrievers = requestedRetrievers(values) ?? (engine.embedder ? [...RETRIEVERS] : ['bm25']);
  if (!engine.embedder && retrievers.some((r) => r !== 'bm25')) throw new UsageError('--retriever vector/hybrid needs an embedder (not --embedder none)');
  // Keep only questions whose documents are in the (possibly limited) corpus.
  const ids = new Set(set.docs.map((d) => d.id));
  set.questions = set.questions.map((q) => ({ ...q, targets: q.targets.filter((t) => ids.has(t.doc)) })).filter((q) => q.targets.length > 0);
  if (!set.questions.length) throw new UsageError(`--data ${values.data}: no question left to evaluate (none has its document among the ${set.docs.length} loaded${set.skipped.length ? `; ${set.skipped.length} rows skipped, first: ${set.skipped[0]}` : ''})`);
  engine.addDocuments(set.docs);
  return { set, engine, strategies, retrievers: retrievers as RetrieverName[] };
}

function embedderLabel(engine: RetrievalEngine): string {
  return engine.embedder ? `${engine.embedder.model}${engine.embedder.isTestModel ? ' (TEST MODEL: random word-piece vectors, no learned meaning)' : ''}` : 'none';
}

/** The --json output: exactly one object, one result per row or sweep point. */
function printJson(set: EvalSet, engine: RetrievalEngine, rows: EvalRow[]): void {
  const diffs = baselineDifferences(rows, 'answerInContext');
  const results = rows.map((r, i) => ({
    strategy: r.strategy,
    params: r.params,
    budgetTokens: r.budgetTokens,
    metrics: r.metrics,
    // 95 % percentile bootstrap over questions (1000 resamples, seed 1) of each metric.
    intervals: r.intervals,
    // answer-in-context minus naive chunks' under the same conditions, paired bootstrap.
    ...(diffs[i] ? { vsBaseline: { metric: 'answerInContext', ...diffs[i]! } } : {}),
  }));
  process.stdout.write(JSON.stringify({ dataset: set.name, questions: set.questions.length, embedder: embedderLabel(engine), ...(sourceLineOf(set) ? { sources: sourceLineOf(set) } : {}), results }) + '\n');
}

async function cmdEval(values: Values, files: string[] = []): Promise<void> {
  if (values.sweep) return cmdSweep(values, files);
  const t0 = performance.now();
  const params = retrieval(values, { topK: 50, budget: 512 }); // validated before any work
  const budgetList = budgets(values, [512]);
  const { set, engine, strategies, retrievers } = await prepareEval(values, structure(values), files);
  if (retrievers.some((r) => r !== 'bm25')) await embedAll(engine, unitKinds(strategies), false);
  const rows: EvalRow[] = [];
  const lexical = lexicalChoices(values);
  for (const budgetTokens of budgetList) {
    for (const retriever of retrievers) {
      // The lexical model only matters where BM25 retrieves.
      for (const l of retriever === 'vector' ? [lexical[0]!] : lexical) {
        engine.setLexical(l);
        const bar = new ProgressBar(`eval ${retriever}${retriever !== 'vector' && lexical.length > 1 ? ` (${lexicalLabel(l)})` : ''}${budgetList.length > 1 ? ` @${budgetTokens}` : ''}`);
        rows.push(...(await evaluate(engine, set, strategies, { ...params, retriever, budgetTokens }, (p) => bar.update(p.done, p.total))));
      }
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const embedderName = embedderLabel(engine);
  if (values.json) return printJson(set, engine, rows);
  const c = engine.corpus;
  console.log(`dataset ${set.name}: ${c.docs.length} documents, ${c.sentences.length} sentences, ${set.questions.length} questions${set.skipped.length ? ` (${set.skipped.length} rows skipped)` : ''}`);
  if (sourceLineOf(set)) console.log(`questions: ${sourceLineOf(set)}`);
  console.log(`embedder ${embedderName} · tokens counted with ${c.tokenizer} · budget ${budgetList.map((b) => b ?? 'none').join(', ')} tokens · top-k ${params.topK}`);
  console.log(metricsTable(rows, budgetList.length > 1));
  console.log(`\n${seconds.toFixed(1)}s`);
}

function metricsTable(rows: EvalRow[], withBudget: boolean, extra?: (r: EvalRow) => string, metric: MetricName = 'answerInContext', baseline?: EvalRow | null): string {
  // Each metric with its 95 % bootstrap interval; each strategy's paired difference from naive chunks on `metric`.
  const cell = (r: EvalRow, k: MetricName, digits = 3) => {
    const v = r.metrics[k].toFixed(digits);
    const iv = r.intervals?.[k];
    return iv ? `${v} (${iv.low.toFixed(digits)}–${iv.high.toFixed(digits)})` : v;
  };
  // A sweep compares with the baseline's best point; a plain eval with naive chunks under the same conditions.
  const diffs = baseline !== undefined ? rows.map((r) => (baseline && r !== baseline ? difference(r, baseline, metric) : null)) : baselineDifferences(rows, metric);
  return renderTable(
    [...(withBudget ? ['budget'] : []), 'retriever', 'strategy', ...(extra ? ['params'] : []), 'hit@1', 'hit@5', 'answer in ctx', 'recall@5', 'MRR', 'nDCG@10', 'ctx precision', 'ctx tokens', `${METRIC_LABELS[metric]} vs ${BASELINE}`],
    rows.map((r, i) => [
      ...(withBudget ? [r.budgetTokens ?? 'none'] : []),
      retrieverCell(r),
      r.strategy,
      ...(extra ? [extra(r)] : []),
      cell(r, 'hitAt1'),
      cell(r, 'hitAt5'),
      cell(r, 'answerInContext'),
      cell(r, 'recallAt5'),
      cell(r, 'mrr'),
      cell(r, 'ndcg10'),
      cell(r, 'contextPrecision'),
      cell(r, 'meanContextTokens', 1),
      diffs[i] ? differenceWords(diffs[i]!) : '–',
    ]),
  );
}

/** "bm25", or "bm25 (Lucene BM25 · stem)" when the lexical model is not the default. */
function retrieverCell(r: EvalRow): string {
  const l = r.params.lexical as LexicalParams | undefined;
  return l && lexicalLabel(l) !== lexicalLabel(DEFAULT_LEXICAL) ? `${r.retriever} (${lexicalLabel(l)})` : r.retriever;
}

/** The parameters of a sweep point in a few words (as the evaluation lab says them). */
function pointLabel(r: EvalRow): string {
  return paramsInWords(r) || '–';
}

/** eval --sweep: every parameter point at every budget, then what is best and by how much. */
async function cmdSweep(values: Values, files: string[] = []): Promise<void> {
  const t0 = performance.now();
  const base = retrieval(values, { topK: 50, budget: 512 }); // validated before any work
  const budgetList = budgets(values, [256, 512]);
  if (budgetList.includes(null)) throw new UsageError('--sweep compares strategies at equal budgets: give --budget TOKENS[,TOKENS…]');
  const metric = list(values.metric, RANKING_METRICS, 'metric', [RANKING_METRICS[0]!])[0]!;
  const { set, engine, strategies, retrievers } = await prepareEval(values, structure(values), files);
  engine.reranker = await loadReranker(values);
  const spec = defaultSweep({ strategies, retrievers: [...retrievers], budgets: budgetList as number[], topK: base.topK, rerank: engine.reranker ? [false, true] : [false] });
  const points: SweepPoint[] = [];
  const lexical = lexicalChoices(values);
  for (const headers of values['sweep-headers'] ? [false, true] : [engine.structure.headers.enabled]) {
    engine.setHeaders({ ...engine.structure.headers, enabled: headers });
    if (retrievers.some((r) => r !== 'bm25')) await embedAll(engine, unitKinds(strategies), false);
    for (const l of lexical) {
      engine.setLexical(l);
      const bar = new ProgressBar(`sweep ${sweepSize(spec)} points${headers ? ' · headers on' : ''}${lexical.length > 1 ? ` · ${lexicalLabel(l)}` : ''}`);
      points.push(...(await sweep(engine, set, spec, { onProgress: (p) => bar.update(p.done, p.total) })));
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const embedderName = embedderLabel(engine);
  if (values.json) return printJson(set, engine, points);
  console.log(`sweep on ${set.name}: ${engine.corpus.docs.length} documents, ${set.questions.length} questions, ${points.length} points · embedder ${embedderName} · best by ${metric}`);
  if (sourceLineOf(set)) console.log(`questions: ${sourceLineOf(set)}`);
  for (const rec of recommend(points, metric)) {
    const b = rec.best;
    // The margin's paired bootstrap interval: is the best really better than the best baseline point?
    const d = rec.baseline && rec.baseline !== b ? difference(b, rec.baseline, metric) : null;
    console.log(`\n== budget ${rec.budgetTokens} tokens: best ${b.strategy} (${b.retriever}; ${pointLabel(b)}) ${metric} ${b.metrics[metric].toFixed(3)}` + (rec.baseline ? `, ${rec.margin! >= 0 ? '+' : ''}${rec.margin!.toFixed(3)} over the best ${strategyWords(BASELINE)} (${rec.baseline.retriever}; ${rec.baseline.metrics[metric].toFixed(3)})` : '') + (d ? `; paired 95 % interval ${differenceWords(d)}` : ''));
    console.log(metricsTable(rec.byStrategy, false, pointLabel, metric, rec.baseline));
  }
  console.log(`\n${seconds.toFixed(1)}s`);
}

/** What the question-set commands borrow: file loading and the usage error. */
const questionDeps = { loadFiles, usage: (m: string) => new UsageError(m) };

/** What the export commands borrow from this file: option parsing, loading and errors stay one way. */
const exportDeps: ExportDeps<Values> = {
  makeEngine,
  retrieval,
  loadEvalSet,
  loadFiles,
  engineFromSaved,
  embedAll: (e, k) => embedAll(e, k),
  usage: (m) => new UsageError(m),
};

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(HELP + QUESTIONS_HELP);
    return command || values.help ? 0 : 2;
  }
  try {
    if (command === 'index') await cmdIndex(values, rest);
    else if (command === 'query') await cmdQuery(values, rest);
    else if (command === 'eval') await cmdEval(values, rest);
    else if (command === 'questions') await cmdQuestions(values, rest, questionDeps);
    else if (command === 'export') await cmdExport(values, rest, exportDeps);
    else if (command === 'verify') return await cmdVerify(values, rest, exportDeps);
    else throw new UsageError(`unknown command "${command}" (index, query, eval, export, verify, questions)`);
    return 0;
  } catch (e) {
    // One error: line, exit 2, whatever failed; the stack only with --debug.
    return reportFailure(e, Boolean(values.debug));
  }
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
