/**
 * npm run bench [-- --json FILE] [-- --quick] [-- --no-browser] [-- --only engine|backends|export|browser|scale|formats|embedders|cli]
 *
 * Issue 6's performance benchmark. Prints tables; asserts nothing about time.
 *  1. indexing throughput in headless Chromium: the app path (loadDocument → addDocuments →
 *     embedUnits('sentence') with TransformersEmbedder, in a module worker) against bare
 *     onnxruntime-web on the same texts, 1 and 2 WASM threads (cross-origin isolated page);
 *  2. query latency at 10k and 100k sentences per strategy × retriever and for the app's
 *     side-by-side column set, against a bare exact scan of the same vectors (Node);
 *  3. slider latency at 100k (retrieval-only change on cached candidates);
 *  4. memory per indexed sentence at 100k (by part, and its drift over 1,000 questions and
 *     1,000 slider moves) and at 1M against its raw size; 2–4 at 1M sentences too (not --quick);
 *  5. FlatIndex vs VoyIndex at 1k, 10k, 100k;
 *  7. (printed after 6) export and import of a bundle at 10k and 100k sentences (Node);
 *  6. cold start of the built app: drop a 48-page PDF, time to the first BM25 and vector
 *     results, long tasks on the page while indexing;
 *  8. (printed last) the vector index at 10k, 100k and 1M real-sentence vectors: exact scan
 *     against the approximate index (scale-bench.ts); --quick runs 10k only;
 *  9. loader speed per document format, OCR seconds per scanned page (formats-bench.ts);
 * 10. embedding models: static stand-in vs MiniLM-shaped stand-in in a tab, 100k static sentences, the same 100k
 *     sentences from text to the first BM25 answer (split100kTabSeconds), endpoint share of a mock's limit (embedders-bench.ts).
 *
 * With --json FILE the report is written after every section (sectionsDone), so a run cut short still reports.
 * 11. rendering: Enter → answer painted and a 250-step slider drag at top-k 100, windows 10/10 on
 *     the sample corpus (BM25), beside the worker's own time (render-bench.ts).
 * 12. the CLI's start: `--help` and `query --json` on a saved sample corpus, fresh processes (cli-bench.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import { renderTable } from '../../src/cli/table';
import { BUNDLE_KINDS } from '../../src/core/export/tables';
import { browserImportBench, type BrowserImport } from './browser-import';
import { RENDER_HEADER, renderBench, renderRows, type RenderBench } from './render-bench';
import { CACHE, coldStart, indexingBench, launch, type ColdStart, type IndexingBench } from './browser-bench';
import { pickModel, PROJECT_ROOT, round } from './common';
import { benchReport, type BackendRow, type BenchEmbedders, type ExportRow, type NodeBench, type ScaleResult } from './report';
import type { ScaleRow } from './scale-bench';
import type { FormatRow } from './formats-bench';
import type { EmbeddersBench } from './embedders-bench';
import { cliBench, type CliBench } from './cli-bench';

const { values } = parseArgs({ options: { json: { type: 'string' }, quick: { type: 'boolean' }, 'no-browser': { type: 'boolean' }, only: { type: 'string' } } });
const quick = Boolean(values.quick);
/** `--only backends` is `npm run bench:index`. */
const want = (part: 'engine' | 'backends' | 'export' | 'browser' | 'scale' | 'formats' | 'embedders' | 'cli') => !values.only || values.only === part;
const skipped = values.only ? `--only ${values.only}` : '--no-browser';
const started = Date.now();
const log = (s: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);
const fmt = (x: number | null | undefined, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : round(x, d));

/** Runs a TypeScript file in a child node with --expose-gc; kills it after capS seconds. */
function child(script: string, args: string[], capS: number): Promise<{ ok: true; stdout: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=16384', '--import', 'tsx', join(import.meta.dirname, script), ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), capS * 1000);
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve({ ok: false, reason: `over the ${capS} s cap` });
      else if (code !== 0) resolve({ ok: false, reason: `failed: ${stderr.trim().split('\n').slice(-3).join(' ')}` });
      else resolve({ ok: true, stdout });
    });
  });
}

