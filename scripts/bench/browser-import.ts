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
 *   npx tsx scripts/bench/browser-import.ts [--sizes 10000,30000] [--reuse] [--cols a,b] [--verbose] [--timeout S]
 * (--reuse keeps each bundle under node_modules/.cache/rag-lab-bench/import and drops it again
 * next time instead of making it anew: for timing changes to the import alone. --cols: only
 * those columns, to see what one column's first search costs. --verbose: the worker's answers
 * in time. --timeout: seconds per wait, default 300.)
 * The bundle is made in a child process (--make N --out FILE): a 100k-sentence export needs
 * several GB of heap, which the benchmark's own process should not keep.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import { articleCopy, pickModel, PROJECT_ROOT, RandomEmbedder, randomUnits, squadArticles, squadQuestions } from './common';
import { serveStatic } from './server';

const CACHE = resolve(PROJECT_ROOT, 'node_modules/.cache/rag-lab-bench');
const QUESTION = 'When did the Normans conquer England?';

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
  error?: string;
}

export interface BrowserImport {
  model: string;
  dim: number;
  rows: BrowserImportRow[];
}

/** Makes the bundle zip of `n` sentences (in this process: run it as a child, see the file's comment). */
async function makeBundle(n: number, out: string): Promise<void> {
  const [{ documentFromText }, { RetrievalEngine }, { exportBundle }, { BUNDLE_KINDS }, { ModelTokenCounter }, { zipBundle }, { AutoTokenizer, env }] = await Promise.all([
    import('../../src/core/documents/load'),
    import('../../src/core/engine'),
    import('../../src/core/export/bundle'),
    import('../../src/core/export/tables'),
    import('../../src/core/segment/tokens'),
    import('../../src/worker/bundle-zip'),
    import('@huggingface/transformers'),
  ]);
  const model = pickModel();
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
  for (const [i, kind] of BUNDLE_KINDS.entries()) await engine.importVectors(kind, randomUnits(engine.unitCount(kind), model.dim, 1000 + i));
  const t0 = performance.now();
  const questions = [QUESTION, ...squadQuestions().slice(0, 4)].map((question) => ({ question }));
  const { files } = await exportBundle(engine, { strategy: 'window', params: { retriever: 'hybrid', budgetTokens: 512 }, questions, labVersion: 'bench' });
  const zip = new Uint8Array(await (await zipBundle(files)).arrayBuffer());
  writeFileSync(out, zip);
  const info = { sentences: engine.corpus.sentences.length, zipBytes: zip.length, fileBytes: files.reduce((s, f) => s + f.bytes.length, 0), makeMs: performance.now() - t0 };
  writeFileSync(`${out}.json`, JSON.stringify(info));
}

/** Times drop → imported and drop → first result, in the page. */
const PAGE_PROBE = `(() => {
  const marks = {};
  window.__importMarks = marks;
  // When the import request leaves for the worker (after the page read the file, if it does).
  const post = Worker.prototype.postMessage;
  const calls = {};
  Worker.prototype.postMessage = function (msg, transfer) {
    if (msg && msg.method === 'importBundle' && marks.posted === undefined) marks.posted = performance.now();
    if (msg && msg.kind === 'call') calls[msg.id] = msg.method;
    if (!this.__probed) {
      this.__probed = true;
      // The worker's answers: the import's summary (its timings) and when init answered.
      this.addEventListener('message', (e) => {
        const d = e.data;
        // A timeline of the worker's answers and import phases (for --verbose).
        if (d && (d.kind === 'result' || (d.kind === 'progress' && calls[d.id] === 'importBundle'))) {
          (marks.timeline ??= []).push([Math.round(performance.now()), calls[d.id], d.kind === 'progress' ? d.progress.phase : 'result']);
        }
        if (!d || d.kind !== 'result') return;
        if (calls[d.id] === 'importBundle') marks.summary = { ms: d.result.ms, phaseMs: d.result.phaseMs };
        if (calls[d.id] === 'init' && marks.restored === undefined) marks.restored = performance.now();
      });
    }
    return post.call(this, msg, transfer);
  };
  document.addEventListener('change', (e) => {
    if (e.target && e.target.type === 'file' && marks.drop === undefined) marks.drop = performance.now();
  }, true);
  setInterval(() => {
    const now = performance.now();
    const note = document.querySelector('.bundle-import');
    if (marks.imported === undefined && note && /^Imported /.test(note.textContent || '')) { marks.imported = now; marks.note = note.textContent; }
    if (marks.firstBlock === undefined && document.querySelector('article.block')) marks.firstBlock = now;
    if (marks.drop === undefined) return;
    if (marks.result === undefined && document.querySelector('article.block')) marks.result = now;
    const problem = document.querySelector('.corpus .problems');
    if (marks.refused === undefined && problem) { marks.refused = now; marks.message = problem.textContent; }
  }, 20);
})();`;

interface Marks {
  drop?: number;
  imported?: number;
  result?: number;
  posted?: number;
  refused?: number;
  note?: string;
  message?: string;
  /** Since the page's start (performance.now's origin): the first block, init answered. */
  firstBlock?: number;
  restored?: number;
  summary?: { ms: number; phaseMs: Record<string, number> };
  timeline?: [number, string, string][];
}

