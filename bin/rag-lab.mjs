#!/usr/bin/env node
// The published command runs the CLI bundle that `npm install`/`npm ci` build (scripts/build-cli.mjs →
// dist-cli/): it starts in a fraction of a second. A checkout that was never installed has none, and
// runs the TypeScript sources through tsx instead, as `npm run cli` does.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const built = join(here, '..', 'dist-cli', 'main.js');
if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const r = spawnSync(process.execPath, [tsx, join(here, '..', 'src', 'cli', 'main.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
