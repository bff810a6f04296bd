/**
 * Finds files of the checkout that name an absolute path of this machine (the checkout's
 * own folder, or the shared folder beside it). Such a path works only where it was written:
 * a fresh clone elsewhere (CI, a new user) would read another checkout or nothing.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** Lock files name registry URLs and package paths, never ours; they are skipped. */
const SKIPPED = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml)$/;
/** Folders a walk skips when the checkout is not a git repository (what .gitignore lists). */
const IGNORED_DIRS = new Set(['node_modules', '.git', 'dist', 'test-results', 'playwright-report', '.cache']);

/** The files git would commit: tracked ones and new ones that .gitignore does not exclude. */
export function checkoutFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split('\0').filter(Boolean);
  } catch {
    // Not a git checkout (an unpacked archive): walk the tree instead.
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (!IGNORED_DIRS.has(e.name)) walk(join(dir, e.name));
        } else if (e.isFile()) files.push(relative(root, join(dir, e.name)));
      }
    };
    walk(root);
    return files;
  }
}

export interface PathHit {
  file: string;
  line: number;
  path: string;
}

/** Every line of `files` (relative to root) that contains one of `paths`. */
export function findAbsolutePaths(root: string, files: string[], paths: string[]): PathHit[] {
  const hits: PathHit[] = [];
  for (const file of files) {
    if (SKIPPED.test(file)) continue;
    const full = join(root, file);
    let text: string;
    try {
      if (!statSync(full).isFile()) continue;
      const bytes = readFileSync(full);
      if (bytes.includes(0)) continue; // binary
      text = bytes.toString('utf8');
    } catch {
      continue; // deleted but still listed by git: nothing to check
    }
    const lines = text.split('\n');
    lines.forEach((l, i) => {
      for (const p of paths) if (l.includes(p)) hits.push({ file, line: i + 1, path: p });
    });
  }
  return hits;
}

/** The machine-specific folders no file may name: the checkout and the shared folder beside it. */
export function machinePaths(root: string): string[] {
  return [resolve(root), resolve(root, '../shared')];
}
