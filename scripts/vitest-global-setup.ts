/**
 * Vitest's global setup: the CLI bundle built once from the current sources (scripts/build-cli.mjs),
 * so the tests that run the CLI as a child process start it in a fraction of a second instead of
 * compiling the TypeScript with tsx for every run (src/cli/cli-runner.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/node/paths';

export default function setup(): void {
  const r = spawnSync(process.execPath, [join(PROJECT_ROOT, 'scripts', 'build-cli.mjs')], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the CLI bundle could not be built: ${r.stderr}`);
}
