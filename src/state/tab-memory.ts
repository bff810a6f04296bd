/**
 * What this browser says about its memory, read in the page (Chromium's performance.memory is
 * not exposed in workers) and handed to the lab worker, which sets its load budget from it
 * (core/memory/load-estimate.ts tabBudget). Firefox and Safari say nothing: the worker assumes
 * a default and the refusal says so.
 */
import type { TabMemory } from '../core/memory/load-estimate';

export function tabMemory(hash: string = location.hash): TabMemory {
  const nav = navigator as Navigator & { deviceMemory?: unknown };
  const perf = performance as Performance & { memory?: { jsHeapSizeLimit?: unknown } };
  const heap = perf.memory?.jsHeapSizeLimit;
  return {
    deviceMemoryGiB: typeof nav.deviceMemory === 'number' && nav.deviceMemory > 0 ? nav.deviceMemory : null,
    jsHeapSizeLimit: typeof heap === 'number' && heap > 0 ? heap : null,
    overrideBytes: budgetOverride(hash),
  };
}

/**
 * A budget set on purpose in the address's hash, `#budget=2.5GB` or `#budget=300MB` (tests;
 * a user on a big machine who wants to try): only from the hash of the page as opened, so no
 * stored state or shared query string sets it by accident.
 */
export function budgetOverride(hash: string): number | null {
  const m = /^#budget=(\d+(?:\.\d+)?)(MB|GB)$/i.exec(hash);
  if (!m) return null;
  const bytes = Number(m[1]) * (m[2]!.toUpperCase() === 'GB' ? 1e9 : 1e6);
  return bytes > 0 ? bytes : null;
}
