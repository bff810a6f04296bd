/** Node side of bundles: a bundle is a folder; the core only sees {name, bytes} lists. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { BundleFile } from '../core/export/format';

/** Writes a bundle's files under `dir` (created if needed; files of the same name are replaced). */
export function writeBundleDir(dir: string, files: BundleFile[]): void {
  for (const f of files) {
    const path = join(dir, ...f.name.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.bytes);
  }
}

/** Reads every file under `dir` as a bundle file list (paths with '/'). */
export function readBundleDir(dir: string): BundleFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: no such folder`);
  const out: BundleFile[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push({ name: relative(dir, p).split(sep).join('/'), bytes: new Uint8Array(readFileSync(p)) });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Total bytes of a bundle's files, optionally only those under a prefix. */
export function bundleBytes(files: BundleFile[], prefix = ''): number {
  return files.filter((f) => f.name.startsWith(prefix)).reduce((n, f) => n + f.bytes.length, 0);
}
