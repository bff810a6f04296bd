/** Node side of bundles: a bundle is a folder; the core only sees {name, bytes} lists. */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { BundleFile } from '../core/export/format';
import { unzipBundle } from '../worker/bundle-zip';

/** Writes a bundle's files under `dir` (created if needed; files of the same name are replaced). */
export function writeBundleDir(dir: string, files: BundleFile[]): void {
  for (const f of files) {
    const path = join(dir, ...f.name.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.bytes);
  }
}

/** A whole file, read in pieces: readFileSync refuses files over 2 GiB, a Uint8Array holds up to 4 GiB. */
function readWhole(path: string, size: number): Uint8Array {
  const out = new Uint8Array(size);
  const fd = openSync(path, 'r');
  try {
    for (let at = 0; at < size; ) {
      const n = readSync(fd, out, at, Math.min(size - at, 1 << 30), at);
      if (n === 0) throw new Error(`${path}: ended after ${at} of ${size} bytes`);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/**
 * Reads the files under `dir` as a bundle file list (paths with '/'), those `include`
 * accepts (all by default): an import reads the Parquet tables, a verify the SQL, and
 * neither needs the other's hundreds of MB.
 */
export function readBundleDir(dir: string, include: (name: string) => boolean = () => true): BundleFile[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: no such folder`);
  const out: BundleFile[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const name = relative(dir, p).split(sep).join('/');
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && include(name)) out.push({ name, bytes: readWhole(p, statSync(p).size) });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A bundle given on the command line: its folder, or the .zip the page downloads (read with
 * the page's own reader and its limits on what an entry may inflate to).
 */
export function readBundle(path: string, include: (name: string) => boolean = () => true): BundleFile[] {
  if (existsSync(path) && statSync(path).isFile()) {
    const zip = readWhole(path, statSync(path).size);
    return unzipBundle(zip, { include }).sort((a, b) => a.name.localeCompare(b.name));
  }
  if (!existsSync(path)) throw new Error(`${path}: no such file or folder`);
  return readBundleDir(path, include);
}

/** Total bytes of a bundle's files, optionally only those under a prefix. */
export function bundleBytes(files: BundleFile[], prefix = ''): number {
  return files.filter((f) => f.name.startsWith(prefix)).reduce((n, f) => n + f.bytes.length, 0);
}