mkdirSync(CACHE, { recursive: true });
const model = pickModel();
let browser: Browser | null = null;
let chromiumVersion = `not run (${skipped})`;
if (!values['no-browser'] && want('browser')) {
  browser = await launch();
  chromiumVersion = `Chromium ${browser.version()}`;
}
const cpu = cpus();
const machine = `${cpu[0]?.model ?? 'unknown CPU'} · ${cpu.length} cores · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · ${chromiumVersion} · Node ${process.version} · load average at start ${loadavg()[0]!.toFixed(2)}`;
console.log(`machine: ${machine}`);
console.log(`model:   ${model.label}${quick ? '\nQUICK run: smaller sizes, fewer queries' : ''}`);

// ---- results, each filled in as its section ends ------------------------------------------------
const engineRuns: NodeBench[] = [];
const backends: BackendRow[] = [];
const exports: ExportRow[] = [];
const scale: ScaleResult[] = [];
let formats: FormatRow[] | null = null;
let formatsTable = '';
let embedders: BenchEmbedders | null = null;
let embeddersTable = '';
let indexing: IndexingBench | null = null;
let cold: ColdStart | null = null;
let indexingError: string | null = null;
let coldError: string | null = null;
let browserImport: BrowserImport | null = null;
let render: RenderBench | null = null;
let renderError: string | null = null;
let cli: CliBench | null = null;
let cliError: string | null = null;
const sectionsDone: string[] = [];

/**
 * Writes the --json report from the sections that have ended, after each of them (through a
 * temporary file, so a reader never sees half a report): a run cut short — a time limit, Ctrl-C,
 * a section that hangs — still leaves every finished section's result. `complete` only at the end.
 */
