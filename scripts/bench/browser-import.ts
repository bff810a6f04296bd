/**
 * Import of a bundle in the built app: a bundle of N sentences with vectors is made in Node
 * (src/core's exportBundle, zipped as the page zips it), dropped on the app's Documents in
 * Chromium, and timed from the drop (the file input's change event) to the import's note and
 * to the first result of the question already asked, then reloaded: reload → the first result
 * again, the corpus restored from IndexedDB. Goal: 100k sentences in < 10 s.
 *
 * The bundle's vectors are seeded random unit vectors under the id and dimensions of the model
 * the app loads (the MiniLM-L6 stand-in, else the test model), and its token counts are that
 * model's tokenizer's, so the app accepts it as its own; nothing is embedded in the browser.
 *
 * As a function: browserImportBench(browser, {sizes}) (for run.ts). Alone:
 *   npx tsx scripts/bench/browser-import.ts [--sizes 10000,30000] [--reuse] [--lean] [--model test] [--cols a,b] [--verbose] [--timeout S] [--persistent] [--app DIR]
 * (Each bundle is kept under node_modules/.cache/rag-lab-bench/import, keyed by the sources it is made
 * from, and dropped again while they are unchanged; --reuse drops the one made last whatever the
 * sources: for timing changes to the import alone. --cols: only
 * those columns, to see what one column's first search costs. --verbose: the worker's answers
 * in time. --timeout: seconds per wait, default 300. --app: an app already built with
 * RAG_LAB_TEST_MODELS=1, to time another version against this one on the same bundle.)
 * The bundle is made in a child process (--make N --out FILE [--lean] [--model test]): a 100k-sentence
 * export needs several GB of heap, which the benchmark's own process should not keep. --lean: only
 * what an import reads (see makeBundle; needed at 1M). --model test: for the generated test model
 * (what the e2e app serves) instead of the app's. After the import the page is asked to pause
 * the semantic chunks' embedding, move Top-k and answer a second question, and its memory is read.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { MEASURED_MEMORY_LAUNCH } from '../../e2e/chromium';
import { articleCopy, pickModel, PROJECT_ROOT, RandomEmbedder, randomUnits, squadArticles, squadQuestions } from './common';
import { serveStatic } from './server';
import { measuredMemory, PAGE_PROBE, rendererRss, type Marks } from './page-probes';

const CACHE = resolve(PROJECT_ROOT, 'node_modules/.cache/rag-lab-bench');
const QUESTION = 'When did the Normans conquer England?';
const SECOND_QUESTION = 'Which NFL team represented the AFC at Super Bowl 50?';

export interface BrowserImportRow {
  sentences: number;
  /** The dropped .zip, and the bundle's files before zipping. */
  zipBytes: number;
  fileBytes: number;
  /** Making the bundle in Node (export + zip), for reference. */
  makeMs: number;
  /** Drop → the import's note (documents, units and vectors in the worker, stored in IndexedDB). */
  dropToImportedMs: number | null;
  /** Drop → the import request posted to the worker (the page reading the file, when it does). */
  dropToSentMs: number | null;
  /** Drop → the first block of the question already asked. */
  dropToFirstResultMs: number | null;
  /** The worker's own import time (unzip, tables, checks, vectors, storage), as the note says it. */
  workerImportMs: number | null;
  /** Of which: reading the zip, the tables with their checks and vectors, storing in IndexedDB. */
  workerPhasesMs: { unzip: number; read: number; store: number } | null;
  /** The tables-and-vectors phase in parts, as the worker measured them (importBundle's timings), when it reports them. */
  workerReadPartsMs: Record<string, number> | null;
  /** The page reloaded after the import was stored → the first block of the question (the corpus restored from IndexedDB). */
  reloadToFirstResultMs: number | null;
  /** The page reloaded → the worker answered init (documents restored, before any model). */
  reloadToRestoredMs: number | null;
  /** After the import (before the reload), the page still answering: "Pause embedding" clicked → paused (the semantic chunks' embedding), ms; null when there was none. */
  pauseMs?: number | null;
  /** Top-k one step down → the columns' new answer shown, and the second question → its answer shown (ms, page side; null: not within the timeout). */
  sliderMs?: number | null;
  secondQuestionMs?: number | null;
  /** Memory after those: measureUserAgentSpecificMemory (page + workers, JS heaps), the largest renderer's resident memory now and at its peak (Linux /proc), MB. */
  memoryMB?: { measured: number | null; rendererRss: number | null; rendererPeakRss: number | null };
  error?: string;
}

