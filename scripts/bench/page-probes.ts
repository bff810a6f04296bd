/**
 * What the import bench and the 100k e2e read from a page: the marks a page script keeps
 * (drop → imported → first result), Chromium's renderer memory, and the page's measured
 * memory by context.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** Times drop → imported and drop → first result, in the page (window.__importMarks: Marks; also used by e2e/corpus-100k.spec.ts). */
export const PAGE_PROBE = `(() => {
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

export interface Marks {
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

/**
 * The largest Chromium renderer's resident memory now and at its peak, MB (Linux /proc; null
 * elsewhere): the page's renderer holds the page and its dedicated workers with their heaps,
 * array buffers and wasm. Only renderers launched with MEASURED_MEMORY_LAUNCH (e2e/chromium.ts)
 * (browser-bench's launch, browser-import's --persistent profile, the e2e spec) count; Chromium runs only under the e2e lock here.
 */
export function rendererRss(): { rss: number; peak: number } | null {
  let best: { rss: number; peak: number } | null = null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer') || !cmd.includes('ForceEagerMeasureMemory')) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      if (!best || kb('VmRSS') / 1024 > best.rss) best = { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
    } catch {
      // a process that ended meanwhile
    }
  }
  return best;
}

/** measureUserAgentSpecificMemory in the page (cross-origin isolated): the page's and its workers' JS memory, bytes by scope/type; null when unavailable. */
export async function measuredMemory(page: Page): Promise<{ bytes: number; by: Record<string, number> } | null> {
  return page.evaluate(async () => {
    const p = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number; breakdown: { bytes: number; types: string[]; attribution: { scope: string }[] }[] }> };
    if (!crossOriginIsolated || !p.measureUserAgentSpecificMemory) return null;
    const r = await p.measureUserAgentSpecificMemory();
    const by: Record<string, number> = {};
    for (const b of r.breakdown) {
      const key = `${b.attribution.map((a) => a.scope).join('+') || 'shared'}/${b.types.join('+') || '?'}`;
      by[key] = (by[key] ?? 0) + b.bytes;
    }
    return { bytes: r.bytes, by };
  });
}

/**
 * ms until the results line shows a new answer after `act` (null: not within `timeoutMs`).
 * Watched in the page each frame by class: Playwright's role and text locators walk the whole
 * DOM, which after a big import (thousands of documents listed) costs the page seconds.
 */
