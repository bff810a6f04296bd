/**
 * Debian's Chromium as the tests and benchmarks launch it (Playwright cannot download
 * browsers here). The flags keep it from calling home on a machine with no network.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

/**
 * Launch options of the runs that measure memory: ForceEagerMeasureMemory makes
 * measureUserAgentSpecificMemory answer at once instead of after the next full GC (up to 20 s),
 * and marks these renderers for rendererRss (scripts/bench/browser-import.ts).
 */
export const MEASURED_MEMORY_LAUNCH = { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--enable-blink-features=ForceEagerMeasureMemory'] };
