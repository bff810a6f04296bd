/**
 * The browser half of `npm run bench`: indexing throughput (app path vs bare ONNX Runtime,
 * 1 and 2 threads) in the harness page, and cold start in the real built app. Headless
 * Chromium driven by Playwright; pages served cross-origin isolated by server.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { longSquadText, PROJECT_ROOT, pickModel } from './common';
import { serveStatic } from './server';
import { MEASURED_MEMORY_LAUNCH } from '../../e2e/chromium';
import type { IndexingRequest, IndexingResult } from './browser/protocol';

export const CACHE = resolve(PROJECT_ROOT, 'node_modules/.cache/rag-lab-bench');

export async function launch(): Promise<Browser> {
  return chromium.launch(MEASURED_MEMORY_LAUNCH);
}

export interface IndexingBench {
  document: { name: string; chars: number; sentences: number };
  runs: (Omit<IndexingResult, 'texts'> & { sentencesPerS: number })[];
  worker: boolean;
}

/** Indexing throughput: app path against bare ORT, 1 and 2 threads, each in a fresh worker. */
export async function indexingBench(browser: Browser, opts: { sentences: number; log: (s: string) => void }): Promise<IndexingBench> {
  const model = pickModel();
  opts.log('building the harness page (scripts/bench/vite.bench.config.ts)…');
  await build({ configFile: resolve(import.meta.dirname, 'vite.bench.config.ts'), logLevel: 'warn' });
  const data = join(CACHE, 'data');
  mkdirSync(data, { recursive: true });
  const text = longSquadText(opts.sentences);
  const docName = 'squad-contexts.txt';
  writeFileSync(join(data, docName), text);
  const server = await serveStatic({ '/': join(CACHE, 'harness'), [`/models/${model.id}/`]: model.dir, '/bench-data/': data });
  const page = await browser.newPage();
  const runs: IndexingBench['runs'] = [];
  let sentences = 0;
  try {
    page.on('pageerror', (e) => opts.log(`page error: ${e.message}`));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, null, { timeout: 60_000 });
    const base = {
      modelsUrl: `${server.origin}/models/`,
      model: model.id,
      dtype: model.dtype,
      onnxFile: model.onnx,
      batchSize: 16,
      slice: 256,
    };
    for (const threads of [1, 2]) {
      opts.log(`indexing in the browser, app path, ${threads} thread${threads > 1 ? 's' : ''}…`);
      const appRun = await page.evaluate(
        (req) => (window as unknown as { benchIndexing: (r: unknown) => Promise<IndexingResult> }).benchIndexing(req),
        { ...base, mode: 'app', threads, docUrl: `${server.origin}/bench-data/${docName}`, docName } satisfies Omit<IndexingRequest, 'ortWasm'>,
      );
      const { texts, ...appRest } = appRun;
      sentences = appRun.sentences;
      runs.push({ ...appRest, sentencesPerS: (appRun.sentences / appRun.totalMs) * 1000 });
      opts.log(`  ${appRun.sentences} sentences in ${(appRun.totalMs / 1000).toFixed(1)} s`);
      opts.log(`indexing in the browser, bare ONNX Runtime, ${threads} thread${threads > 1 ? 's' : ''}…`);
      const bareRun = await page.evaluate(
        (req) => (window as unknown as { benchIndexing: (r: unknown) => Promise<IndexingResult> }).benchIndexing(req),
        { ...base, mode: 'bare', threads, texts } satisfies Omit<IndexingRequest, 'ortWasm'>,
      );
      runs.push({ ...bareRun, sentencesPerS: (bareRun.sentences / bareRun.totalMs) * 1000 });
      opts.log(`  ${bareRun.sentences} sentences in ${(bareRun.totalMs / 1000).toFixed(1)} s`);
    }
  } finally {
    await page.close();
    await server.close();
  }
  return { document: { name: docName, chars: text.length, sentences }, runs, worker: true };
}

export interface ColdStart {
  model: string;
  pdf: string;
  pages: number | null;
  pageLoadToModelReadyMs: number | null;
  dropToFirstBm25Ms: number | null;
  dropToFirstVectorMs: number | null;
  dropToAllEmbeddedMs: number | null;
  longTasks: { count: number; totalMs: number; maxMs: number; over200Ms: number };
  crossOriginIsolated: boolean;
  note?: string;
}

