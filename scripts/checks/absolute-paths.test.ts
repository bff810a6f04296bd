import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/node/paths';
import { checkoutFiles, findAbsolutePaths, machinePaths } from './absolute-paths';

describe('no file names an absolute path of this machine', () => {
  it('the checkout: no tracked or new file names the checkout or ../shared by absolute path', () => {
    const files = checkoutFiles(PROJECT_ROOT);
    expect(files).toContain('package.json');
    const hits = findAbsolutePaths(PROJECT_ROOT, files, machinePaths(PROJECT_ROOT));
    expect(hits.map((h) => `${h.file}:${h.line} names ${h.path}`)).toEqual([]);
  });

  it('the check finds such a path (lock files aside) in a tree that has one', () => {
    const root = mkdtempSync(join(tmpdir(), 'rag-lab-paths-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'bad.test.ts'), `const ROOT = '${root}';\nconst ok = 1;\n`);
      writeFileSync(join(root, 'src', 'shared.ts'), `read('${join(root, '..', 'shared')}/data/x.json');\n`);
      writeFileSync(join(root, 'package-lock.json'), `{"resolved": "${root}/x"}`);
      writeFileSync(join(root, 'good.md'), 'paths are relative: ../shared/data\n');
      const hits = findAbsolutePaths(root, checkoutFiles(root), machinePaths(root));
      expect(hits.map((h) => `${h.file}:${h.line}`).sort()).toEqual(['src/bad.test.ts:1', 'src/shared.ts:1']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
