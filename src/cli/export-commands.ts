/**
 * rag-lab export / verify / index --from: the bundle commands. main.ts parses the
 * arguments and hands its own helpers in (ExportDeps), so engines, parameters and
 * datasets are built exactly as for index, query and eval.
 *   export --out DIR (<files…> | --corpus F | --data PATH | --from DIR) [--strategy S] [--question Q]…
 *   verify DIR [--engine pglite] [--json]
 *   index --from DIR --out corpus.json
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../core/embed/embedder';
import { TEST_EMBEDDER_ID } from '../core/embed/models';
import type { RetrievalEngine } from '../core/engine';
import type { EvalSet } from '../core/eval/dataset';
import { exportBundle } from '../core/export/bundle';
import type { ExportTransform } from '../core/export/transform-code';
import { BundleError, GOLDEN, MANIFEST } from '../core/export/format';
import { BUNDLE_KINDS } from '../core/export/tables';
import { applyLateChunking } from './late-chunking-cli';
import { CONTEXTS_FILE } from '../core/export/contexts';
import type { QuestionInput } from '../core/export/golden';
import { importBundle } from '../core/export/import';
import { parseManifest } from '../core/export/manifest';
import { STRATEGIES, type RetrievalParams, type StrategyName, type StructureParams, type UnitKind } from '../core/retrieve/params';
import type { Document } from '../core/types';
import { bundleBytes, readBundle, writeBundleDir } from '../node/bundle-fs';
import { PROJECT_ROOT } from '../node/paths';
import { verifyInPglite } from '../node/pglite-verify';
import { ProgressBar } from './progress';
import { renderTable } from './table';

/** The parsed options these commands read (main.ts's parseArgs values). */
export interface ExportValues {
  out?: string;
  corpus?: string;
  data?: string;
  from?: string;
  strategy?: string;
  question?: string[];
  engine?: string;
  json?: boolean;
  embedder?: string;
  retriever?: string;
  'limit-questions'?: string;
  [key: string]: unknown;
}

/** What main.ts lends: its own engine, parameter and dataset helpers, and its usage error. */
export interface ExportDeps<V = ExportValues> {
  makeEngine(values: V, structure?: Partial<StructureParams>): Promise<RetrievalEngine>;
  retrieval(values: V, defaults: { topK: number; budget: number | null }): RetrievalParams;
  loadEvalSet(values: V): EvalSet;
  loadFiles(paths: string[]): Promise<Document[]>;
  engineFromSaved(values: V, path: string): Promise<RetrievalEngine>;
  embedAll(engine: RetrievalEngine, kinds: UnitKind[]): Promise<void>;
  /** --contextual: writes the missing contexts and switches contextual retrieval on. */
  contextual?(engine: RetrievalEngine, values: V): Promise<unknown>;
  /** --query-transform: the transformation the configuration runs before retrieval (manifest and framework code). */
  queryTransform?(values: V, docs: readonly Document[], retriever: RetrievalParams['retriever']): ExportTransform | null;
  /** main's UsageError: printed as one line, exit code 2. */
  usage(message: string): Error;
}

const MB = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

