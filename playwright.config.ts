import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests run the built app in Debian's Chromium (Playwright cannot download
 * browsers here). Flags keep Chromium from calling home on a machine with no network.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
      ],
    },
  },
  webServer: {
    command: 'RAG_LAB_TEST_MODELS=1 npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173',
    // An orphaned server on the port would be silently reused and test stale code.
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
