import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TransformersEmbedder } from '../core/embed/transformers-embedder';
import { RetrievalEngine } from '../core/engine';
import { readSquad } from '../core/eval/squad';
import { retrievalParams } from '../core/retrieve/params';
import { setupNode, SHARED_DATA } from '../node/setup';
import { cmdExport, cmdVerify, engineFromBundle, type ExportDeps, type ExportValues } from './export-commands';

const SQUAD = `${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`;
let dir: string;
let deps: ExportDeps;

beforeAll(async () => {
  setupNode();
  const embedder = await TransformersEmbedder.load({ model: 'rag-lab/test-embedder' });
  const json = JSON.parse(readFileSync(SQUAD, 'utf8'));
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-bundle-'));
  // What main.ts lends: the same helpers it uses for index, query and eval.
  deps = {
    makeEngine: async (values, structure) => new RetrievalEngine({ embedder: values.embedder === 'none' ? null : embedder, structure }),
    retrieval: () => retrievalParams({ topK: 5, budgetTokens: 200 }),
    loadEvalSet: () => readSquad(json, { limitDocs: 1 }),
    loadFiles: async () => [],
    engineFromSaved: async () => {
      throw new Error('not used');
    },
    embedAll: async (engine, kinds) => {
      for (const k of kinds) await engine.embedUnits(k);
    },
    usage: (m) => new Error(`usage: ${m}`),
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function output(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...a) => void lines.push(a.join(' ')));
  return run().then(
    () => (spy.mockRestore(), lines.join('\n')),
    (e) => {
      spy.mockRestore();
      throw e;
    },
  );
}

describe('export, verify and index --from on the command line', () => {
  it('export writes a bundle that verify finds in agreement, and index --from opens without embedding', async () => {
    const values: ExportValues = { out: dir, data: SQUAD, strategy: 'automerge', 'limit-questions': '3', question: ['Who won the game?'] };
    const shown = await output(() => cmdExport(values, [], deps));
    expect(shown).toMatch(/Parquet\s+10/);
    expect(shown).toMatch(/4 golden questions/);
    for (const f of ['manifest.json', 'golden.json', 'postgres/schema.sql', 'postgres/data.sql', 'postgres/functions.sql', 'parquet/vectors.parquet', 'jsonl/sentences.jsonl']) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.strategy).toBe('automerge');
    expect(manifest.params.budgetTokens).toBe(200);

    let code = -1;
    const verified = await output(async () => (code = await cmdVerify({}, [dir], deps)));
    expect(code).toBe(0);
    expect(verified).toMatch(/agreement: 100 %/);
    expect(verified).toMatch(/hybrid\s+automerge\s+4\/4\s+4\/4/);

    const spy = vi.spyOn(TransformersEmbedder.prototype, 'embed');
    const engine = await engineFromBundle({}, dir, deps);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(engine.corpus.sentences.length).toBe(manifest.corpus.sentences);
    expect(engine.vectorCoverage('leaf')).toEqual({ done: manifest.corpus.leaves, total: manifest.corpus.leaves });
  });

  it('verify names a corrupt file and an unknown engine', async () => {
    const golden = join(dir, 'golden.json');
    writeFileSync(golden, readFileSync(golden).subarray(0, 100));
    await expect(cmdVerify({}, [dir], deps)).rejects.toThrow(/usage: verify .*golden\.json is truncated/);
    await expect(cmdVerify({ engine: 'mysql' }, [dir], deps)).rejects.toThrow(/only pglite is built in/);
  });
});
