import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BundleError, type BundleFile } from '../core/export/format';
import { openBundleBlob, readBlobBytes, unzipBundle, unzipBundleBlob, zipBundle } from './bundle-zip';

const enc = new TextEncoder();
const text = (s: string) => enc.encode(s);
/** Bytes that do not compress, as Parquet's are. */
const noise = (n: number, seed = 7) => {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) out[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return out;
};

const FILES: BundleFile[] = [
  { name: 'manifest.json', bytes: text('{"format":"rag-lab-bundle"}\n') },
  { name: 'parquet/sentences.parquet', bytes: noise(300_000) },
  { name: 'jsonl/sentences.jsonl', bytes: text('{"sentence":0,"text":"Tea."}\n'.repeat(20_000)) },
  { name: 'postgres/schema.sql', bytes: text('CREATE SCHEMA raglab;\n') },
  { name: 'empty.txt', bytes: new Uint8Array() },
];

const bytesOf = async (b: Blob) => new Uint8Array(await b.arrayBuffer());
const sameFiles = (a: BundleFile[], b: BundleFile[]) => {
  const sort = (x: BundleFile[]) => [...x].sort((p, q) => p.name.localeCompare(q.name));
  expect(sort(a).map((f) => f.name)).toEqual(sort(b).map((f) => f.name));
  for (const f of a) expect(Buffer.from(b.find((x) => x.name === f.name)!.bytes).equals(Buffer.from(f.bytes)), f.name).toBe(true);
};

