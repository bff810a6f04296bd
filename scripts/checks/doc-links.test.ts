import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/node/paths';
import { checkDocs, docPages, headingSlug } from './doc-links';

const scripts = (root: string) => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('README and docs/: links and scripts a reader can follow', () => {
  it('every relative link and every npm run script named in README.md and docs/ exists', () => {
    const pages = docPages(PROJECT_ROOT);
    expect(pages.length).toBeGreaterThan(5);
    expect(checkDocs(PROJECT_ROOT, pages, scripts(PROJECT_ROOT)).map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([]);
  });

  it('the README stays a landing page (at most 250 lines) that links every docs page', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const page of docPages(PROJECT_ROOT).filter((p) => p.startsWith('docs/'))) {
      const linkedFromReadme = readme.includes(`](${page}`);
      const linkedFromDocs = docPages(PROJECT_ROOT).some((p) => p.startsWith('docs/') && p !== page && readFileSync(join(PROJECT_ROOT, p), 'utf8').includes(`](${page.slice('docs/'.length)}`));
      expect(linkedFromReadme || linkedFromDocs, `${page} is linked from README.md or another docs page`).toBe(true);
    }
  });

  it('finds a missing file, a missing heading and an unknown script', () => {
    const root = mkdtempSync(join(tmpdir(), 'rag-lab-docs-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'docs', 'a.md'), '# Export, verify & import\n\ntext\n');
      writeFileSync(
        join(root, 'README.md'),
        ['[a](docs/a.md#export-verify--import) [web](https://example.org/x)', '[gone](docs/gone.md)', '[bad anchor](docs/a.md#nothing)', 'run `npm run bench` then `npm run nope`'].join('\n'),
      );
      const problems = checkDocs(root, docPages(root), { bench: 'tsx x' });
      expect(problems.map((p) => `${p.file}:${p.line}`)).toEqual(['README.md:2', 'README.md:3', 'README.md:4']);
      expect(problems[2]!.problem).toBe('names npm run nope, which package.json does not define');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('anchors are made as GitHub makes them', () => {
    expect(headingSlug('Take the design out of the lab: export, Postgres, verify, import')).toBe('take-the-design-out-of-the-lab-export-postgres-verify-import');
    expect(headingSlug('For tools: `npm run bench -- --json` fields')).toBe('for-tools-npm-run-bench------json-fields');
  });
});