function saveReport(section: string | null, complete = false): void {
  if (section) sectionsDone.push(section);
  if (!values.json) return;
  const report = benchReport({ machine, model: model.label, quick, indexing, indexingError, engineRuns, backends, exports, browserImport, cold, coldError, scale, formats, embedders, render, cli, sectionsDone, complete });
  writeFileSync(`${values.json}.part`, JSON.stringify(report, null, 2));
  renameSync(`${values.json}.part`, values.json);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: writing the report of the ${sectionsDone.length} sections that ended`);
    saveReport(null);
    process.exit(130);
  });
}
saveReport(null);

// ---- 2–4: engine in Node -------------------------------------------------------------------
const sizes = !want('engine') ? [] : quick ? [2000, 10000] : [10000, 100000, 1_000_000];
for (const n of sizes) {
  log(`engine at ${n} sentences (Node, random unit vectors)…`);
  const out = join(CACHE, `engine-${n}.json`);
  // The memory drift runs on the largest size up to 100k (a million-sentence run is long enough without it).
  const drift = n === sizes.filter((x) => x < 1_000_000).at(-1) ? (quick ? 200 : 1000) : 0;
  const r = await child('node-bench.ts', ['--n', String(n), '--queries', quick ? '10' : n >= 100000 ? '20' : '30', '--drift', String(drift), '--out', out], n >= 1_000_000 ? 3600 : 900);
  if (!r.ok) {
    log(`  engine at ${n}: ${r.reason}`);
    continue;
  }
  engineRuns.push(JSON.parse(readFileSync(out, 'utf8')) as NodeBench);
  saveReport(`engine ${n}`);
}

// ---- 5: index backends -----------------------------------------------------------------------
for (const n of !want('backends') ? [] : quick ? [1000, 10000] : [1000, 10000, 100000]) {
  for (const backend of ['flat', 'voy']) {
    log(`index backend ${backend} at ${n} vectors…`);
    const r = await child('backend-one.ts', ['--n', String(n), '--backend', backend], 180);
    backends.push(r.ok ? (JSON.parse(r.stdout.trim().split('\n').pop()!) as BackendRow) : { n, backend, skipped: r.reason });
  }
  saveReport(`backends ${n}`);
}

// ---- 7: export and import ----------------------------------------------------------------------
for (const n of !want('export') ? [] : quick ? [2000, 10000] : [10000, 100000]) {
  log(`export and import at ${n} sentences (Node)…`);
  const out = join(CACHE, `export-${n}.json`);
  const r = await child('export-bench.ts', ['--n', String(n), '--out', out], 900);
  exports.push(r.ok ? (JSON.parse(readFileSync(out, 'utf8')) as ExportRow) : { n, skipped: r.reason });
  saveReport(`export ${n}`);
}

// ---- 8: the vector index at scale -------------------------------------------------------------
for (const n of !want('scale') ? [] : quick ? [10000] : [10000, 100000, 1000000]) {
  log(`vector index at ${n} vectors: exact scan and approximate (real-sentence vectors)…`);
  const out = join(CACHE, `scale-${n}.json`);
  const r = await child('scale-bench.ts', ['--n', String(n), '--queries', '100', '--out', out], n >= 1_000_000 ? 1500 : 600);
  scale.push(r.ok ? (JSON.parse(readFileSync(out, 'utf8')) as ScaleRow) : { n, skipped: r.reason });
  saveReport(`scale ${n}`);
}

// ---- 9: document formats (printed after 8) ----------------------------------------------------
if (want('formats')) {
  log('document formats: loaders and OCR (Node)…');
  const out = join(CACHE, 'formats.json');
  const r = await child('formats-bench.ts', ['--out', out, ...(quick ? ['--quick'] : [])], 600);
  if (r.ok) {
    formats = JSON.parse(readFileSync(out, 'utf8')) as FormatRow[];
    formatsTable = r.stdout.trim();
  } else formatsTable = `9. Document formats: not measured (${r.reason})`;
  saveReport('formats');
}

// ---- 10: embedding models (printed after 9) ----------------------------------------------------
if (want('embedders')) {
  log('embedding models: static stand-in, endpoint (Node and a tab)…');
  const out = join(CACHE, 'embedders.json');
  const r = await child('embedders-bench.ts', ['--out', out, ...(quick ? ['--quick'] : []), ...(values['no-browser'] ? ['--no-browser'] : [])], 900);
  if (r.ok) {
    const e = JSON.parse(readFileSync(out, 'utf8')) as EmbeddersBench;
    embedders = { staticToMiniLM: e.staticToMiniLM, static100kTabSeconds: e.static100kTabSeconds, split100kTabSeconds: e.split100kTabSeconds, endpointShareOfLimit: e.endpointShareOfLimit };
    embeddersTable = r.stdout.trim();
  } else embeddersTable = `10. Embedding models: not measured (${r.reason})`;
  saveReport('embedders');
}

// ---- 12: the CLI's start (printed last) ------------------------------------------------------------
if (want('cli')) {
  log('CLI start: --help and query on a saved corpus, fresh processes…');
  try {
    cli = cliBench(quick ? 3 : 7);
  } catch (e) {
    cliError = (e as Error).message.split('\n')[0]!;
    log(`CLI bench failed: ${cliError}`);
  }
  saveReport('cli');
}

// ---- 1 and 6: browser -------------------------------------------------------------------------
if (browser) {
  try {
    indexing = await indexingBench(browser, { sentences: quick ? 200 : 800, log });
  } catch (e) {
    indexingError = (e as Error).message.split('\n')[0]!;
    log(`indexing benchmark failed: ${indexingError}`);
  }
  saveReport('indexing');
  try {
    cold = await coldStart(browser, { log, timeoutMs: quick ? 120_000 : 240_000 });
  } catch (e) {
    coldError = (e as Error).message.split('\n')[0]!;
    log(`cold start failed: ${coldError}`);
  }
  saveReport('cold start');
  if (want('export') || !values.only) {
    try {
      browserImport = await browserImportBench(browser, { sizes: quick ? [2000, 10000] : [10000, 100000], log });
    } catch (e) {
      log(`browser import failed: ${(e as Error).message.split('\n')[0]}`);
    }
    saveReport('browser import');
  }
  // 11: rendering against the worker (render-bench.ts).
  try {
    render = await renderBench(browser, { log });
  } catch (e) {
    renderError = (e as Error).message.split('\n')[0]!;
    log(`rendering bench failed: ${renderError}`);
  }
  saveReport('render');
  await browser.close();
}

// ---- report ------------------------------------------------------------------------------------
const big = engineRuns.filter((r) => r.n < 1_000_000).at(-1);
const million = engineRuns.find((r) => r.n >= 1_000_000);
console.log('');
if (indexing) {
  const runOf = (mode: string, t: number) => indexing!.runs.find((r) => r.mode === mode && r.threads === t);
  console.log(`1. Indexing throughput in Chromium (module worker; ${indexing.document.sentences} sentences of SQuAD contexts, ${indexing.document.chars.toLocaleString('en')} chars, .txt; batch 16, length-sorted within 256-unit slices)`);
  console.log(
    renderTable(
      ['threads', 'app sent/s', 'bare ORT sent/s', 'app/bare', 'app: parse ms', 'split ms', 'embed ms', 'bare: tokenize ms', 'session.run ms', 'isolated'],
      [1, 2].map((t) => {
        const a = runOf('app', t);
        const b = runOf('bare', t);
        return [t, fmt(a?.sentencesPerS), fmt(b?.sentencesPerS), fmt(a && b ? a.sentencesPerS / b.sentencesPerS : NaN, 2), fmt(a?.stages.parseMs, 0), fmt(a?.stages.splitMs, 0), fmt(a?.stages.embedMs, 0), fmt(b?.stages.tokenizeMs, 0), fmt(b?.stages.sessionRunMs, 0), String(a?.crossOriginIsolated ?? '–')];
      }),
    ),
  );
  const a1 = runOf('app', 1), a2 = runOf('app', 2), b1 = runOf('bare', 1), b2 = runOf('bare', 2);
  console.log(`   2 threads / 1 thread: app ×${fmt(a2 && a1 ? a2.sentencesPerS / a1.sentencesPerS : NaN, 2)}, bare ×${fmt(b2 && b1 ? b2.sentencesPerS / b1.sentencesPerS : NaN, 2)}\n`);
} else console.log(`1. Indexing throughput: not measured (${indexingError ?? skipped})\n`);

for (const run of engineRuns) {
  console.log(`2. Query latency at ${run.n.toLocaleString('en')} sentences (${run.documents} documents; units: ${Object.entries(run.memory.units).map(([k, v]) => `${v} ${k}`).join(', ')}; Node; ${run.vectors}; token counts: ${run.tokenCounter}); top-k 10, default parameters, every query a new question (no cache)`);
  console.log(`   bare exact scan of the same ${run.n} sentence vectors (Float32Array dot products + top 10): p50 ${fmt(run.scan.p50Ms, 2)} ms, p95 ${fmt(run.scan.p95Ms, 2)} ms · engine build ${fmt(run.buildMs / 1000)} s, BM25 build ${fmt(run.bm25BuildMs / 1000)} s, first search ${run.firstSearchMs === undefined ? '—' : fmt(run.firstSearchMs / 1000)} s`);
  console.log(renderTable(['strategy / retriever', 'p50 ms', 'p95 ms', 'p50 / scan p50'], Object.entries(run.query).map(([k, v]) => [k, fmt(v.p50Ms, 2), fmt(v.p95Ms, 2), fmt(v.ratioToScan, 2)])));
  console.log('   ("all columns" = the 9 columns of columnsFor(base) as lab.ts searches them, block views included; query fusion has no LLM variants and reranking no reranker, as in a fresh app)\n');
}
for (const run of [big, million]) {
  if (!run) continue;
  console.log(`3. Slider latency at ${run.n.toLocaleString('en')} sentences (retriever vector; retrieval-only change, candidates cached)`);
  console.log(renderTable(['change', 'p50 ms', 'p95 ms'], Object.entries(run.slider).map(([k, v]) => [k, fmt(v.p50Ms, 2), fmt(v.p95Ms, 2)])));
  console.log('');
}
for (const run of [big, million]) {
  if (!run) continue;
  const m = run.memory;
  console.log(`4. Memory at ${run.n.toLocaleString('en')} sentences (heap + array buffers grown, after gc; whole engine: documents, corpus, chunk tree, BM25 and vectors for ${Object.keys(m.units).length} unit kinds (${Object.keys(m.units).join(', ')}); float16 rows from 20,000 vectors of a kind)`);
  console.log(
    renderTable(
      ['bytes / sentence', 'raw bytes / sentence (384×4 + UTF-16 text)', 'ratio', `float32 vectors of all ${Object.keys(m.units).length} kinds would be`, 'heap MB', 'external MB'],
      [[fmt(m.bytesPerSentence, 0), fmt(m.rawBytesPerSentence, 0), fmt(m.ratio, 2), fmt(m.allKindVectorBytesPerSentence, 0), fmt(m.heapDelta / 2 ** 20, 0), fmt(m.externalDelta / 2 ** 20, 0)]],
    ),
  );
  if (m.parts) console.log(renderTable(['part (in the order built)', 'bytes / sentence'], Object.entries(m.parts).map(([k, v]) => [k, fmt(v, 0)])));
  if (run.memoryDrift) {
    const d = run.memoryDrift;
    console.log(`   after ${d.questions} different questions and ${d.sliderMoves} slider moves: ${fmt(d.startBytes / 2 ** 20, 0)} → ${fmt(d.endBytes / 2 ** 20, 0)} MB (${fmt(d.ratio * 100, 2)} %)`);
  }
  console.log('');
}
if (backends.length) {
  console.log('5. Vector index backends (Node; uniform random vectors, 384 dims, 50 queries; recall@10 against a bare exact scan)');
  console.log(
    renderTable(
      ['vectors', 'backend', 'build ms', 'query p50 ms', 'query p95 ms', 'index MB', 'measured MB', 'recall@10'],
      backends.map((b) => (b.skipped ? [b.n, b.backend, `skipped: ${b.skipped}`, '', '', '', '', ''] : [b.n, b.backend, fmt(b.buildMs, 0), fmt(b.queryP50Ms, 2), fmt(b.queryP95Ms, 2), fmt(b.indexBytes! / 2 ** 20, 1), fmt(b.measuredBytes! / 2 ** 20, 1), fmt(b.recallAt10, 3)])),
    ),
  );
} else console.log(`5. Vector index backends: not measured (${skipped})`);
console.log('');
if (cold) {
  console.log(`6. Cold start in the built app (${cold.model} ${model.dtype}, WASM, crossOriginIsolated=${cold.crossOriginIsolated}; ${cold.pdf}${cold.pages ? `, ${cold.pages} pages` : ''}; question in the URL before the drop)`);
  console.log(
    renderTable(
      ['page load → model ready', 'drop → first BM25 result', 'drop → first vector result', 'drop → all embedded', 'long tasks > 50 ms while indexing', 'their total', 'longest', '> 200 ms'],
      [[`${fmt(cold.pageLoadToModelReadyMs, 0)} ms`, `${fmt(cold.dropToFirstBm25Ms, 0)} ms`, `${fmt(cold.dropToFirstVectorMs, 0)} ms`, `${fmt(cold.dropToAllEmbeddedMs, 0)} ms`, cold.longTasks.count, `${fmt(cold.longTasks.totalMs, 0)} ms`, `${fmt(cold.longTasks.maxMs, 0)} ms`, cold.longTasks.over200Ms]],
    ),
  );
  if (cold.note) console.log(`   ${cold.note}`);
} else console.log(`6. Cold start: not measured (${coldError ?? skipped})`);
if (exports.length) {
  console.log(`7. Export and import of a bundle (Node; window column, hybrid, 10 golden questions; random 384-dim vectors for ${BUNDLE_KINDS.length} unit kinds; raw = float32 vectors + UTF-8 text)`);
  const mb = (b: number | undefined) => fmt((b ?? NaN) / 2 ** 20, 1);
  console.log(
    renderTable(
      ['sentences', 'export s', 'import s', 'bundle MB', 'raw MB', 'bundle ÷ raw', 'Parquet MB', 'JSONL MB', 'SQL MB'],
      exports.map((e) => (e.skipped ? [e.n, `skipped: ${e.skipped}`, '', '', '', '', '', '', ''] : [e.n, fmt(e.exportMs! / 1000, 1), fmt(e.importMs! / 1000, 1), mb(e.bundleBytes), mb(e.rawBytes), fmt(e.ratio, 2), mb(e.parquetBytes), mb(e.jsonlBytes), mb(e.sqlBytes)])),
    ),
  );
} else console.log(`7. Export and import: not measured (${skipped})`);
if (browserImport) {
  console.log(`\n   Import of a bundle .zip into the built app in Chromium (${browserImport.model}, ${browserImport.dim} dims): drop → imported, drop → first result of the question already asked`);
  console.log(
    renderTable(
      ['sentences', 'zip MB', 'drop → imported s', 'drop → first result s', 'worker import s'],
      browserImport.rows.map((r) => [r.sentences, fmt(r.zipBytes / 2 ** 20, 1), fmt((r.dropToImportedMs ?? NaN) / 1000, 1), fmt((r.dropToFirstResultMs ?? NaN) / 1000, 1), fmt((r.workerImportMs ?? NaN) / 1000, 1)]),
    ),
  );
}
if (scale.length) {
  const measured = scale.filter((r): r is ScaleRow => !('skipped' in r));
  console.log(`\n8. Vector index at scale (Node, 384 dims, top 10, ${measured[0]?.queries ?? '–'} real questions; ${measured[0]?.vectors ?? ''})`);
  console.log('   exact = FlatIndex scan; approx = BitScanIndex (1-bit codes + exact re-scoring, the `ann` backend; `auto` uses it from 20,000 vectors); filtered = every 3rd id allowed; answers = a gold answer in the top 10 sentences (SQuAD questions)');
  console.log(
    renderTable(
      ['vectors', 'exact p50 ms', 'exact p95 ms', 'approx p50 ms', 'approx p95 ms', 'approx build s', 'bytes / vector exact', 'approx', 'recall@10', 'filtered recall@10', 'answers exact', 'answers approx'],
      scale.map((r) =>
        'skipped' in r
          ? [r.n, `skipped: ${r.skipped}`, '', '', '', '', '', '', '', '', '', '']
          : [r.n, fmt(r.exact.queryP50Ms, 1), fmt(r.exact.queryP95Ms, 1), fmt(r.ann.queryP50Ms, 1), fmt(r.ann.queryP95Ms, 1), fmt(r.ann.buildMs / 1000, 1), fmt(r.exact.bytesPerVector, 0), fmt(r.ann.bytesPerVector, 0), fmt(r.ann.recallAt10, 3), fmt(r.ann.filteredRecallAt10, 3), fmt(r.answers?.exact, 3), fmt(r.answers?.ann, 3)],
      ),
    ),
  );
} else console.log(`\n8. Vector index at scale: not measured (${skipped})`);
console.log(`\n${formatsTable || `9. Document formats: not measured (${skipped})`}`);
console.log(`\n${embeddersTable || `10. Embedding models: not measured (${skipped})`}`);
if (render) console.log(`\n11. Rendering in Chromium (built app, ${render.docs} documents, BM25): time to paint beside the worker's own time\n${renderTable(RENDER_HEADER, renderRows(render))}`);
else console.log(`\n11. Rendering: not measured (${renderError ?? skipped})`);
if (cli) console.log(`\n12. CLI start (median of ${cli.runs} fresh processes, bin/rag-lab.mjs; tsx on the sources beside it)\n${renderTable(['command', 'bundle ms', 'tsx sources ms'], [['--help', cli.cliHelpMs, cli.sourceHelpMs], ['query --json, saved sample corpus, BM25', cli.cliQueryMs, cli.sourceQueryMs]])}`);
else console.log(`\n12. CLI start: not measured (${cliError ?? skipped})`);
console.log(`\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s`);

if (values.json) {
  saveReport(null, true);
  console.log(`JSON: ${values.json}`);
}
