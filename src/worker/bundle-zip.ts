/**
 * A bundle as one .zip (fflate): written by the lab worker for the page's download, read by
 * the lab worker (import) and the Postgres worker (verify). Runs in workers and in Node.
 *
 * Parquet files are STORED: they are compressed inside already (deflating them gains a few
 * per cent), and stored entries come out of the zip as plain copies, so an import reads them
 * at once. Text files (JSONL, SQL, JSON, code) are DEFLATED at level 1: it halves the download
 * (a 10k-sentence bundle: 194 MB of files → 97 MB zip, 5.8 s in Node; level 6 gains 3 % more for
 * 60 % more time). No ZIP64: each file and the whole zip must stay under 4 GB (65,535 files).
 */
import { inflateSync, unzipSync, Zip, ZipDeflate, ZipPassThrough, type UnzipFileInfo } from 'fflate';
import { BundleError, type BundleFile } from '../core/export/format';

/** Bytes pushed into the zip between two pauses (progress, and searches waiting in the worker). */
const SLICE = 4 << 20;

const yieldToEvents = () => new Promise<void>((r) => setTimeout(r, 0));

/** Whether a bundle file is kept as it is in the zip (already compressed). */
export const storedInZip = (name: string) => name.endsWith('.parquet');

/**
 * Zips a bundle's files. `onProgress` gets bytes of files read so far; the zip is returned as
 * a Blob made of fflate's output chunks (never copied into one large buffer).
 */
export async function zipBundle(files: BundleFile[], onProgress?: (done: number, total: number) => void): Promise<Blob> {
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let failure: Error | null = null;
  let ended = false;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else chunks.push(chunk as Uint8Array<ArrayBuffer>);
    if (final) ended = true;
  });
  let done = 0;
  for (const f of files) {
    const entry = storedInZip(f.name) ? new ZipPassThrough(f.name) : new ZipDeflate(f.name, { level: 1 });
    zip.add(entry);
    if (!f.bytes.length) entry.push(f.bytes, true);
    for (let at = 0; at < f.bytes.length; at += SLICE) {
      const end = Math.min(f.bytes.length, at + SLICE);
      entry.push(f.bytes.subarray(at, end), end === f.bytes.length);
      done += end - at;
      onProgress?.(done, total);
      await yieldToEvents();
      if (failure) throw failure;
    }
  }
  zip.end();
  if (failure) throw failure;
  if (!ended) throw new Error('the zip was not finished');
  return new Blob(chunks, { type: 'application/zip' });
}

/**
 * Limits on what a zip may inflate to, checked on each entry's declared sizes before it is
 * inflated (a 322 KB zip whose table inflated to 300 MB raised the tab's memory by 300 MB
 * before anything looked). The lab's own zips store Parquet (1:1) and deflate text at level 1
 * (2–10:1); deflate itself cannot exceed ~1032:1, which only a crafted file comes near.
 */
export interface ZipLimits {
  /** Largest inflated size of one entry, in bytes (default 4 GiB − 1, the most a zip without ZIP64 can say). */
  maxEntryBytes: number;
  /** Largest inflated size of all entries read, in bytes (default 8 GiB). */
  maxTotalBytes: number;
  /** Largest inflated / compressed ratio of an entry above `ratioFloor` bytes (default 200). */
  maxRatio: number;
  /** Entries up to this inflated size are not held to the ratio (default 1 MiB: small JSON compresses well). */
  ratioFloor: number;
}

export const ZIP_LIMITS: ZipLimits = { maxEntryBytes: 2 ** 32 - 1, maxTotalBytes: 8 * 2 ** 30, maxRatio: 200, ratioFloor: 2 ** 20 };