export interface BrowserImport {
  model: string;
  dim: number;
  rows: BrowserImportRow[];
}

/** SHA-256 hex of bytes, fed in 1 GiB slices: node:crypto's update refuses 2 GiB and more in one call. */
function sha256Hex(bytes: Uint8Array): string {
  const h = createHash('sha256');
  for (let at = 0; at < bytes.length; at += 1 << 30) h.update(bytes.subarray(at, at + (1 << 30)));
  return h.digest('hex');
}

/** The model a bundle's vectors are made for: the app's (pickModel) or the generated test model (what the e2e app serves). */
export type BundleModel = 'app' | 'test';

function modelOf(which: BundleModel): ReturnType<typeof pickModel> {
  if (which === 'app') return pickModel();
  const dir = resolve(PROJECT_ROOT, 'public/models/rag-lab/test-embedder');
  const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { hidden_size?: number };
  return { id: 'rag-lab/test-embedder', dir, dtype: 'fp32', onnx: 'onnx/model.onnx', label: 'generated TEST embedder', dim: cfg.hidden_size ?? 128 };
}

/**
 * Makes the bundle zip of `n` sentences (in this process: run it as a child, see the file's comment).
 * `lean`: only what an import reads (manifest and Parquet tables; the manifest lists just those):
 * JSONL, PostgreSQL SQL, framework code and the golden run are left out. An import skips those
 * files unread (bundle-jobs' IMPORT_SKIPS; the dropped File is read by slices), so the import is
 * timed alike; making them is most of the export's time and memory, and at 1M their text alone
 * would pass the 4 GB a zip without ZIP64 can hold.
 */
async function makeBundle(n: number, out: string, opts: { lean: boolean; model: BundleModel }): Promise<void> {
  const [{ documentFromText }, { RetrievalEngine }, { exportBundle }, { BUNDLE_KINDS, corpusTables }, { ModelTokenCounter }, { zipBundle }, { buildManifest, tableSummary }, { writeParquet }, { parquetPath, MANIFEST }, { retrievalParams }, { AutoTokenizer, env }] = await Promise.all([
    import('../../src/core/documents/load'),
    import('../../src/core/engine'),
    import('../../src/core/export/bundle'),
    import('../../src/core/export/tables'),
    import('../../src/core/segment/tokens'),
    import('../../src/worker/bundle-zip'),
    import('../../src/core/export/manifest'),
    import('../../src/core/export/parquet'),
    import('../../src/core/export/format'),
    import('../../src/core/retrieve/params'),
    import('@huggingface/transformers'),
  ]);
  const phases: Record<string, number> = {};
  let tp = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - tp);
    tp = now;
    process.stderr.write(`[make ${n}] ${name} ${(phases[name] / 1000).toFixed(1)} s, heap ${(process.memoryUsage().heapUsed / 1e9).toFixed(2)} GB, rss ${(process.memoryUsage().rss / 1e9).toFixed(2)} GB\n`);
  };
  const model = modelOf(opts.model);
  // The model's own tokenizer, under the id the app loads it by: the bundle's token counts are the app's.
  env.allowRemoteModels = false;
  env.localModelPath = `${dirname(model.dir)}/`;
  const tokenizer = await AutoTokenizer.from_pretrained(basename(model.dir));
  const embedder = new RandomEmbedder(new ModelTokenCounter(tokenizer as never, model.id), model.dim, model.id);
  const engine = new RetrievalEngine({ embedder });
  let rep = 0;
  outer: for (;;) {
    for (const a of squadArticles()) {
      engine.addDocuments([documentFromText(articleCopy(a, rep), `${a.title} ${rep}.md`, 'md')]);
      if (engine.corpus.sentences.length >= n) break outer;
    }
    rep++;
  }
  phase('corpus');
  for (const [i, kind] of BUNDLE_KINDS.entries()) await engine.importVectors(kind, randomUnits(engine.unitCount(kind), model.dim, 1000 + i));
  phase('vectors');
  const t0 = performance.now();
  let files: { name: string; bytes: Uint8Array }[];
  if (opts.lean) {
    const params = retrievalParams({ retriever: 'hybrid', budgetTokens: 512 });
    const { tables, vectorKinds } = corpusTables(engine, params.filters);
    const summary = tableSummary(tables);
    phase('tables');
    files = [];
    for (const t of tables.splice(0)) files.push({ name: parquetPath(t.name), bytes: writeParquet(t) });
    phase('parquet');
    const base = buildManifest({
      engine,
      strategy: 'window',
      params: retrievalParams({ ...params, rerank: { ...params.rerank, enabled: false } }),
      labVersion: 'bench',
      vectorKinds,
      tables: summary,
      targets: [{ name: 'Parquet (hyparquet)', files: ['parquet/'], status: 'verified by tests' }],
    });
    // node:crypto, not the core's Web Crypto sha256: Node's subtle.digest refuses 256 MiB and more (a 1M bundle's vectors are ~2.9 GB).
    const manifest = { ...base, files: files.map((f) => ({ name: f.name, bytes: f.bytes.length, sha256: sha256Hex(f.bytes) })) };
    files.unshift({ name: MANIFEST, bytes: new TextEncoder().encode(JSON.stringify(manifest, null, 2) + '\n') });
    phase('manifest');
  } else {
    const questions = [QUESTION, ...squadQuestions().slice(0, 4)].map((question) => ({ question }));
    files = (await exportBundle(engine, { strategy: 'window', params: { retriever: 'hybrid', budgetTokens: 512 }, questions, labVersion: 'bench' })).files;
    phase('export');
  }
  const zip = await zipBundle(files);
  // Streamed to the file: a 1M bundle's zip is larger than one buffer should be.
  await pipeline(Readable.fromWeb(zip.stream() as never), createWriteStream(out));
  phase('zip');
  const info = { sentences: engine.corpus.sentences.length, documents: engine.corpus.docs.length, zipBytes: zip.size, fileBytes: files.reduce((s, f) => s + f.bytes.length, 0), makeMs: performance.now() - t0, lean: opts.lean, model: model.id, phasesMs: phases };
  writeFileSync(`${out}.json`, JSON.stringify(info));
}

