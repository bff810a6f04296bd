import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium';

/** End-to-end tests run the built app in Debian's Chromium (see e2e/chromium.ts). */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  // Starts making the 100k-sentence bundle of large-corpus.spec.ts in the background (see that file).
  globalSetup: './e2e/large-corpus.setup.ts',
  use: {
    baseURL: 'http://127.0.0.1:4173',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: 'RAG_LAB_TEST_MODELS=1 npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173',
    // An orphaned server on the port would be silently reused and test stale code.
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
