/**
 * --contextual end to end: the CLI (main() in this process, cli-runner.ts) writes situating contexts
 * with the mock endpoint of src/node/context-mock-server.ts (started here on 127.0.0.1) or the
 * TEST generator, saves them with the corpus, queries with them without sending anything again,
 * evaluates and sweeps contextual off/on, exports them in a bundle that verifies in PGlite, and
 * refuses what cannot work with one line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContextMock, type ContextMock } from '../node/context-mock-server';
import { inProcessRunner } from './cli-runner';

/** Blank stderr lines dropped. */
const cli = inProcessRunner({ keep: (l) => l.trim() !== '' });

let dir: string;
let mock: ContextMock;
let files: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-contextual-'));
  files = [
    ['hangar.md', '# The hangar\n\nThe hangar was built in 1929. It housed the largest airship of its time. Crowds came to watch it land.\n\nThe field is a park today. Children fly kites there.\n'],
    ['sky.md', '# The sky\n\nStars differ in brightness. Some distant objects outshine whole galaxies. Astronomers measure their redshift.\n'],
  ].map(([name, text]) => {
    const path = join(dir, name!);
    writeFileSync(path, text!);
    return path;
  });
  mock = await startContextMock();
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rag-lab --contextual', () => {
  it('index writes a context per unit through the endpoint, after saying what goes where, and saves them', async () => {
    const out = join(dir, 'corpus.json');
    const r = await cli('index', ...files, '--out', out, '--embedder', 'test', '--contextual', '--context-unit', 'sentence', '--endpoint', mock.url, '--model', 'ctx');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/contexts: 10 sentence units without one \(0 have one\) in 2 documents; 10 calls, about \d+ prompt tokens \(\d+ of them the same document prefix again/);
    expect(r.stderr).toContain(`each call: `);
    expect(r.stderr).toContain(`${mock.url}/v1/chat/completions`);
    expect(r.stderr).toContain('contexts: 10 written, 0 failed, 10 calls');
    expect(r.stderr).toContain('contextual retrieval: 10 of 10 sentence units have a context');
    expect(mock.requests).toHaveLength(10);
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    expect(saved.structure.contextual).toBe(true);
    expect(saved.contexts.entries).toHaveLength(10);
    expect(saved.contexts.entries[1]).toMatchObject({ kind: 'sentence', source: `endpoint ${mock.url}/v1/chat/completions model ctx`, text: 'this part of "The hangar The hangar" is about hangar, built, the.' });

    // A query over the saved corpus uses them and sends nothing again.
    mock.requests.length = 0;
    const q = await cli('query', 'kites children park', '--corpus', out, '--strategies', 'contextual', '--context-unit', 'sentence', '--retriever', 'bm25', '--contextual', '--endpoint', mock.url, '--model', 'ctx', '--json');
    expect(q.code, q.stderr).toBe(0);
    expect(mock.requests).toHaveLength(0);
    const json = JSON.parse(q.stdout);
    const blocks = json.results[0].blocks as { text: string; context?: { text: string } }[];
    expect(blocks[0]!.text).toBe('Children fly kites there.');
    expect(blocks[0]!.context?.text).toBe('this part of "The hangar The hangar" is about children, kites, there.');
  });

  it('the TEST generator writes them here, and nothing leaves the machine; eval --sweep compares contextual off and on', async () => {
    const out = join(dir, 'set.json');
    writeFileSync(
      out,
      JSON.stringify({
        version: '1.1',
        data: [{ title: 'Hangar', paragraphs: [{ context: 'The hangar was built in 1929. It housed the largest airship of its time.', qas: [{ id: 'q1', question: 'When was the hangar built?', answers: [{ text: '1929', answer_start: 24 }] }] }] }],
      }),
    );
    const r = await cli('eval', '--data', out, '--embedder', 'test', '--sweep', '--sweep-contextual', '--budget', '64', '--strategies', 'naive,contextual', '--retriever', 'bm25,hybrid', '--model', 'rag-lab/test-generator', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('nothing leaves this machine');
    expect(r.stderr).toMatch(/contexts: \d+ written, 0 failed/);
    const json = JSON.parse(r.stdout);
    const contextualOn = json.results.filter((x: { params: { contextual?: boolean } }) => x.params.contextual);
    const contextualOff = json.results.filter((x: { params: { contextual?: boolean } }) => !x.params.contextual);
    expect(contextualOn.length).toBe(contextualOff.length);
    expect(contextualOn.length).toBeGreaterThan(0);
    for (const x of json.results) expect(x.intervals.answerInContext).toBeDefined();
  }, 240_000);

  it('export --contextual carries the contexts into a bundle that PGlite verifies', async () => {
    const out = join(dir, 'bundle');
    const r = await cli('export', ...files, '--out', out, '--embedder', 'test', '--contextual', '--endpoint', mock.url, '--model', 'ctx', '--question', 'airship hangar', '--question', 'redshift of stars');
    expect(r.code, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.structure.contextual).toBe(true);
    expect(manifest.contextual.contexts.chunk).toBeGreaterThan(0);
    const v = await cli('verify', out);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toContain('agreement: 100 %');
  }, 300_000);

  it('refuses, with one line, what cannot work', async () => {
    const none = await cli('query', 'x', ...files, '--retriever', 'bm25', '--contextual');
    expect([none.code, none.stderr.split('\n').at(-1)]).toEqual([2, 'error: --contextual: 2 of 2 chunk units have no context and no generator is given: --endpoint URL --model NAME, or --model rag-lab/test-generator (the TEST model)']);
    const kind = await cli('query', 'x', ...files, '--retriever', 'bm25', '--contextual', '--context-unit', 'semantic', '--model', 'test');
    expect([kind.code, kind.stderr.split('\n').at(-1)]).toEqual([2, 'error: --context-unit must be sentence, leaf, chunk, packed, got "semantic"']);
    const refused = await cli('query', 'x', ...files, '--retriever', 'bm25', '--contextual', '--endpoint', mock.url, '--model', 'refuse');
    expect(refused.code).toBe(0);
    expect(refused.stderr).toMatch(/\nerror: every call failed: .*401.*\ncontextual retrieval: 0 of 2 chunk units have a context; the other 2 are retrieved by their plain text/);
  });
});