describe('a bundle as a zip', () => {
  it('round-trips every file byte for byte; Parquet is stored, text deflated', async () => {
    const progress: number[] = [];
    const zip = await bytesOf(await zipBundle(FILES, (done) => progress.push(done)));
    sameFiles(unzipBundle(zip), FILES);
    // A standard reader sees the same files (fflate's own, independent of the bundle reader).
    expect(Object.keys(unzipSync(zip)).sort()).toEqual(FILES.map((f) => f.name).sort());
    // Text shrinks a lot, noise not at all: the zip is about the Parquet file plus a little.
    expect(zip.length).toBeGreaterThan(300_000);
    expect(zip.length).toBeLessThan(300_000 + 20_000);
    expect(progress.at(-1)).toBe(FILES.reduce((n, f) => n + f.bytes.length, 0));
    // Central directory: method 0 (stored) for the Parquet entry, 8 (deflate) for the JSONL one.
    const methodOf = (name: string) => {
      const needle = text(name);
      for (let i = 0; i < zip.length - 46; i++) {
        if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 1 && zip[i + 3] === 2 && Buffer.from(zip.subarray(i + 46, i + 46 + needle.length)).equals(Buffer.from(needle))) return zip[i + 10]! | (zip[i + 11]! << 8);
      }
      return -1;
    };
    expect(methodOf('parquet/sentences.parquet')).toBe(0);
    expect(methodOf('jsonl/sentences.jsonl')).toBe(8);
  });

  it('reads a zip of the bundle folder (files under a top folder), and leaves out what is skipped', () => {
    const zip = zipSync(Object.fromEntries(FILES.map((f) => [`rag-lab-bundle/${f.name}`, f.bytes])));
    const back = unzipBundle(zip, { skip: ['jsonl/', 'postgres/'] });
    sameFiles(back, FILES.filter((f) => !f.name.startsWith('jsonl/') && !f.name.startsWith('postgres/')));
  });

  it('refuses a zip without manifest.json, a truncated zip and bytes that are no zip, each with one message', async () => {
    const zip = await bytesOf(await zipBundle(FILES));
    const refusal = (bytes: Uint8Array) => {
      try {
        unzipBundle(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(BundleError);
        return (e as Error).message;
      }
      return null;
    };
    expect(refusal(zipSync({ 'notes.txt': text('hello') }))).toBe('not a RAG Context Lab bundle: the zip holds no manifest.json');
    expect(refusal(zip.subarray(0, Math.floor(zip.length / 2)))).toMatch(/^the zip cannot be read: it is (truncated|corrupt)/);
    expect(refusal(text('PK but not really a zip file at all'))).toMatch(/^the zip cannot be read: it is corrupt or not a zip file/);
  });

  it('reads the same files from a Blob (the dropped File), reading only the entries kept', async () => {
    const zip = await bytesOf(await zipBundle(FILES));
    sameFiles(await unzipBundleBlob(new Blob([zip])), unzipBundle(zip));
    const folder = zipSync(Object.fromEntries(FILES.map((f) => [`rag-lab-bundle/${f.name}`, f.bytes])));
    const skip = ['jsonl/', 'postgres/'];
    sameFiles(await unzipBundleBlob(new Blob([folder as Uint8Array<ArrayBuffer>]), { skip }), unzipBundle(folder, { skip }));
    // Only the directory and the kept entries are sliced out of the Blob: a skipped entry is never read.
    const localHeader = (name: string) => {
      const needle = text(name);
      for (let i = 0; i < zip.length - 30; i++) {
        if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 3 && zip[i + 3] === 4 && Buffer.from(zip.subarray(i + 30, i + 30 + needle.length)).equals(Buffer.from(needle))) return i;
      }
      return -1;
    };
    const readsOf = async (skip: string[]) => {
      const starts: number[] = [];
      const blob = new Blob([zip]);
      const spy = { size: blob.size, slice: (a?: number, b?: number) => (starts.push(a!), blob.slice(a, b)) } as unknown as Blob;
      await unzipBundleBlob(spy, { skip });
      return starts;
    };
    const jsonl = localHeader('jsonl/sentences.jsonl');
    expect(jsonl).toBeGreaterThan(0);
    expect(await readsOf([])).toContain(jsonl);
    expect(await readsOf(['jsonl/'])).not.toContain(jsonl);
  });

  it('reads a Blob range larger than one piece in pieces, into the same bytes (Chromium reads at most 2 GiB at once)', async () => {
    const bytes = Uint8Array.from({ length: 100 }, (_, i) => (i * 37) % 251);
    const starts: [number, number][] = [];
    const blob = new Blob([bytes]);
    const spy = { size: blob.size, slice: (a: number, b: number) => (starts.push([a, b]), blob.slice(a, b)) } as unknown as Blob;
    expect([...(await readBlobBytes(spy, 3, 98, 16))]).toEqual([...bytes.subarray(3, 98)]);
    expect(starts).toEqual([[3, 19], [19, 35], [35, 51], [51, 67], [67, 83], [83, 98]]);
    starts.length = 0;
    expect([...(await readBlobBytes(spy, 10, 26, 16))]).toEqual([...bytes.subarray(10, 26)]);
    expect(starts).toEqual([[10, 26]]);
    await expect(readBlobBytes(spy, 90, 101, 16)).rejects.toThrow('unexpected EOF');
  });

  it('refuses from a Blob with the same messages', async () => {
    const zip = await bytesOf(await zipBundle(FILES));
    const refusal = (bytes: Uint8Array) =>
      unzipBundleBlob(new Blob([bytes as Uint8Array<ArrayBuffer>])).then(
        () => null,
        (e) => {
          expect(e).toBeInstanceOf(BundleError);
          return (e as Error).message;
        },
      );
    expect(await refusal(zipSync({ 'notes.txt': text('hello') }))).toBe('not a RAG Context Lab bundle: the zip holds no manifest.json');
    expect(await refusal(zip.subarray(0, Math.floor(zip.length / 2)))).toMatch(/^the zip cannot be read: it is (truncated|corrupt)/);
    expect(await refusal(zip.subarray(0, zip.length - 30))).toMatch(/^the zip cannot be read: it is (truncated|corrupt)/);
    expect(await refusal(text('PK but not really a zip file at all'))).toMatch(/^the zip cannot be read: it is corrupt or not a zip file/);
  });

  it('opens a Blob with every entry being read, each awaited on its own; an entry that cannot be read is refused when awaited', async () => {
    const zip = await bytesOf(await zipBundle(FILES));
    const reads = await openBundleBlob(new Blob([zip]), { skip: ['jsonl/'] });
    expect([...reads.keys()].sort()).toEqual(['empty.txt', 'manifest.json', 'parquet/sentences.parquet', 'postgres/schema.sql']);
    expect(Buffer.from(await reads.get('parquet/sentences.parquet')!).equals(Buffer.from(FILES[1]!.bytes))).toBe(true);
    // The Parquet entry's local header damaged: the directory opens, that entry's read is refused.
    const at = zip.findIndex((_, i) => zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 3 && zip[i + 3] === 4 && new TextDecoder().decode(zip.subarray(i + 30, i + 30 + 25)) === 'parquet/sentences.parquet');
    expect(at).toBeGreaterThanOrEqual(0);
    const broken = zip.slice();
    broken[at] = 0;
    const damaged = await openBundleBlob(new Blob([broken]));
    expect(Buffer.from(await damaged.get('manifest.json')!).toString()).toBe('{"format":"rag-lab-bundle"}\n');
    const err = await damaged.get('parquet/sentences.parquet')!.catch((e) => e);
    expect(err).toBeInstanceOf(BundleError);
    expect(err.message).toBe('the zip cannot be read: it is corrupt or not a zip file (invalid zip data)');
  });
});