function labVersion(): string {
  try {
    return JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The engine a bundle folder holds, with the embedder its vectors were made with (nothing is embedded). */
export async function engineFromBundle<V extends ExportValues>(values: V, dir: string, deps: ExportDeps<V>): Promise<RetrievalEngine> {
  let files;
  try {
    // An import reads the manifest and the Parquet tables only.
    files = readBundle(dir, (name) => name === MANIFEST || name === CONTEXTS_FILE || name.startsWith('parquet/'));
  } catch (e) {
    throw deps.usage(`--from ${dir}: ${(e as Error).message.replace(`${dir}: `, '')}`);
  }
  try {
    const manifest = parseManifest(files.find((f) => f.name === MANIFEST)?.bytes);
    const model = manifest.embedding?.model;
    const choice = values.embedder ?? (model === TEST_EMBEDDER_ID ? 'test' : (model ?? 'none'));
    const probe = await deps.makeEngine({ ...values, embedder: choice }, manifest.structure);
    const { engine } = await importBundle(files, { embedder: probe.embedder as Embedder | null });
    return engine;
  } catch (e) {
    if (e instanceof BundleError) throw deps.usage(`--from ${dir}: ${e.message}`);
    throw e;
  }
}

/** export: the corpus and one column's configuration as a bundle folder, with its golden run. */
export async function cmdExport<V extends ExportValues>(values: V, files: string[], deps: ExportDeps<V>): Promise<void> {
  if (!values.out) throw deps.usage('export: --out DIR is required');
  const strategy = (values.strategy ?? 'window') as StrategyName;
  if (!STRATEGIES.includes(strategy)) throw deps.usage(`--strategy: unknown "${values.strategy}" (choose from ${STRATEGIES.join(', ')})`);
  const [retriever = 'hybrid', ...more] = (values.retriever ?? 'hybrid').split(',');
  if (more.length || !['bm25', 'vector', 'hybrid'].includes(retriever)) throw deps.usage(`--retriever: export takes one of bm25, vector, hybrid (got "${values.retriever}")`);
  const params = { ...deps.retrieval(values, { topK: 10, budget: null }), retriever: retriever as RetrievalParams['retriever'] };
  const t0 = performance.now();
  let engine: RetrievalEngine;
  const questions: QuestionInput[] = (values.question ?? []).map((question, i) => ({ id: `typed-${i + 1}`, question }));
  if (values.from) engine = await engineFromBundle(values, values.from, deps);
  else if (values.corpus) engine = await deps.engineFromSaved(values, values.corpus);
  else if (values.data) {
    const set = deps.loadEvalSet(values);
    const limit = values['limit-questions'] !== undefined ? Number(values['limit-questions']) : 20;
    const ids = new Set(set.docs.map((d) => d.id));
    const qs = set.questions.filter((q) => q.targets.some((t) => ids.has(t.doc))).slice(0, limit || undefined);
    questions.push(...qs.map((q) => ({ id: q.id, question: q.question, answers: q.answers, targets: q.targets.filter((t) => ids.has(t.doc)) })));
    engine = await deps.makeEngine(values);
    engine.addDocuments(set.docs);
  } else {
    if (!files.length) throw deps.usage('export: give files, --corpus FILE, --data PATH or --from DIR');
    engine = await deps.makeEngine(values);
    const docs = await deps.loadFiles(files);
    if (!docs.length) throw deps.usage('export: no file could be loaded');
    engine.addDocuments(docs);
  }
  // --late-chunking: the bundle's vectors are late-chunked, and its manifest's structure says so (vectors: 'late').
  applyLateChunking(engine, { 'late-chunking': values['late-chunking'] === true });
  // Contexts (--contextual) before the vectors: the bundle's postings and vectors of contextualised units hold them.
  await deps.contextual?.(engine, values);
  // Only what is missing is embedded: every unit kind, so the bundle carries all vectors.
  if (engine.embedder) await deps.embedAll(engine, [...BUNDLE_KINDS]);
  if (engine.embedder && engine.structure.contextual) for (const kind of BUNDLE_KINDS) await engine.contexts.embed(kind);
  if (!questions.length) process.stderr.write('note: no questions (--question or --data): the golden run is empty and verify has nothing to compare\n');
  const t1 = performance.now();
  const queryTransform = deps.queryTransform?.(values, engine.corpus.docs, params.retriever) ?? null;
  const result = await exportBundle(engine, { strategy, params, questions, labVersion: labVersion(), ...(queryTransform ? { queryTransform } : {}) });
  const exportMs = performance.now() - t1;
  writeBundleDir(values.out, result.files);
  const f = result.files;
  console.log(
    renderTable(
      ['part', 'files', 'size'],
      [
        ['Parquet', f.filter((x) => x.name.startsWith('parquet/')).length, MB(bundleBytes(f, 'parquet/'))],
        ['JSONL', f.filter((x) => x.name.startsWith('jsonl/')).length, MB(bundleBytes(f, 'jsonl/'))],
        ['PostgreSQL', f.filter((x) => x.name.startsWith('postgres/')).length, MB(bundleBytes(f, 'postgres/'))],
        ['golden run + manifest', 2, MB(bundleBytes(f, 'golden.json') + bundleBytes(f, 'manifest.json'))],
        ['bundle', f.length, MB(bundleBytes(f))],
        ['raw vectors (float32) + text', '', MB(result.rawBytes)],
      ],
    ),
  );
  const m = result.manifest;
  console.log(
    `\n${m.corpus.documents} documents · ${m.corpus.sentences} sentences · vectors: ${m.vectors.kinds.join(', ') || 'none'} · ${strategy} (${params.retriever}) · ${questions.length} golden questions · export ${(exportMs / 1000).toFixed(1)}s (total ${((performance.now() - t0) / 1000).toFixed(1)}s) → ${values.out}`,
  );
}

/** verify: loads the bundle's SQL into PGlite and compares every golden question. Returns the exit code (1 on disagreement). */
export async function cmdVerify<V extends ExportValues>(values: V, positionals: string[], deps: Pick<ExportDeps<V>, 'usage'>): Promise<number> {
  const [dir] = positionals;
  if (!dir) throw deps.usage('verify: give the bundle folder or .zip (verify DIR --engine pglite)');
  const engine = values.engine ?? 'pglite';
  if (engine !== 'pglite') throw deps.usage(`--engine: only pglite is built in (got "${engine}"); for a server, load postgres/*.sql with psql and run golden.json's questions`);
  let files;
  try {
    // Verify reads the manifest, the SQL and the golden run only.
    files = readBundle(dir, (name) => name === MANIFEST || name === GOLDEN || name.startsWith('postgres/'));
  } catch (e) {
    throw deps.usage(`verify ${dir}: ${(e as Error).message.replace(`${dir}: `, '')}`);
  }
  const bar = values.json ? null : new ProgressBar('verify in PGlite');
  let report;
  try {
    report = await verifyInPglite(files, { onProgress: (d, t) => bar?.update(d, t) });
  } catch (e) {
    if (e instanceof BundleError) throw deps.usage(`verify ${dir}: ${e.message}`);
    throw e;
  }
  if (values.json) {
    process.stdout.write(JSON.stringify(report) + '\n');
    return report.agree ? 0 : 1;
  }
  const yes = (a: number, n: number) => `${a}/${n}`;
  console.log(
    renderTable(
      ['retriever', 'strategy', 'same ids', 'same blocks', 'max |Δscore|', 'same metrics'],
      report.runs.map((r) => [r.retriever, r.strategy, yes(r.sameUnits, r.questions), yes(r.sameBlocks, r.questions), r.maxScoreDiff === 0 ? '0' : r.maxScoreDiff.toExponential(1), r.sameMetrics ? 'yes' : 'NO']),
    ),
  );
  const questions = report.runs[0]?.questions ?? 0;
  console.log(`\nPGlite start ${(report.startMs / 1000).toFixed(1)}s · load ${(report.loadMs / 1000).toFixed(1)}s · ${questions} questions × ${report.runs.length} runs in ${(report.queryMs / 1000).toFixed(1)}s`);
  if (report.agree) console.log(`agreement: 100 % — identical ranked ids and blocks, scores within ${report.tolerance}, the same metrics`);
  else for (const r of report.runs) if (r.firstDifference) console.log(`DIFFERS ${r.retriever}/${r.strategy}: ${r.firstDifference}`);
  return report.agree ? 0 : 1;
}
