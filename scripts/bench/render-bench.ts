/**
 * Rendering against the worker (issue 29): in the built app in Chromium, on the sample corpus
 * (BM25 only, so no embedding competes for the CPU), top-k 100, windows of 10 sentences before and after:
 *  - Enter → answer painted (the frame after the page's last change), beside the worker's
 *    own time for that search and its round trip;
 *  - a 250-step slider drag (one step a frame, as a pointer drag fires them): time per step
 *    until the last answer is painted, beside the worker's mean time per search.
 * Goal: painted within 2 × the worker's time + one frame (16.7 ms).
 *
 * npx tsx scripts/bench/render-bench.ts [--app DIR] [--against OTHER [--rounds N]]
 * (DIR: an app already built with RAG_LAB_TEST_MODELS=1, to measure another version; default:
 * built here. --against: a before/after, this app and OTHER measured in turns, see renderAgainst.)
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { CACHE, launch } from './browser-bench';
import { PROJECT_ROOT, round } from './common';
import { serveStatic } from './server';

export interface RenderBench {
  docs: number;
  /** Per question: Enter → first paint of the answer (its first blocks), Enter → last paint (every block), the worker's own time, post → answer. */
  enter: { firstPaintMs: number; paintedMs: number; workerMs: number; roundTripMs: number }[];
  drag: { steps: number; searches: number; perStepMs: number; workerMeanMs: number; totalMs: number };
}

/** Marks the page keeps: searches posted and answered (with the worker's time), Enter, the last DOM change and the frame after it. */
const RENDER_PROBE = `(() => {
  const m = { searches: [], lastMutation: 0, lastPaint: 0 };
  window.__render = m;
  const post = Worker.prototype.postMessage;
  const calls = {};
  Worker.prototype.postMessage = function (msg, transfer) {
    if (msg && msg.kind === 'call') {
      calls[msg.id] = msg.method;
      if (msg.method === 'search') m.searches.push({ id: msg.id, posted: performance.now() });
    }
    if (!this.__renderProbed) {
      this.__renderProbed = true;
      this.addEventListener('message', (e) => {
        const d = e.data;
        if (!d || (d.kind !== 'result' && d.kind !== 'progress') || calls[d.id] !== 'search') return;
        const s = m.searches.find((x) => x.id === d.id);
        // The columns in sight may come first, in a progress message: the first paint follows the first message.
        if (s && d.kind === 'result') { s.answered = performance.now(); s.workerMs = d.result.ms; }
        if (s && (d.kind === 'progress' || s.first === undefined)) { s.first = performance.now(); 
          // React has committed the answer by now (a store update renders in a microtask, before this listener): the next
          // frame paints it. Its end is the first task after that frame's rendering — a user-blocking one, run before the
          // page's own tasks queued meanwhile (a second requestAnimationFrame would also count those: the next frame's work).
          if (m.enter !== undefined && m.firstPaint === undefined) requestAnimationFrame(() => {
            const done = () => { if (m.firstPaint === undefined) m.firstPaint = performance.now(); };
            if (window.scheduler && window.scheduler.postTask) window.scheduler.postTask(done, { priority: 'user-blocking' });
            else requestAnimationFrame(done);
          });
        }
      });
    }
    return post.call(this, msg, transfer);
  };
  document.addEventListener('keydown', (e) => { if (e.key === 'Enter') { m.enter = performance.now(); m.firstPaint = undefined; } }, true);
  new MutationObserver(() => {
    m.lastMutation = performance.now();
    requestAnimationFrame(() => { m.lastPaint = performance.now(); });
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();`;

type Marks = { searches: { posted: number; answered?: number; workerMs?: number }[]; enter?: number; firstPaint?: number; lastMutation: number; lastPaint: number };
const marks = (page: Page) => page.evaluate(() => (window as unknown as { __render: Marks }).__render);

/** Waits until every search posted is answered and the page has not changed for `quietMs`. */
async function settled(page: Page, quietMs = 600): Promise<Marks> {
  for (;;) {
    const m = await marks(page);
    const now = await page.evaluate(() => performance.now());
    if (m.searches.every((s) => s.answered !== undefined) && now - m.lastMutation > quietMs && m.lastPaint >= m.lastMutation) return m;
    await page.waitForTimeout(100);
  }
}

