/**
 * Bundles the command line for Node (`npx rag-lab`, bin/rag-lab.mjs): src/cli/main.ts and what it
 * imports, as ES modules split at every dynamic import, so a command loads only its own modules and
 * the packages they use (transformers.js, PGlite, pdf.js and tesseract.js only when a command needs
 * them). Packages stay external: node_modules is read as it is. Run by `npm install`/`npm ci`
 * (the `prepare` script); `npm run cli` runs the TypeScript sources through tsx instead.
 * Output: dist-cli/ (git-ignored).
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist-cli');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outdir,
  // Readable stack traces with --debug.
  sourcemap: 'linked',
  logLevel: 'warning',
});
