/**
 * Where an answer's first paint goes, from Chromium's own trace (render-bench.ts times the same
 * thing from the page, where a probe's frames also count tasks queued after the paint): per
 * question, on the page's main thread, from the Enter keydown to the answer's message, that
 * message's handling (structured clone + React), the end of the next Paint, and the layout in
 * between. The app as render-bench opens it: sample corpus, BM25, top-k 100, windows 10/10.
 *
 * npx tsx scripts/bench/render-trace.ts [--app DIR]... [--rounds N]
 * Several --app: measured in turns, a fresh tab each round, medians per app.
 */
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import { launch } from './browser-bench';
import { round } from './common';
import { builtApp, openApp, QUESTIONS } from './render-bench';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
}

export interface FirstPaint {
  /** ms from the Enter keydown. */
  answerAt: number;
  handleMs: number;
  paintedAt: number;
  layoutMs: number;
}

/** The first paints of the answers in a trace: one per Enter whose answer (a message handled for over 8 ms) came. */
export function firstPaints(events: readonly TraceEvent[]): FirstPaint[] {
  const threads = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  // The page's main thread: the renderer main thread with the most slices.
  const counts = new Map<string, number>();
  for (const e of events) if (e.ph === 'X' && threads.get(`${e.pid}:${e.tid}`) === 'CrRendererMain') counts.set(`${e.pid}:${e.tid}`, (counts.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const xs = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const out: FirstPaint[] = [];
  for (const key of xs.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')) {
    const answer = xs.find((e) => e.name === 'HandlePostMessage' && e.ts > key.ts && e.dur! > 8000);
    const paint = answer && xs.find((e) => e.name === 'Paint' && e.ts > answer.ts);
    if (!answer || !paint) continue;
    const end = paint.ts + paint.dur!;
    const layout = xs.filter((e) => e.name === 'Layout' && e.ts > answer.ts && e.ts < end).reduce((a, e) => a + e.dur!, 0);
    out.push({ answerAt: (answer.ts - key.ts) / 1000, handleMs: answer.dur! / 1000, paintedAt: (end - key.ts) / 1000, layoutMs: layout / 1000 });
  }
  return out;
}

/** Asks the questions in a fresh tab of `app` while Chromium traces, and reads each answer's first paint. */
async function traceApp(browser: Browser, app: string, log: (s: string) => void): Promise<FirstPaint[]> {
  const { page, close } = await openApp(browser, app, log);
  try {
    const box = page.getByRole('searchbox', { name: 'Question' });
    // One answer first, so the trace holds no first-time costs (fonts, code).
    await box.fill('warm up');
    await box.press('Enter');
    await page.waitForTimeout(1500);
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    for (const q of QUESTIONS) {
      await box.fill(q);
      await page.waitForTimeout(300);
      await box.press('Enter');
      await page.waitForTimeout(1500);
    }
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    return firstPaints(trace.traceEvents);
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { app: { type: 'string', multiple: true }, rounds: { type: 'string' } } });
  const { renderTable } = await import('../../src/cli/table');
  const log = (s: string) => process.stderr.write(`[trace] ${s}\n`);
  const apps = values.app?.length ? values.app : [builtApp(undefined, log)];
  const browser = await launch();
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  try {
    const all = apps.map(() => [] as FirstPaint[]);
    for (let r = 0; r < Number(values.rounds ?? 2); r++) for (const [i, app] of apps.entries()) all[i]!.push(...(await traceApp(browser, app, log)));
    const rows = apps.map((app, i) => {
      const ps = all[i]!;
      return [app, ps.length, round(med(ps.map((p) => p.answerAt)), 0), round(med(ps.map((p) => p.handleMs)), 0), round(med(ps.map((p) => p.paintedAt)), 0), round(med(ps.map((p) => p.layoutMs)), 0)];
    });
    console.log(`First paint of an answer in Chromium ${browser.version()}'s trace (main thread, medians)`);
    console.log(renderTable(['app', 'answers', 'answer at ms', 'message + React ms', 'first paint ends ms', 'its layout ms'], rows));
  } finally {
    await browser.close();
  }
}