export const QUESTIONS = ['What are the characteristics of trustworthy AI?', 'How should risks be measured?', 'Who is accountable for an AI system?', 'What does governance mean here?', 'How is bias managed?'];

/** Builds the app here (RAG_LAB_TEST_MODELS=1) unless `app` names one already built. */
export function builtApp(app: string | undefined, log: (s: string) => void): string {
  if (app) return app;
  const out = join(CACHE, 'app-render');
  log('building the app for the rendering bench (RAG_LAB_TEST_MODELS=1 vite build)…');
  const b = spawnSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: PROJECT_ROOT, env: { ...process.env, RAG_LAB_TEST_MODELS: '1' }, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`vite build failed: ${b.stderr}`);
  return out;
}

/** One built app in a tab of its own with the sample corpus loaded (BM25), top-k 100, windows 10/10. */
export async function openApp(browser: Browser, app: string, log: (s: string) => void): Promise<{ page: Page; docs: number; close: () => Promise<void> }> {
  const server = await serveStatic({ '/': app });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const close = async () => {
    await context.close();
    await server.close();
  };
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: RENDER_PROBE });
    // BM25 only: rendering is measured, and no background embedding competes with it for the CPU.
    await page.goto(`${server.origin}/?em=none&k=100&wb=10&wa=10`);
    log('loading the sample corpus…');
    await page.getByRole('button', { name: 'Load sample corpus' }).click();
    const list = page.getByRole('list', { name: 'Indexed documents' });
    await list.locator('li.doc:not(.pending)').nth(7).waitFor({ timeout: 300_000 });
    await page.getByRole('button', { name: 'Cancel indexing' }).waitFor({ state: 'detached', timeout: 300_000 });
    return { page, docs: await list.locator('li.doc:not(.pending)').count(), close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** A question typed and Enter pressed: the times to its first and last paint, beside the worker's. */
async function askOnce(page: Page, q: string): Promise<RenderBench['enter'][number]> {
  const box = page.getByRole('searchbox', { name: 'Question' });
  await settled(page);
  await box.fill(q);
  const before = (await marks(page)).searches.length;
  await box.press('Enter');
  const m = await settled(page);
  const s = m.searches.slice(before).at(-1);
  if (!s || m.enter === undefined) throw new Error(`no search after Enter for "${q}"`);
  return { firstPaintMs: (m.firstPaint ?? NaN) - m.enter, paintedMs: m.lastPaint - m.enter, workerMs: s.workerMs ?? NaN, roundTripMs: s.answered! - s.posted };
}

/** The drag: one input event a frame on the "Window before" slider, back and forth over 0–10, until the last answer is painted. */
async function dragOnce(page: Page, steps: number): Promise<RenderBench['drag']> {
  await settled(page);
  const before = (await marks(page)).searches.length;
  const start = await page.evaluate(async (n) => {
    const el = document.querySelector('input[type=range][aria-label="Window before"]') as HTMLInputElement;
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const v = i % 20 < 10 ? i % 10 : 10 - (i % 10);
      set.call(el, String(v));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(r));
    }
    return t0;
  }, steps);
  const m = await settled(page);
  const searches = m.searches.slice(before);
  const workerMean = searches.reduce((a, s) => a + (s.workerMs ?? 0), 0) / Math.max(1, searches.length);
  const total = m.lastPaint - start;
  return { steps, searches: searches.length, perStepMs: total / steps, workerMeanMs: workerMean, totalMs: total };
}

export async function renderBench(browser: Browser, opts: { log: (s: string) => void; app?: string; questions?: string[] }): Promise<RenderBench> {
  const { page, docs, close } = await openApp(browser, builtApp(opts.app, opts.log), opts.log);
  try {
    const enter: RenderBench['enter'] = [];
    for (const q of opts.questions ?? QUESTIONS) {
      const e = await askOnce(page, q);
      enter.push(e);
      opts.log(`Enter → first paint ${round(e.firstPaintMs, 0)} ms, all painted ${round(e.paintedMs, 0)} ms (worker ${round(e.workerMs, 1)} ms) for "${q}"`);
    }
    return { docs, enter, drag: await dragOnce(page, 250) };
  } finally {
    await close();
  }
}

/**
 * Two builds at once, each in its own tab, every question and drag taken by one then the other
 * (the order swapped each round), so what else the machine does falls on both alike: for a
 * before/after on a shared machine, where two runs one after the other differ by more than
 * the change. Drags of 60 steps, one per round.
 */
