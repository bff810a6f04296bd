/**
 * npx tsx scripts/bench/cli-bench.ts [--runs N] [--json FILE]
 *
 * How fast the published command starts (bin/rag-lab.mjs, the bundle `npm install` builds):
 * `--help` (cliHelpMs) and `query --json` on a saved corpus of the sample documents, BM25
 * (cliQueryMs), each the median wall time of N runs as a fresh process — beside the development
 * path through tsx for comparison. Prints numbers; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from './common';

export interface CliBench {
  cliHelpMs: number;
  cliQueryMs: number;
  sourceHelpMs: number;
  sourceQueryMs: number;
  runs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`rag-lab ${args.slice(-4).join(' ')} failed: ${r.stderr.trim().split('\n').pop()}`);
  return performance.now() - t0;
}

export function cliBench(runs = 7): CliBench {
  if (!existsSync(join(PROJECT_ROOT, 'dist-cli', 'main.js'))) spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'rag-lab-cli-bench-'));
  try {
    const samples = join(PROJECT_ROOT, 'public', 'samples');
    const docs = readdirSync(samples).filter((f) => /\.(md|pdf)$/i.test(f) && f !== 'ATTRIBUTION.md').map((f) => join(samples, f));
    const corpus = join(dir, 'samples.json');
    const bin = join(PROJECT_ROOT, 'bin', 'rag-lab.mjs');
    const source = ['--import', 'tsx', join(PROJECT_ROOT, 'src', 'cli', 'main.ts')];
    timed([bin, 'index', ...docs, '--retriever', 'bm25', '--out', corpus]);
    const query = ['query', 'What are the characteristics of trustworthy AI?', '--corpus', corpus, '--retriever', 'bm25', '--json'];
    const series = (args: string[]) => median(Array.from({ length: runs }, () => timed(args)));
    return {
      cliHelpMs: Math.round(series([bin, '--help'])),
      cliQueryMs: Math.round(series([bin, ...query])),
      sourceHelpMs: Math.round(series([...source, '--help'])),
      sourceQueryMs: Math.round(series([...source, ...query])),
      runs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { runs: { type: 'string' }, json: { type: 'string' } } });
  const r = cliBench(values.runs ? Number(values.runs) : 7);
  console.log(`CLI start (median of ${r.runs} fresh processes): --help ${r.cliHelpMs} ms (tsx sources ${r.sourceHelpMs} ms) · query --json on the saved sample corpus, BM25 ${r.cliQueryMs} ms (tsx sources ${r.sourceQueryMs} ms)`);
  if (values.json) writeFileSync(values.json, JSON.stringify(r, null, 2));
}