async function untilAnswered(page: Page, act: () => Promise<void>, timeoutMs: number): Promise<number | null> {
  // Answered: the strip's aria-busy, set at once when a search starts, is false again ("Searching…" shows only for a
  // search that lasts, and the answer's text may read as the one before it). A change made while a search is in flight
  // (a column searching again as vectors arrive) joins it, and the strip never turns busy anew: act once it is at rest.
  await page.waitForFunction(() => document.querySelector('.columns')?.getAttribute('aria-busy') !== 'true', undefined, { timeout: timeoutMs }).catch(() => undefined);
  await page.evaluate(() => {
    const w = window as unknown as { __answered: { busy: boolean; at: number | null } };
    w.__answered = { busy: false, at: null };
    new MutationObserver((records) => {
      for (const r of records) {
        // The strip's, not a column's (busy while its kept blocks wait for their turn).
        if (!(r.target as Element).matches('.columns')) continue;
        const busy = (r.target as Element).getAttribute('aria-busy') === 'true';
        if (busy) w.__answered.busy = true;
        else if (w.__answered.busy && w.__answered.at === null) w.__answered.at = Date.now();
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  });
  const t = Date.now();
  await act();
  try {
    const at = await page.waitForFunction(() => (window as unknown as { __answered: { at: number | null } }).__answered.at ?? false, undefined, { timeout: timeoutMs });
    return ((await at.jsonValue()) as number) - t;
  } catch {
    return null;
  }
}

/** Import of bundles of each size in the built app, each in a fresh browser context (empty storage). */
export async function browserImportBench(browser: Browser, opts: { sizes: number[]; log: (s: string) => void; timeoutMs?: number; reuse?: boolean; verbose?: boolean; columns?: string; lean?: boolean; model?: BundleModel; persistent?: boolean; app?: string }): Promise<BrowserImport> {
  const model = modelOf(opts.model ?? 'app');
  const dir = join(CACHE, 'import');
  mkdirSync(dir, { recursive: true });
  let app = opts.app;
  if (!app) {
    app = join(CACHE, 'app-import');
    opts.log('building the app (RAG_LAB_TEST_MODELS=1 vite build)…');
    const b = spawnSync('npx', ['vite', 'build', '--outDir', app, '--emptyOutDir', '--logLevel', 'error'], { cwd: PROJECT_ROOT, env: { ...process.env, RAG_LAB_TEST_MODELS: '1' }, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`vite build failed: ${b.stderr}`);
  }
  const server = await serveStatic({ '/': app, [`/models/${model.id}/`]: model.dir });
  const rows: BrowserImportRow[] = [];
  try {
    const key = sourcesKey();
    for (const n of opts.sizes) {
      // A bundle made from the same sources is the same bundle: kept under the cache and dropped again (making the 100k
      // one took 108 s on a quiet machine, 274 s under load). --reuse: the one made last, from whatever sources, to
      // time changes to the import alone.
      const base = bundleName(n, opts);
      const keyed = base.replace(/\.zip$/, `-${key}.zip`);
      const zipPath = join(dir, opts.reuse ? base : keyed);
      const reused = existsSync(zipPath) && existsSync(`${zipPath}.json`);
      if (reused) opts.log(`reusing ${zipPath}${opts.reuse ? '' : ' (made from the same sources)'}`);
      else {
        // Bundles made from other sources go (~1 GB at 100k).
        const stale = new RegExp(`^${base.replace(/\.zip$/, '')}-[0-9a-f]{12}\\.zip(\\.json)?$`);
        if (!opts.reuse) for (const f of readdirSync(dir)) if (stale.test(f)) rmSync(join(dir, f), { force: true });
        opts.log(`making a bundle of ${n} sentences in Node (${model.id}, ${model.dim} dims)…`);
      }
      const made = reused ? { status: 0, stderr: '' } : spawnSync(process.execPath, ['--max-old-space-size=16384', '--import', 'tsx', fileURLToPath(import.meta.url), '--make', String(n), '--out', zipPath, ...(opts.lean ? ['--lean'] : []), '--model', opts.model ?? 'app'], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
      if (made.status !== 0) {
        rows.push({ sentences: n, zipBytes: 0, fileBytes: 0, makeMs: 0, dropToSentMs: null, dropToImportedMs: null, dropToFirstResultMs: null, workerImportMs: null, workerPhasesMs: null, workerReadPartsMs: null, reloadToFirstResultMs: null, reloadToRestoredMs: null, error: `making the bundle failed: ${made.stderr.trim().split('\n').slice(-3).join(' ')}` });
        continue;
      }
      const info = JSON.parse(readFileSync(`${zipPath}.json`, 'utf8')) as Pick<BrowserImportRow, 'sentences' | 'zipBytes' | 'fileBytes' | 'makeMs'>;
      opts.log(`bundle: ${info.sentences} sentences, ${(statSync(zipPath).size / 1e6).toFixed(1)} MB zip; dropping it on the app…`);
      // --persistent: a profile on disk, whose storage quota is a share of the disk as a user's is (a plain
      // context is off the record: its IndexedDB lives in memory with a smaller quota).
      const profile = opts.persistent ? mkdtempSync(join(tmpdir(), 'rag-lab-profile-')) : null;
      const context = profile ? await chromium.launchPersistentContext(profile, MEASURED_MEMORY_LAUNCH) : await browser.newContext();
      const page = await context.newPage();
      try {
        await page.addInitScript({ content: PAGE_PROBE });
        await page.goto(`${server.origin}/?em=${model.id}~${model.dtype}~wasm~local&q=${encodeURIComponent(QUESTION)}${opts.columns ? `&cols=${opts.columns}` : ''}`);
        await page.locator('.m-ready').first().waitFor({ timeout: 120_000 });
        await page.locator('input[type=file]').setInputFiles(zipPath);
        const marks = () => page.evaluate(() => (window as unknown as { __importMarks: Marks }).__importMarks);
        const t = Date.now();
        let m = await marks();
        while (Date.now() - t < (opts.timeoutMs ?? 300_000) && m.refused === undefined && (m.imported === undefined || m.result === undefined)) {
          await page.waitForTimeout(100);
          m = await marks();
        }
        const since = (x: number | undefined) => (x !== undefined && m.drop !== undefined ? x - m.drop : null);
        const worker = /\(([\d.]+) s: zip ([\d.]+), tables and vectors ([\d.]+), storage ([\d.]+)\)/.exec(m.note ?? '');
        const { unzip: _u, read: _r, store: _s, ...parts } = m.summary?.phaseMs ?? {};
        // Still answering? Pause the semantic chunks' embedding (as a user would), move Top-k, ask another question.
        const live: Pick<BrowserImportRow, 'pauseMs' | 'sliderMs' | 'secondQuestionMs' | 'memoryMB'> = {};
        if (m.imported !== undefined && m.result !== undefined) {
          const wait = opts.timeoutMs ?? 300_000;
          // CSS locators (see untilAnswered).
          const pause = page.locator('button.cancel', { hasText: 'Pause embedding' });
          if (await pause.isVisible()) {
            const tp = Date.now();
            await pause.click({ timeout: wait, force: true }); // it never holds still for Playwright's stability check while the embedding runs
            await page.waitForFunction(() => [...document.querySelectorAll('p.small')].some((p) => p.textContent?.startsWith('Embedding is paused')), null, { timeout: wait });
            live.pauseMs = Date.now() - tp;
          } else live.pauseMs = null;
          const slider = page.locator('input[type=range][aria-label="Top-k"]');
          live.sliderMs = await untilAnswered(page, async () => (await slider.focus(), await page.keyboard.press('ArrowLeft')), wait);
          // The results line says how long the worker took ("12 columns in 377 ms").
          const sliderWorker = await page.locator('.search-state').innerText();
          live.secondQuestionMs = await untilAnswered(page, async () => (await page.locator('form.question input[type=search]').fill(SECOND_QUESTION, { timeout: wait }), await page.locator('form.question button[type=submit]').click({ timeout: wait })), wait);
          const mem = await measuredMemory(page).catch(() => null);
          const rss = rendererRss();
          live.memoryMB = { measured: mem ? Math.round(mem.bytes / 1e6) : null, rendererRss: rss?.rss ?? null, rendererPeakRss: rss?.peak ?? null };
          if (opts.verbose) opts.log(`live: ${JSON.stringify(live)}; worker: slider "${sliderWorker}", second question "${await page.locator('.search-state').innerText()}"; measured by scope: ${JSON.stringify(mem?.by ?? null)}`);
        }
        // Reload: the corpus comes back from IndexedDB (stored by the time the note said "Imported").
        let reload: Marks = {};
        let reloadProblem = '';
        if (m.imported !== undefined) {
          // What the page said about storage before the reload (a failed write turns persistence off and says why).
          const stored = ((await page.getByRole('banner').innerText().catch(() => '')).match(/(Your corpus is kept[^.]*|Persistence is off[^:]*)/) ?? [''])[0];
          await page.reload();
          const t1 = Date.now();
          reload = await marks();
          while (Date.now() - t1 < (opts.timeoutMs ?? 300_000) && reload.firstBlock === undefined) {
            await page.waitForTimeout(100);
            reload = await marks();
            // Restored nothing: no result will come.
            if (reload.restored !== undefined && Date.now() - t1 > reload.restored + 10_000 && (await page.locator('li.doc').count()) === 0) break;
          }
          if (reload.firstBlock === undefined) {
            const banner = await page.getByRole('banner').innerText().catch(() => '');
            const docs = await page.locator('li.doc').count();
            reloadProblem = `no result after the reload (${docs} documents listed; before the reload the banner said "${stored}"; after it: ${banner.replace(/\s+/g, ' ').slice(0, 300)})`;
          }
        }
        if (opts.verbose) {
          opts.log(`drop at ${Math.round(m.drop ?? 0)} ms, first block at ${Math.round(m.result ?? 0)}; worker: ${(m.timeline ?? []).map(([t, method, what]) => `${t} ${method} ${what}`).join(', ')}`);
          opts.log(`reload: init at ${Math.round(reload.restored ?? 0)} ms, first block at ${Math.round(reload.firstBlock ?? 0)}; worker: ${(reload.timeline ?? []).map(([t, method, what]) => `${t} ${method} ${what}`).join(', ')}`);
        }
        rows.push({
          ...info,
          dropToSentMs: since(m.posted),
          dropToImportedMs: since(m.imported),
          dropToFirstResultMs: since(m.result),
          workerImportMs: m.summary ? m.summary.ms : worker ? Number(worker[1]) * 1000 : null,
          workerPhasesMs: m.summary ? { unzip: m.summary.phaseMs.unzip!, read: m.summary.phaseMs.read!, store: m.summary.phaseMs.store! } : worker ? { unzip: Number(worker[2]) * 1000, read: Number(worker[3]) * 1000, store: Number(worker[4]) * 1000 } : null,
          workerReadPartsMs: Object.keys(parts).length ? parts : null,
          reloadToFirstResultMs: reload.firstBlock ?? null,
          reloadToRestoredMs: reload.restored ?? null,
          ...live,
          ...(m.refused !== undefined ? { error: `refused: ${m.message}` } : m.imported === undefined ? { error: `not imported after ${(opts.timeoutMs ?? 300_000) / 1000} s` } : reloadProblem ? { error: reloadProblem } : {}),
        });
      } finally {
        await context.close();
        if (profile) rmSync(profile, { recursive: true, force: true });
      }
    }
  } finally {
    await server.close();
  }
  return { model: model.id, dim: model.dim, rows };
}

/** A key of what a bundle is made from: src/core (the engine and the export) and this bench's maker, file by file. */
function sourcesKey(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else hash.update(`${path.slice(PROJECT_ROOT.length)}\0`).update(readFileSync(path));
  };
  for (const path of ['src/core', 'scripts/bench/browser-import.ts', 'scripts/bench/common.ts']) add(join(PROJECT_ROOT, path));
  return hash.digest('hex').slice(0, 12);
}

/** The cache file of a bundle: lean bundles and test-model bundles under names of their own. */
export const bundleName = (n: number, o: { lean?: boolean; model?: BundleModel }) => `bundle-${n}${o.lean ? '-lean' : ''}${o.model === 'test' ? '-test' : ''}.zip`;

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { values } = parseArgs({ options: { make: { type: 'string' }, out: { type: 'string' }, lean: { type: 'boolean' }, model: { type: 'string' }, sizes: { type: 'string' }, reuse: { type: 'boolean' }, timeout: { type: 'string' }, verbose: { type: 'boolean' }, cols: { type: 'string' }, persistent: { type: 'boolean' }, app: { type: 'string' } } });
  if (values.make) {
    await makeBundle(Number(values.make), values.out!, { lean: values.lean ?? false, model: values.model === 'test' ? 'test' : 'app' });
  } else {
    const { launch } = await import('./browser-bench');
    const browser = await launch();
    try {
      const r = await browserImportBench(browser, { sizes: (values.sizes ?? '10000,100000').split(',').map(Number), reuse: values.reuse ?? false, lean: values.lean ?? false, model: values.model === 'test' ? 'test' : 'app', verbose: values.verbose ?? false, persistent: values.persistent ?? false, ...(values.app ? { app: values.app } : {}), ...(values.cols ? { columns: values.cols } : {}), ...(values.timeout ? { timeoutMs: Number(values.timeout) * 1000 } : {}), log: (s) => process.stderr.write(`[browser-import] ${s}\n`) });
      console.log(`model: ${r.model} (${r.dim} dims)`);
      console.log('sentences  zip MB  files MB  make s  drop→sent s  drop→imported s  drop→first result s  reload→restored s  reload→first result s  worker import s (zip + tables/vectors + storage) [tables/vectors in parts]');
      for (const x of r.rows) {
        const s = (v: number | null) => (v === null ? '—' : (v / 1000).toFixed(2));
        console.log(`${String(x.sentences).padStart(9)}  ${(x.zipBytes / 1e6).toFixed(1).padStart(6)}  ${(x.fileBytes / 1e6).toFixed(1).padStart(8)}  ${s(x.makeMs).padStart(6)}  ${s(x.dropToSentMs).padStart(11)}  ${s(x.dropToImportedMs).padStart(15)}  ${s(x.dropToFirstResultMs).padStart(19)}  ${s(x.reloadToRestoredMs).padStart(17)}  ${s(x.reloadToFirstResultMs).padStart(21)}  ${s(x.workerImportMs).padStart(15)}${x.workerPhasesMs ? ` (${s(x.workerPhasesMs.unzip)} + ${s(x.workerPhasesMs.read)} + ${s(x.workerPhasesMs.store)})` : ''}${x.workerReadPartsMs ? ` [${Object.entries(x.workerReadPartsMs).map(([k, v]) => `${k} ${s(v)}`).join(', ')}]` : ''}${x.error ? `  ${x.error}` : ''}`);
        if (x.memoryMB) console.log(`  after the import: pause embedding ${s(x.pauseMs ?? null)}, Top-k slider → answer ${s(x.sliderMs ?? null)}, second question → answer ${s(x.secondQuestionMs ?? null)}; memory: measureUserAgentSpecificMemory ${x.memoryMB.measured ?? '—'} MB, renderer RSS ${x.memoryMB.rendererRss ?? '—'} MB (peak ${x.memoryMB.rendererPeakRss ?? '—'} MB)`);
      }
    } finally {
      await browser.close();
    }
  }
}
