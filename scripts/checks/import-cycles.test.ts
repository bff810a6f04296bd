import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/node/paths';
import { importCycles, importGraph } from './import-cycles';

describe('no circle of imports', () => {
  it('src/: no module imports itself back through others (types included)', () => {
    const graph = importGraph(PROJECT_ROOT, ['src']);
    expect(graph.get('src/core/engine.ts')).toContain('src/core/engine/vector-variants.ts');
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a circle of type imports such as params → registry → strategy types → params', () => {
    const root = mkdtempSync(join(tmpdir(), 'rag-lab-cycles-'));
    try {
      mkdirSync(join(root, 'src'));
      writeFileSync(join(root, 'src', 'params.ts'), "import { list } from './registry';\nexport type P = number;\n");
      writeFileSync(join(root, 'src', 'registry.ts'), "import { s } from './strategy';\nexport const list = [s];\n");
      writeFileSync(join(root, 'src', 'strategy.ts'), "import type { P } from './params';\nexport const s = 1;\n");
      writeFileSync(join(root, 'src', 'leaf.ts'), "export { s } from './strategy';\n");
      expect(importCycles(importGraph(root, ['src']))).toEqual([['src/params.ts', 'src/registry.ts', 'src/strategy.ts']]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
