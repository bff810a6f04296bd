/**
 * The 100k-sentence bundle of e2e/large-corpus.spec.ts, made once per code and model and kept
 * under node_modules/.cache/rag-lab-e2e (a clean CI checkout makes it anew).
 *
 * Making it takes Node a minute or two of CPU (splitting 100k sentences, BM25 postings of four
 * unit kinds): scripts/bench/browser-import.ts --make, lean (only what an import reads), for the
 * generated test model the e2e app serves. As Playwright's globalSetup it starts in the
 * background at low priority (nice) while the specs before it run, so on two cores it mostly
 * fills idle time; the spec waits for it, or makes it itself when nothing is making it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_SENTENCES = 100_000;
const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const CACHE = join(ROOT, 'node_modules/.cache/rag-lab-e2e');
const SPEC = 'large-corpus';

/** What the bundle is made from: the retrieval core, the zip writer, the bench that makes it, the test model, the SQuAD text. */
function sources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [join(dir, e.name)] : []));
  const model = join(ROOT, 'public/models/rag-lab/test-embedder');
  return [
    ...walk(join(ROOT, 'src/core')),
    join(ROOT, 'src/worker/bundle-zip.ts'),
    join(ROOT, 'scripts/bench/browser-import.ts'),
    join(ROOT, 'scripts/bench/common.ts'),
    ...['config.json', 'tokenizer.json', 'tokenizer_config.json'].map((f) => join(model, f)).filter(existsSync),
  ].sort();
}

/**
 * The cached bundle's path: its name carries a hash of everything it is made from.
 * RAG_LAB_E2E_BUNDLE names another one, made with --make … --lean --model test (its .json beside it):
 * for working on the spec while the core changes under it.
 */
export function bundlePath(): string {
  if (process.env.RAG_LAB_E2E_BUNDLE) return resolve(process.env.RAG_LAB_E2E_BUNDLE);
  const h = createHash('sha256');
  for (const f of sources()) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  // The SQuAD file (../shared, large): its size and date stand for its content.
  const squad = resolve(ROOT, '../shared/data/squad_en/squad-dev-v1.1.from-explorer.json');
  if (existsSync(squad)) h.update(`${statSync(squad).size}:${statSync(squad).mtimeMs}`);
  return join(CACHE, `${SPEC}-${CORPUS_SENTENCES}-${h.digest('hex').slice(0, 16)}.zip`);
}

/** Written last by --make: the bundle is complete when it is there. */
export const infoPath = (zip: string) => `${zip}.json`;
const pidPath = (zip: string) => `${zip}.pid`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts making the bundle (nothing when it is there or being made); the child, or null. */
export function startMaking(zip: string, opts: { nice?: boolean } = {}): ChildProcess | null {
  if (existsSync(infoPath(zip))) return null;
  if (existsSync(pidPath(zip)) && alive(Number(readFileSync(pidPath(zip), 'utf8')))) return null;
  mkdirSync(CACHE, { recursive: true });
  // Bundles made for other code are of no more use.
  for (const f of readdirSync(CACHE)) if (f.startsWith(`${SPEC}-`) && !f.startsWith(zip.slice(CACHE.length + 1))) rmSync(join(CACHE, f), { force: true });
  const args = ['--max-old-space-size=6144', '--import', 'tsx', 'scripts/bench/browser-import.ts', '--make', String(CORPUS_SENTENCES), '--lean', '--model', 'test', '--out', zip];
  const child = opts.nice ? spawn('nice', ['-n', '15', process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] }) : spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => void (err = (err + d.toString()).slice(-4000)));
  child.on('exit', (code) => {
    rmSync(pidPath(zip), { force: true });
    if (code) writeFileSync(`${zip}.failed`, err);
  });
  writeFileSync(pidPath(zip), String(child.pid));
  return child;
}

/** Waits for the bundle (making it when nobody is); its --make summary. */
export async function waitForBundle(zip: string, timeoutMs: number): Promise<{ sentences: number; documents: number; zipBytes: number; makeMs: number; phasesMs: Record<string, number> }> {
  const t = Date.now();
  rmSync(`${zip}.failed`, { force: true });
  while (!existsSync(infoPath(zip))) {
    if (existsSync(`${zip}.failed`)) throw new Error(`making the 100k bundle failed: ${readFileSync(`${zip}.failed`, 'utf8')}`);
    if (Date.now() - t > timeoutMs) throw new Error(`the 100k bundle was not made within ${timeoutMs / 1000} s`);
    startMaking(zip);
    await new Promise((r) => setTimeout(r, 500));
  }
  return JSON.parse(readFileSync(infoPath(zip), 'utf8'));
}

/**
 * globalSetup: starts making the bundle in the background when this run may include the spec
 * (no file filters on the command line, or one that names it); the teardown stops a make still
 * running (the spec was skipped or failed early).
 */
export default function globalSetup(): (() => void) | undefined {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'test' && !/playwright/.test(a));
  if (filters.length && !filters.some((f) => SPEC.includes(f) || f.includes(SPEC))) return undefined;
  const child = startMaking(bundlePath(), { nice: true });
  return () => {
    if (child && child.exitCode === null) child.kill();
  };
}
