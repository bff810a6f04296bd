/**
 * --late-chunking end to end: eval measures plain and late-chunked vectors side by side, a saved
 * corpus and a bundle record the variant (and a query over the corpus embeds nothing again), and
 * a model that cannot late-chunk is refused before anything is embedded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../node/paths';
import { inProcessRunner } from './cli-runner';

const SQUAD = `${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`;

/** main() in this process (cli-runner.ts); blank stderr lines dropped. */
const cli = inProcessRunner({ keep: (l) => l.trim() !== '' });

const TEXT = `# The lighthouse

The lighthouse keeper lived alone on the island. He lit the lamp every evening at dusk.
Ships passed safely because of his work. In winter the storms were fierce. Still, the light never failed.

## The supply boat

A boat brought food and oil once a month. Its captain was the keeper's only visitor.
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-late-'));
  writeFileSync(join(dir, 'lighthouse.md'), TEXT);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('rag-lab --late-chunking', () => {
  it('eval measures plain and late-chunked vectors side by side, each row with its interval', async () => {
    const r = await cli('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '10', '--budget', '256', '--retriever', 'vector', '--strategies', 'naive,sentence', '--late-chunking', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/embedding sentences/);
    const out = JSON.parse(r.stdout);
    const rows = out.results as { strategy: string; params: { late?: boolean; retriever: string }; intervals: object }[];
    expect(rows.map((x) => `${x.strategy}${x.params.late ? ' late' : ''}`)).toEqual(['naive', 'sentence', 'naive late', 'sentence late']);
    for (const x of rows) expect(Object.keys(x.intervals).length).toBeGreaterThan(0);
    // Without --json: the late rows say so, and each point's late-minus-plain difference is printed with its interval.
    const t = await cli('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '10', '--budget', '256', '--retriever', 'vector', '--strategies', 'naive,sentence', '--late-chunking');
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain('late chunking on');
    expect(t.stdout).toMatch(/late chunking minus plain vectors, answer in context \(paired 95 % interval\):\nnaive · vector @256: [+−±]\d\.\d{3} \([+−±]\d\.\d{3} to [+−±]\d\.\d{3}\).*\nsentence · vector @256: /);
  });

  it('a static model is refused before anything is embedded, with why', async () => {
    const r = await cli('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '5', '--embedder', 'test-static', '--late-chunking');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--late-chunking: late chunking is not available for rag-lab/test-static-embedder: it is a static model, each token's vector ignores the text around it");
    expect(r.stderr).not.toMatch(/embedding sentences/);
    const q = await cli('query', 'Who lit the lamp?', join(dir, 'lighthouse.md'), '--retriever', 'bm25', '--late-chunking');
    expect(q.code).toBe(2);
    expect(q.stderr).toContain('--late-chunking: late chunking needs an embedding model: none is loaded');
  });

  it('index records the variant; a query over the saved corpus embeds nothing again; export writes it in the manifest', async () => {
    const corpus = join(dir, 'late.json');
    const i = await cli('index', join(dir, 'lighthouse.md'), '--out', corpus, '--late-chunking');
    expect(i.code, i.stderr).toBe(0);
    expect(i.stderr).toMatch(/embedding sentences/);
    const saved = JSON.parse(readFileSync(corpus, 'utf8'));
    expect(saved.structure.vectors).toBe('late');
    expect(Object.keys(saved.vectors).sort()).toEqual(['chunk', 'leaf', 'packed', 'semantic', 'sentence']);
    const q = await cli('query', 'Who lit the lamp?', '--corpus', corpus, '--retriever', 'vector', '--strategies', 'sentence', '--json');
    expect(q.code, q.stderr).toBe(0);
    expect(q.stderr).not.toMatch(/embedding/);
    expect(JSON.parse(q.stdout).results[0].blocks.length).toBeGreaterThan(0);
    const out = join(dir, 'bundle');
    const e = await cli('export', join(dir, 'lighthouse.md'), '--out', out, '--late-chunking', '--question', 'Who lit the lamp?');
    expect(e.code, e.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).structure.vectors).toBe('late');
  });
});
