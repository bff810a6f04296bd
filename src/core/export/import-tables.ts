/**
 * Reading a bundle's tables for the import: each file found by the manifest, its size and row
 * count checked against what the manifest declares before anything is allocated, its SHA-256
 * checked (in the background, awaited before the import adopts anything), and the steps timed.
 */
import { BundleError, parquetPath, type Table, type TableName } from './format';
import { sha256, type Manifest, type ManifestFile } from './manifest';
import { openParquet, readParquet } from './parquet';
import { openTable, type ColumnTable } from './read-columns';
import { yieldToEventLoop } from '../util/yield';

/**
 * Times consecutive steps: mark(name) records the ms since the previous mark. With a signal,
 * each mark first lets the event loop run (the steps' awaits resolve without a macrotask, so a
 * worker would not even receive the cancel until the import ended), then stops a cancelled import.
 */
export function timer(signal?: AbortSignal): ((name: string) => Promise<void>) & { all: Record<string, number> } {
  let last = performance.now();
  const all: Record<string, number> = {};
  return Object.assign(
    async (name: string) => {
      const now = performance.now();
      all[name] = (all[name] ?? 0) + now - last;
      if (signal) {
        await yieldToEventLoop();
        signal.throwIfAborted();
      }
      last = performance.now();
    },
    { all },
  );
}

/**
 * A bundle's files by name while they are still being read (a dropped zip: bundle-zip.ts
 * openBundleBlob): each table is decoded as soon as its bytes are there, while the larger
 * ones are still read. A read that fails rejects with a BundleError.
 */
export type BundleReads = ReadonlyMap<string, Promise<Uint8Array>>;
export type Files = BundleReads;

/** The checksum of each bundle file, computed once and started early (Web Crypto hashes off the thread, while tables decode). */
export type Digests = Map<string, Promise<string>>;

export function digestOf(digests: Digests, path: string, bytes: Uint8Array): Promise<string> {
  let d = digests.get(path);
  if (!d) {
    d = sha256(bytes);
    d.catch(() => undefined); // awaited where it is used; a table not used never reports
    digests.set(path, d);
  }
  return d;
}

/**
 * The tables an import read, in the order it opened them, with their checksums still being
 * computed: decoding does not wait for them (SHA-256 of a 100k-sentence bundle's tables takes
 * seconds, and Web Crypto computes it on another thread meanwhile). `verify` awaits them in
 * that order; nothing is added to an engine before it passed. A failure while reading is
 * reported as the checksum fault of a table opened so far when there is one (that is what
 * went wrong, and the message the sequential checks gave), else as itself.
 */
export class Checks {
  private readonly opened: { path: string; bytes: Uint8Array; entry: ManifestFile | undefined }[] = [];
  constructor(readonly digests: Digests) {}

  /** A table was opened (its columns found, its size right): its checksum counts from now on. */
  add(path: string, bytes: Uint8Array, entry: ManifestFile | undefined): void {
    this.opened.push({ path, bytes, entry });
  }

  async verify(): Promise<void> {
    for (const { path, bytes, entry } of this.opened) {
      if (entry && (await digestOf(this.digests, path, bytes)) !== entry.sha256) throw new BundleError(`${path} is corrupt: its checksum differs from the manifest's`);
    }
  }

  /** Runs `read`; a failure becomes the first checksum fault of the tables opened so far, if any (a cancel stays a cancel, at once). */
  async reading<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if ((e as Error | null)?.name === 'AbortError') throw e;
      await this.verify();
      throw e;
    }
  }
}

/** A table's bytes and its manifest entry; a missing file is a BundleError. */
export async function fileOf(files: Files, manifest: Manifest, name: TableName): Promise<{ path: string; bytes: Uint8Array; entry: ManifestFile | undefined }> {
  const path = parquetPath(name);
  const bytes = await files.get(path);
  if (!bytes) throw new BundleError(`the bundle is incomplete: ${path} is missing`);
  return { path, bytes, entry: manifest.files.find((f) => f.name === path) };
}

/** A table's row count against the manifest's, before anything of that length is made. */
export function checkRows(manifest: Manifest, name: TableName, path: string, rows: number): void {
  const declared = manifest.tables[name]?.rows;
  if (declared !== undefined && declared !== rows) throw new BundleError(`${path} is corrupt: it holds ${rows} rows, the manifest says ${declared}`);
}

/** A table's size against the manifest: one BundleError naming the fault. */
export function checkSize(path: string, bytes: Uint8Array, entry: ManifestFile | undefined): void {
  if (entry && bytes.length !== entry.bytes) throw new BundleError(`${path} is ${bytes.length < entry.bytes ? 'truncated' : 'corrupt'} (${bytes.length} of ${entry.bytes} bytes)`);
}

/** Reads a bundle's Parquet table whole, checking presence, shape, columns and size; its checksum joins `checks`. */
export async function table(files: Files, manifest: Manifest, name: TableName, checks: Checks): Promise<Table> {
  const { path, bytes, entry } = await fileOf(files, manifest, name);
  // Opened (metadata and columns) before the size check, as the checks always ran: a truncated file says so either way.
  checkRows(manifest, name, path, openParquet(name, path, bytes, entry?.bytes).rows);
  checkSize(path, bytes, entry);
  checks.add(path, bytes, entry);
  return readParquet(name, path, bytes, entry?.bytes);
}

/** Reads some columns of a large table (read-columns.ts): the same checks in the same order, its data decoded while its checksum is computed. */
export async function columnsOf(files: Files, manifest: Manifest, name: TableName, columns: string[], checks: Checks): Promise<ColumnTable> {
  const { path, bytes, entry } = await fileOf(files, manifest, name);
  const t = openTable(name, path, bytes, entry?.bytes);
  checkRows(manifest, name, path, t.rows);
  checkSize(path, bytes, entry);
  checks.add(path, bytes, entry);
  return t.read(columns);
}

/** A column of a table read from Parquet (readParquet gives plain arrays). */
export const col = <T>(t: Table, name: string) => t.columns[name] as T[];
