import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files, slowest first (one worker, this 2-core machine, issue 42): started first, they
 * do not leave one worker finishing a long file while the other is idle. Committed because CI has
 * no vitest cache, where BaseSequencer would order by file size. Refresh from
 * `npx vitest run --reporter=json --outputFile=…` (endTime − startTime per file) when it drifts.
 */
const SLOWEST_FIRST = [
  'src/core/export/export.test.ts',
  'src/cli/cli.test.ts',
  'src/cli/compiled-cli.test.ts',
  'src/core/fuzz/fuzz.test.ts',
  'src/core/export/contexts.test.ts',
  'src/core/index/bit-scan-index.test.ts',
  'src/cli/hostile-cli.test.ts',
  'src/core/engine.test.ts',
  'src/core/documents/hostile-text.test.ts',
  'src/worker/persistence.test.ts',
  'src/cli/export-commands.test.ts',
  'src/cli/contextual-cli.test.ts',
  'src/cli/late-chunking-cli.test.ts',
  'src/cli/answers-cli.test.ts',
  'src/core/embed/presets.test.ts',
  'src/cli/embedder-cli.test.ts',
  'src/cli/questions-cli.test.ts',
];

/** SLOWEST_FIRST first, then the rest in vitest's own order (its cache's durations, else file size). */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((path) => f.moduleId.endsWith(`/${path}`));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    const ordered = await super.sort(files);
    return ordered.map((f, i) => ({ f, i, r: rank(f) })).sort((a, b) => a.r - b.r || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // The CLI bundle the child-process tests run (src/cli/cli-runner.ts).
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    // Many tests wait on child processes (the CLI) or PGlite: two files at a time overlap that
    // waiting even on two cores (6.2 → 4.6 min there), where the default would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowestFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
