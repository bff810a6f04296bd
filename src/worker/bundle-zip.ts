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
import { unzipSync, Zip, ZipDeflate, ZipPassThrough, type UnzipFileInfo } from 'fflate';
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
export function unzipBundle(zip: Uint8Array, options: { skip?: readonly string[] } = {}): BundleFile[] {
  let root: string | null = null;
  const skip = options.skip ?? [];
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
      filter: (info) => info.name.startsWith(base) && !info.name.endsWith('/') && !skip.some((p) => info.name.slice(base.length).startsWith(p)),
    });
  } catch (e) {
    throw new BundleError(`the zip cannot be read: ${zipProblem(e)}`);
  }
  if (root === null) throw new BundleError('not a RAG Context Lab bundle: the zip holds no manifest.json');
  const base: string = root;
  return Object.entries(entries).map(([name, bytes]) => ({ name: name.slice(base.length), bytes }));
}
