/**
 * The published command runs the bundle scripts/build-cli.mjs makes (dist-cli/, built from the
 * current sources by vitest's global setup); `npm run cli` runs the TypeScript sources through tsx. Both must say and
 * write exactly the same: --help, an index (the saved corpus, byte for byte), a query --json and an
 * eval --json on fixed inputs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../node/paths';

function run(entry: 'built' | 'source', args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = entry === 'built' ? [join(PROJECT_ROOT, 'bin', 'rag-lab.mjs'), ...args] : ['--import', 'tsx', join(PROJECT_ROOT, 'src', 'cli', 'main.ts'), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: PROJECT_ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const TEXT = '# Harbour notes\n\nThe ferry leaves the harbour at seven. The lighthouse keeper rings the bell at dusk.\n\n## Winter\n\nIn winter the harbour freezes and the ferry stops. Fishermen mend their nets in the sheds.\n';
const SET = {
  version: 'v1.1',
  data: [{ title: 'Harbour', paragraphs: [{ context: 'The ferry leaves the harbour at seven. In winter the harbour freezes and the ferry stops.', qas: [{ id: 'q1', question: 'When does the ferry leave?', answers: [{ text: 'at seven', answer_start: 29 }] }] }] }],
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-compiled-'));
  writeFileSync(join(dir, 'harbour.md'), TEXT);
  writeFileSync(join(dir, 'set.json'), JSON.stringify(SET));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the compiled CLI and the development path', () => {
  it('print the same help', async () => {
    const [built, source] = await Promise.all([run('built', ['--help']), run('source', ['--help'])]);
    expect(built.code).toBe(0);
    expect(built.stdout).toBe(source.stdout);
    expect(built.stdout).toMatch(/^rag-lab — RAG Context Lab on the command line/);
  }, 120_000);

  it('save the same corpus, and answer the same query and eval as JSON', async () => {
    const corpus = (e: string) => join(dir, `${e}.json`);
    for (const e of ['built', 'source'] as const) {
      const r = await run(e, ['index', join(dir, 'harbour.md'), '--retriever', 'bm25', '--out', corpus(e)]);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readFileSync(corpus('built'))).toEqual(readFileSync(corpus('source')));
    const query = ['query', 'When does the ferry leave the harbour?', '--corpus', corpus('built'), '--retriever', 'bm25', '--json'];
    const [qb, qs] = await Promise.all([run('built', query), run('source', query)]);
    expect(qb.code, qb.stderr).toBe(0);
    expect(qb.stdout).toBe(qs.stdout);
    expect(JSON.parse(qb.stdout).results.length).toBeGreaterThan(5);
    const evalArgs = ['eval', '--data', join(dir, 'set.json'), '--retriever', 'bm25', '--strategies', 'naive,window', '--json'];
    const [eb, es] = await Promise.all([run('built', evalArgs), run('source', evalArgs)]);
    expect(eb.code, eb.stderr).toBe(0);
    expect(eb.stdout).toBe(es.stdout);
    expect(JSON.parse(eb.stdout).results).toHaveLength(2);
  }, 180_000);
});
