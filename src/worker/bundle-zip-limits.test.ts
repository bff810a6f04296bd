/**
 * Issue 28, the page's zip reader: an entry whose declared size is far above what its
 * compressed bytes could honestly hold is refused, with the limit in the message, before it
 * is inflated — in the Blob reader the page uses and in the in-memory one the CLI uses.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BundleError } from '../core/export/format';
import { entryLimitProblem, openBundleBlob, unzipBundle, ZIP_LIMITS } from './bundle-zip';

const MANIFEST = new TextEncoder().encode('{"format":"rag-lab-bundle"}');
/** 24 MB of zeros deflate to ~24 KB: a ratio of ~1000:1, as the 322 KB → 300 MB zip had. */
let made: Uint8Array | null = null;
const bomb = () => (made ??= zipSync({ 'manifest.json': MANIFEST, 'parquet/vectors.parquet': new Uint8Array(24_000_000) }, { level: 9 }));

describe('zip limits', () => {
  it('the Blob reader refuses the entry before reading any, stating sizes, ratio and limit', async () => {
    const zip = bomb();
    expect(zip.length).toBeLessThan(100_000);
    const refusal = openBundleBlob(new Blob([zip as Uint8Array<ArrayBuffer>]));
    await expect(refusal).rejects.toThrow(BundleError);
    await expect(refusal).rejects.toThrow(/^the zip is refused: parquet\/vectors\.parquet would inflate from [\d.]+ KB to 24\.0 MB \(\d+:1\), above the limit of 200:1 for files over 1\.0 MB: not a bundle the lab wrote$/);
  });

  it('the in-memory reader (CLI) refuses it the same way', () => {
    expect(() => unzipBundle(bomb())).toThrow(/^the zip is refused: parquet\/vectors\.parquet would inflate from [\d.]+ KB to 24\.0 MB \(\d+:1\), above the limit of 200:1/);
  });

  it('skipped entries are not held to the limits (they are never inflated)', () => {
    const files = unzipBundle(bomb(), { skip: ['parquet/'] });
    expect(files.map((f) => f.name)).toEqual(['manifest.json']);
  });

  it('a total over the limit is refused, naming it', () => {
    const zip = zipSync({ 'manifest.json': MANIFEST, 'a.sql': new Uint8Array(3000), 'b.sql': new Uint8Array(3000) }, { level: 0 });
    expect(() => unzipBundle(zip, { limits: { maxTotalBytes: 5000 } })).toThrow('the zip is refused: its files would inflate to 6.0 KB, above the limit of 5.0 KB');
  });

  it('small files and stored files pass; the limits are what the refusal says', () => {
    expect(entryLimitProblem('manifest.json', 10, 900_000)).toBeNull();
    expect(entryLimitProblem('parquet/x.parquet', 300_000_000, 300_000_000)).toBeNull();
    expect(entryLimitProblem('x', 1, 2 ** 33)).toBe('x would inflate to 8589.9 MB, above the limit of 4295.0 MB per file');
    expect(ZIP_LIMITS).toEqual({ maxEntryBytes: 2 ** 32 - 1, maxTotalBytes: 8 * 2 ** 30, maxRatio: 200, ratioFloor: 2 ** 20 });
  });
});