export async function renderAgainst(browser: Browser, apps: [string, string], opts: { log: (s: string) => void; rounds?: number }): Promise<[RenderBench, RenderBench]> {
  const tabs = [await openApp(browser, apps[0], opts.log), await openApp(browser, apps[1], opts.log)];
  try {
    const out = tabs.map((t) => ({ docs: t.docs, enter: [] as RenderBench['enter'], drags: [] as RenderBench['drag'][] }));
    for (let r = 0; r < (opts.rounds ?? 2); r++) {
      const order = r % 2 ? [1, 0] : [0, 1];
      for (const q of QUESTIONS) for (const i of order) out[i]!.enter.push(await askOnce(tabs[i]!.page, r ? `${q} (${r + 1})` : q));
      for (const i of order) out[i]!.drags.push(await dragOnce(tabs[i]!.page, 60));
      opts.log(`round ${r + 1} done`);
    }
    // The drag row: the median round's.
    const drag = (ds: RenderBench['drag'][]) => [...ds].sort((a, b) => a.perStepMs - b.perStepMs)[Math.floor(ds.length / 2)]!;
    return [0, 1].map((i) => ({ docs: out[i]!.docs, enter: out[i]!.enter, drag: drag(out[i]!.drags) })) as [RenderBench, RenderBench];
  } finally {
    for (const t of tabs) await t.close();
  }
}

/** The rows `npm run bench` prints (median over the questions). */
export function renderRows(r: RenderBench): (string | number)[][] {
  // Median of the measured values (a first paint is not measured when the answer came before the frame probe could start).
  const med = (xs: number[]) => {
    const ok = xs.filter(Number.isFinite).sort((a, b) => a - b);
    return ok[Math.floor(ok.length / 2)] ?? NaN;
  };
  const painted = med(r.enter.map((e) => e.paintedMs));
  const first = med(r.enter.map((e) => e.firstPaintMs));
  const worker = med(r.enter.map((e) => e.workerMs));
  const goal = (w: number) => 2 * w + 16.7;
  return [
    ['Enter → first blocks painted (median of ' + r.enter.length + ')', round(first, 0), round(worker, 1), round(med(r.enter.map((e) => e.roundTripMs)), 1), round(goal(worker), 0), first <= goal(worker) ? 'yes' : 'no'],
    ['Enter → every block painted (median of ' + r.enter.length + ')', round(painted, 0), round(worker, 1), round(med(r.enter.map((e) => e.roundTripMs)), 1), round(goal(worker), 0), painted <= goal(worker) ? 'yes' : 'no'],
    [`slider drag, per step (${r.drag.steps} steps, ${r.drag.searches} searches)`, round(r.drag.perStepMs, 1), round(r.drag.workerMeanMs, 1), '', round(goal(r.drag.workerMeanMs), 0), r.drag.perStepMs <= goal(r.drag.workerMeanMs) ? 'yes' : 'no'],
  ];
}

export const RENDER_HEADER = ['sample corpus, top-k 100, windows 10/10', 'painted ms', 'worker ms', 'round trip ms', 'goal ms (2× worker + 1 frame)', 'within goal'];

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { app: { type: 'string' }, against: { type: 'string' }, rounds: { type: 'string' } } });
  const { renderTable } = await import('../../src/cli/table');
  const browser = await launch();
  const log = (s: string) => process.stderr.write(`[render] ${s}\n`);
  try {
    if (values.against) {
      const app = builtApp(values.app, log);
      const both = await renderAgainst(browser, [values.against, app], { log, ...(values.rounds ? { rounds: Number(values.rounds) } : {}) });
      for (const [name, r] of [[`--against ${values.against}`, both[0]], [values.app ? `--app ${values.app}` : 'this checkout', both[1]]] as const) {
        console.log(`Rendering in Chromium ${browser.version()}, ${name} (BM25, ${r.docs} documents; questions and drags alternated with the other build)`);
        console.log(renderTable(RENDER_HEADER, renderRows(r)));
      }
    } else {
      const r = await renderBench(browser, { log, ...(values.app ? { app: values.app } : {}) });
      console.log(`Rendering in Chromium ${browser.version()} (BM25, ${r.docs} documents)`);
      console.log(renderTable(RENDER_HEADER, renderRows(r)));
    }
  } finally {
    await browser.close();
  }
}