/** Installed in the app's page before it loads: long tasks, and when the drop and the first results happen. */
const PAGE_PROBE = `(() => {
  const tasks = [];
  window.__longtasks = tasks;
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__longtasksUnsupported = true; }
  const marks = {};
  window.__marks = marks;
  document.addEventListener('change', (e) => {
    if (e.target && e.target.type === 'file' && marks.drop === undefined) marks.drop = performance.now();
  }, true);
  setInterval(() => {
    const now = performance.now();
    if (marks.modelReady === undefined && document.querySelector('.m-ready')) marks.modelReady = now;
    if (marks.drop === undefined) return;
    if (marks.bm25 === undefined || marks.vector === undefined) {
      const blocks = Array.from(document.querySelectorAll('article.block'), (a) => a.textContent || '');
      if (marks.bm25 === undefined && blocks.some((t) => /BM25 #\\d/.test(t))) marks.bm25 = now;
      if (marks.vector === undefined && blocks.some((t) => /vector #\\d/.test(t))) marks.vector = now;
    }
    const list = document.querySelector('[aria-label="Indexed documents"]');
    if (marks.ready === undefined && list && Array.from(list.querySelectorAll('*')).some((el) => el.children.length === 0 && (el.textContent || '').trim() === 'ready')) marks.ready = now;
  }, 50);
})();`;

/** Cold start in the real built app: model ready, then drop a 48-page PDF with a question already asked. */
export async function coldStart(browser: Browser, opts: { log: (s: string) => void; timeoutMs: number }): Promise<ColdStart> {
  const model = pickModel();
  const out = join(CACHE, 'app');
  opts.log('building the app (RAG_LAB_TEST_MODELS=1 vite build)…');
  const b = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, RAG_LAB_TEST_MODELS: '1' },
    encoding: 'utf8',
  });
  if (b.status !== 0) throw new Error(`vite build failed: ${b.stderr}`);
  // The stand-in is served as a self-hosted model of the app (like a copy in dist/models/).
  const server = await serveStatic({ '/': out, [`/models/${model.id}/`]: model.dir });
  const pdf = 'NIST.AI.100-1.pdf';
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    // A string, not a function: tsx (esbuild keepNames) would wrap named functions in a
    // __name() helper that does not exist in the page.
    await page.addInitScript({ content: PAGE_PROBE });
    const question = 'What are the characteristics of trustworthy AI?';
    await page.goto(`${server.origin}/?em=${model.id}~${model.dtype}~wasm~local&q=${encodeURIComponent(question)}`);
    await page.locator('.m-ready').first().waitFor({ timeout: 120_000 });
    const isolated = await page.evaluate(() => crossOriginIsolated);
    opts.log('model ready; dropping the PDF…');
    await page.locator('input[type=file]').setInputFiles(resolve(PROJECT_ROOT, 'public/samples', pdf));
    const marks = () => page.evaluate(() => (window as unknown as { __marks: Record<string, number> }).__marks);
    const t = Date.now();
    while (Date.now() - t < opts.timeoutMs) {
      const m = await marks();
      if (m.ready !== undefined && m.vector !== undefined) break;
      await page.waitForTimeout(250);
    }
    const m = await marks();
    const pages = await page
      .getByRole('list', { name: 'Indexed documents' })
      .innerText()
      .then((s) => Number(/(\d+) pages/.exec(s)?.[1] ?? NaN))
      .catch(() => NaN);
    const tasks = await page.evaluate(() => (window as unknown as { __longtasks: { start: number; duration: number }[] }).__longtasks);
    const end = m.ready ?? Infinity;
    const during = tasks.filter((x) => x.start >= m.drop! && x.start <= end && x.duration > 50);
    const since = (k: string) => (m[k] !== undefined && m.drop !== undefined ? m[k]! - m.drop : null);
    return {
      model: model.id,
      pdf,
      pages: Number.isFinite(pages) ? pages : null,
      pageLoadToModelReadyMs: m.modelReady ?? null,
      dropToFirstBm25Ms: since('bm25'),
      dropToFirstVectorMs: since('vector'),
      dropToAllEmbeddedMs: since('ready'),
      longTasks: { count: during.length, totalMs: during.reduce((s, x) => s + x.duration, 0), maxMs: Math.max(0, ...during.map((x) => x.duration)), over200Ms: during.filter((x) => x.duration > 200).length },
      crossOriginIsolated: isolated,
      ...(m.ready === undefined ? { note: `embedding not finished after ${opts.timeoutMs / 1000} s (the cap); documents list then: ${(await page.getByRole('list', { name: 'Indexed documents' }).innerText().catch(() => '?')).replace(/\s+/g, ' ').slice(0, 200)}` } : {}),
    };
  } finally {
    await context.close();
    await server.close();
  }
}
