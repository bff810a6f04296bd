import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium';
import { E2E_DIST, E2E_PORT, ORIGIN } from './e2e/origin';

/** End-to-end tests run the built app in Debian's Chromium (see e2e/chromium.ts). */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  fullyParallel: false,
  // Two spec files at a time: much of a spec is waiting on the page, not computing, so two overlap
  // even on two cores (the whole suite 20.0 → 16.3 min on the 2-core build machine). The tests
  // of one file still run in order, in one worker.
  workers: 2,
  reporter: [['list']],
  // Starts making the 100k-sentence bundle of large-corpus.spec.ts in the background (see that file).
  globalSetup: './e2e/large-corpus.setup.ts',
  use: {
    baseURL: ORIGIN,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `RAG_LAB_TEST_MODELS=1 npx vite build --logLevel warn --outDir ${E2E_DIST} && npx vite preview --outDir ${E2E_DIST} --host 127.0.0.1 --port ${E2E_PORT} --strictPort`,
    url: ORIGIN,
    // An orphaned server on the port would be silently reused and test stale code.
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