/** Import of bundles of each size in the built app, each in a fresh browser context (empty storage). */
export async function browserImportBench(browser: Browser, opts: { sizes: number[]; log: (s: string) => void; timeoutMs?: number; reuse?: boolean; verbose?: boolean; columns?: string }): Promise<BrowserImport> {
  const model = pickModel();
  const dir = join(CACHE, 'import');
  mkdirSync(dir, { recursive: true });
  const app = join(CACHE, 'app-import');
  opts.log('building the app (RAG_LAB_TEST_MODELS=1 vite build)…');
  const b = spawnSync('npx', ['vite', 'build', '--outDir', app, '--emptyOutDir', '--logLevel', 'error'], { cwd: PROJECT_ROOT, env: { ...process.env, RAG_LAB_TEST_MODELS: '1' }, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`vite build failed: ${b.stderr}`);
  const server = await serveStatic({ '/': app, [`/models/${model.id}/`]: model.dir });
  const rows: BrowserImportRow[] = [];
  try {
    for (const n of opts.sizes) {
      const zipPath = join(dir, `bundle-${n}.zip`);
      // --reuse: a bundle made before (kept under the cache) is dropped again, to time the import alone.
      const reused = opts.reuse && existsSync(zipPath) && existsSync(`${zipPath}.json`);
      if (reused) opts.log(`reusing ${zipPath}`);
      else opts.log(`making a bundle of ${n} sentences in Node (${model.id}, ${model.dim} dims)…`);
      const made = reused ? { status: 0, stderr: '' } : spawnSync(process.execPath, ['--max-old-space-size=16384', '--import', 'tsx', fileURLToPath(import.meta.url), '--make', String(n), '--out', zipPath], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
      if (made.status !== 0) {
        rows.push({ sentences: n, zipBytes: 0, fileBytes: 0, makeMs: 0, dropToSentMs: null, dropToImportedMs: null, dropToFirstResultMs: null, workerImportMs: null, workerPhasesMs: null, workerReadPartsMs: null, reloadToFirstResultMs: null, reloadToRestoredMs: null, error: `making the bundle failed: ${made.stderr.trim().split('\n').slice(-3).join(' ')}` });
        continue;
      }
      const info = JSON.parse(readFileSync(`${zipPath}.json`, 'utf8')) as Pick<BrowserImportRow, 'sentences' | 'zipBytes' | 'fileBytes' | 'makeMs'>;
      opts.log(`bundle: ${info.sentences} sentences, ${(statSync(zipPath).size / 1e6).toFixed(1)} MB zip; dropping it on the app…`);
      const context = await browser.newContext();
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
        // Reload: the corpus comes back from IndexedDB (stored by the time the note said "Imported").
        let reload: Marks = {};
        let reloadProblem = '';
        if (m.imported !== undefined) {
          await page.reload();
          const t1 = Date.now();
          reload = await marks();
          while (Date.now() - t1 < (opts.timeoutMs ?? 300_000) && reload.firstBlock === undefined) {
            await page.waitForTimeout(100);
            reload = await marks();
          }
          if (reload.firstBlock === undefined) {
            const banner = await page.getByRole('banner').innerText().catch(() => '');
            const docs = await page.locator('li.doc').count();
            reloadProblem = `no result after the reload (${docs} documents listed; banner: ${banner.replace(/\s+/g, ' ').slice(0, 300)})`;
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
          ...(m.refused !== undefined ? { error: `refused: ${m.message}` } : m.imported === undefined ? { error: `not imported after ${(opts.timeoutMs ?? 300_000) / 1000} s` } : reloadProblem ? { error: reloadProblem } : {}),
        });
      } finally {
        await context.close();
        if (!opts.reuse) rmSync(zipPath, { force: true });
      }
    }
  } finally {
    await server.close();
  }
  return { model: model.id, dim: model.dim, rows };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { values } = parseArgs({ options: { make: { type: 'string' }, out: { type: 'string' }, sizes: { type: 'string' }, reuse: { type: 'boolean' }, timeout: { type: 'string' }, verbose: { type: 'boolean' }, cols: { type: 'string' } } });
  if (values.make) {
    await makeBundle(Number(values.make), values.out!);
  } else {
    const { launch } = await import('./browser-bench');
    const browser = await launch();
    try {
      const r = await browserImportBench(browser, { sizes: (values.sizes ?? '10000,100000').split(',').map(Number), reuse: values.reuse ?? false, verbose: values.verbose ?? false, ...(values.cols ? { columns: values.cols } : {}), ...(values.timeout ? { timeoutMs: Number(values.timeout) * 1000 } : {}), log: (s) => process.stderr.write(`[browser-import] ${s}\n`) });
      console.log(`model: ${r.model} (${r.dim} dims)`);
      console.log('sentences  zip MB  files MB  make s  drop→sent s  drop→imported s  drop→first result s  reload→restored s  reload→first result s  worker import s (zip + tables/vectors + storage) [tables/vectors in parts]');
      for (const x of r.rows) {
        const s = (v: number | null) => (v === null ? '—' : (v / 1000).toFixed(2));
        console.log(`${String(x.sentences).padStart(9)}  ${(x.zipBytes / 1e6).toFixed(1).padStart(6)}  ${(x.fileBytes / 1e6).toFixed(1).padStart(8)}  ${s(x.makeMs).padStart(6)}  ${s(x.dropToSentMs).padStart(11)}  ${s(x.dropToImportedMs).padStart(15)}  ${s(x.dropToFirstResultMs).padStart(19)}  ${s(x.reloadToRestoredMs).padStart(17)}  ${s(x.reloadToFirstResultMs).padStart(21)}  ${s(x.workerImportMs).padStart(15)}${x.workerPhasesMs ? ` (${s(x.workerPhasesMs.unzip)} + ${s(x.workerPhasesMs.read)} + ${s(x.workerPhasesMs.store)})` : ''}${x.workerReadPartsMs ? ` [${Object.entries(x.workerReadPartsMs).map(([k, v]) => `${k} ${s(v)}`).join(', ')}]` : ''}${x.error ? `  ${x.error}` : ''}`);
      }
    } finally {
      await browser.close();
    }
  }
}