const mb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} KB`);

/** Why an entry is not inflated, or null: its declared sizes against the limits. */
export function entryLimitProblem(name: string, compressed: number, size: number, limits: ZipLimits = ZIP_LIMITS): string | null {
  if (size > limits.maxEntryBytes) return `${name} would inflate to ${mb(size)}, above the limit of ${mb(limits.maxEntryBytes)} per file`;
  if (size > limits.ratioFloor && size > limits.maxRatio * Math.max(1, compressed)) {
    return `${name} would inflate from ${mb(compressed)} to ${mb(size)} (${Math.round(size / Math.max(1, compressed))}:1), above the limit of ${limits.maxRatio}:1 for files over ${mb(limits.ratioFloor)}: not a bundle the lab wrote`;
  }
  return null;
}

/** Why the entries together are not inflated, or null. */
function totalProblem(total: number, limits: ZipLimits): string | null {
  return total > limits.maxTotalBytes ? `its files would inflate to ${mb(total)}, above the limit of ${mb(limits.maxTotalBytes)}` : null;
}

/** fflate's error codes for archives it cannot read (truncated, not a zip, bad entries). */
function zipProblem(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return /unexpected EOF/i.test(message) ? 'it is truncated' : `it is corrupt or not a zip file (${message})`;
}

/**
 * The bundle inside a zip: every file under the folder that holds manifest.json (a zip of the
 * bundle folder itself works too), except those `skip` names by prefix. A zip without
 * manifest.json is no bundle; an unreadable zip is one message.
 */
export function unzipBundle(zip: Uint8Array, options: { skip?: readonly string[]; include?: (name: string) => boolean; limits?: Partial<ZipLimits> } = {}): BundleFile[] {
  let root: string | null = null;
  const skip = options.skip ?? [];
  const limits = { ...ZIP_LIMITS, ...options.limits };
  let problem: string | null = null;
  let total = 0;
  const keep = (info: UnzipFileInfo) => {
    if (info.name.endsWith('/')) return false;
    if (info.name === 'manifest.json' || info.name.endsWith('/manifest.json')) {
      const dir = info.name.slice(0, -'manifest.json'.length);
      // The shallowest manifest wins: a bundle may itself carry others deeper down.
      if (root === null || dir.length < root.length) root = dir;
    }
    return true;
  };
  let entries: Record<string, Uint8Array>;
  try {
    // The filter sees every name before anything is inflated: the root is known first, then the rest is read.
    unzipSync(zip, { filter: (info) => (keep(info), false) });
    const base: string = root ?? '';
    entries = unzipSync(zip, {
      filter: (info) => {
        if (problem || !info.name.startsWith(base) || info.name.endsWith('/') || skip.some((p) => info.name.slice(base.length).startsWith(p))) return false;
        if (options.include && !options.include(info.name.slice(base.length))) return false;
        // Checked on the declared sizes, before fflate allocates and inflates the entry.
        total += info.originalSize;
        problem = entryLimitProblem(info.name, info.size, info.originalSize, limits) ?? totalProblem(total, limits);
        return !problem;
      },
    });
  } catch (e) {
    throw new BundleError(`the zip cannot be read: ${zipProblem(e)}`);
  }
  if (problem) throw new BundleError(`the zip is refused: ${problem}`);
  if (root === null) throw new BundleError('not a RAG Context Lab bundle: the zip holds no manifest.json');
  const base: string = root;
  return Object.entries(entries).map(([name, bytes]) => ({ name: name.slice(base.length), bytes }));
}

/** One entry of a zip's central directory. */
interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The most bytes read from a Blob at once. Chromium refuses Blob.arrayBuffer() above 2 GiB
 * (NotReadableError, measured: a 2.0 GB slice reads in 4 s, 2.2 GB fails at once) although an
 * ArrayBuffer of 3 GB can be made; a 1M-sentence bundle's vectors.parquet is ~2.9 GB at 384 dims.
 */
const BLOB_PIECE = 1 << 30;

/** Bytes [start, end) of a Blob, read in pieces of at most `piece` bytes into one buffer when larger. */
export async function readBlobBytes(blob: Blob, start: number, end: number, piece = BLOB_PIECE): Promise<Uint8Array> {
  if (start < 0 || end > blob.size || end < start) throw new Error('unexpected EOF');
  if (end - start <= piece) return new Uint8Array(await blob.slice(start, end).arrayBuffer());
  const out = new Uint8Array(end - start);
  for (let at = start; at < end; at += piece) out.set(new Uint8Array(await blob.slice(at, Math.min(end, at + piece)).arrayBuffer()), at - start);
  return out;
}

const sliceBytes = (blob: Blob, start: number, end: number) => readBlobBytes(blob, start, end);

/** The central directory of a zip held in a Blob (no ZIP64: the lab writes none). */
async function centralDirectory(blob: Blob): Promise<ZipEntry[]> {
  // The end record is the last 22 bytes, or further back behind a comment of up to 65,535.
  const tailStart = Math.max(0, blob.size - 22 - 0xffff);
  const tail = await sliceBytes(blob, tailStart, blob.size);
  const tv = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new Error(blob.size < 22 ? 'unexpected EOF' : 'invalid zip data');
  const count = tv.getUint16(at + 10, true);
  const cdSize = tv.getUint32(at + 12, true);
  const cdOffset = tv.getUint32(at + 16, true);
  if (cdOffset + cdSize > tailStart + at) throw new Error('unexpected EOF');
  const cd = await sliceBytes(blob, cdOffset, cdOffset + cdSize);
  const v = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const names = new TextDecoder();
  const out: ZipEntry[] = [];
  for (let p = 0, i = 0; i < count; i++) {
    if (p + 46 > cd.length || v.getUint32(p, true) !== CENTRAL) throw new Error('invalid zip data');
    const nameLength = v.getUint16(p + 28, true);
    out.push({
      method: v.getUint16(p + 10, true),
      compressedSize: v.getUint32(p + 20, true),
      size: v.getUint32(p + 24, true),
      localOffset: v.getUint32(p + 42, true),
      name: names.decode(cd.subarray(p + 46, p + 46 + nameLength)),
    });
    p += 46 + nameLength + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return out;
}

async function entryBytes(blob: Blob, e: ZipEntry): Promise<Uint8Array> {
  const head = await sliceBytes(blob, e.localOffset, e.localOffset + 30);
  const hv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (hv.getUint32(0, true) !== LOCAL) throw new Error('invalid zip data');
  const start = e.localOffset + 30 + hv.getUint16(26, true) + hv.getUint16(28, true);
  const data = await sliceBytes(blob, start, start + e.compressedSize);
  if (e.method === 0) return data;
  if (e.method === 8) {
    const out = inflateSync(data, { out: new Uint8Array(e.size) });
    if (out.length !== e.size) throw new Error(`${e.name} inflates to ${out.length} bytes, its directory says ${e.size}`);
    return out;
  }
  throw new Error(`unknown compression method ${e.method}`);
}

/**
 * unzipBundle for a zip the page hands over as a File: only the central directory and the
 * entries kept are read from it (Blob slices). A dropped 100k-sentence bundle is ~930 MB,
 * mostly JSONL and SQL an import skips; reading the whole file into memory first took the
 * page 5 s of the import. Same files, same refusals as unzipBundle.
 */
export async function unzipBundleBlob(blob: Blob, options: { skip?: readonly string[]; limits?: Partial<ZipLimits> } = {}): Promise<BundleFile[]> {
  const reads = await openBundleBlob(blob, options);
  return Promise.all([...reads].map(async ([name, bytes]) => ({ name, bytes: await bytes })));
}

/**
 * The entries unzipBundleBlob keeps, each being read: all reads start at once and each is
 * awaited where it is used, so an import decodes the small tables while the vectors are still
 * read from the file. A zip whose directory cannot be read, or without manifest.json, is
 * refused here; an entry that cannot be read rejects with the same refusal when awaited.
 */
export async function openBundleBlob(blob: Blob, options: { skip?: readonly string[]; limits?: Partial<ZipLimits> } = {}): Promise<Map<string, Promise<Uint8Array>>> {
  const skip = options.skip ?? [];
  const limits = { ...ZIP_LIMITS, ...options.limits };
  let entries: ZipEntry[];
  try {
    entries = await centralDirectory(blob);
  } catch (e) {
    throw new BundleError(`the zip cannot be read: ${zipProblem(e)}`);
  }
  let root: string | null = null;
  for (const e of entries) {
    if (e.name === 'manifest.json' || e.name.endsWith('/manifest.json')) {
      const dir = e.name.slice(0, -'manifest.json'.length);
      // The shallowest manifest wins: a bundle may itself carry others deeper down.
      if (root === null || dir.length < root.length) root = dir;
    }
  }
  if (root === null) throw new BundleError('not a RAG Context Lab bundle: the zip holds no manifest.json');
  const base: string = root;
  const wanted = entries.filter((e) => e.name.startsWith(base) && !e.name.endsWith('/') && !skip.some((p) => e.name.slice(base.length).startsWith(p)));
  // Every entry kept is checked before any is read: the reads start at once, below.
  let total = 0;
  for (const e of wanted) {
    total += e.size;
    const problem = entryLimitProblem(e.name, e.compressedSize, e.size, limits) ?? totalProblem(total, limits);
    if (problem) throw new BundleError(`the zip is refused: ${problem}`);
  }
  return new Map(
    wanted.map((e) => {
      const bytes = entryBytes(blob, e).catch((err: unknown) => {
        throw new BundleError(`the zip cannot be read: ${zipProblem(err)}`);
      });
      bytes.catch(() => undefined); // awaited where it is used; an entry not used never reports
      return [e.name.slice(base.length), bytes] as const;
    }),
  );
}
