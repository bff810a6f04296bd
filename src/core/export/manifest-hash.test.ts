import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from './manifest';

const nodeSha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('sha256 of bundle files', () => {
  it('is the standard digest for a small file and the empty one', async () => {
    expect(await sha256(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes a file past the one-call size in slices, with the same digest (Web Crypto refuses ≥ 256 MiB in Node, > 2 GiB in Chromium)', async () => {
    const big = new Uint8Array(128 * 2 ** 20 + 12_345);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i * 2654435761) >>> 24;
    big[big.length - 1] = 7;
    expect(await sha256(big)).toBe(nodeSha(big));
  });
});
