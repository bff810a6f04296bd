import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The CLI bundle the child-process tests run (src/cli/cli-runner.ts).
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
