import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The CLI bundle the child-process tests run (src/cli/cli-runner.ts).
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    // Many tests wait on child processes (the CLI) or PGlite: two files at a time overlap that
    // waiting even on two cores (6.2 → 4.6 min there), where the default would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
