// Saved BM25 postings: a query over a saved corpus adopts them instead of analysing the text
// again, answers exactly as without them, and builds again whatever in them does not hold.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from './cli-runner';
import type { SavedCorpus } from './saved-corpus';

const FERRIES = '# Ferries\n\nThe first ferry leaves the harbour at six. It crosses the bay in forty minutes.\n\n## Winter\n\nIn winter the ferry runs twice a day. Storms may cancel the evening crossing. The keeper rings the bell at dusk.\n';
const BARCOS = '# Barcos\n\nO primeiro barco sai do porto às seis. A travessia da baía demora quarenta minutos.\n\n## Inverno\n\nNo inverno os barcos saem duas vezes por dia.\n';

let dir: string;
/** Saved with each lexical choice the tests query with: the defaults, and BM25+ over plain words. */
const saved: Record<'lucene' | 'plus', SavedCorpus> = {} as never;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-postings-'));
  writeFileSync(join(dir, 'ferries.md'), FERRIES);
  writeFileSync(join(dir, 'barcos.md'), BARCOS);
  for (const [name, flags] of [['lucene', []], ['plus', ['--bm25', 'bm25plus', '--analyzer', 'words']]] as const) {
    const out = join(dir, `${name}.json`);
    const r = await cliInProcess('index', join(dir, 'ferries.md'), join(dir, 'barcos.md'), '--retriever', 'bm25', ...flags, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    saved[name] = JSON.parse(readFileSync(out, 'utf8'));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `query --json` over `file` (written to a fresh path), BM25, every strategy. */
async function query(file: SavedCorpus, question: string, ...flags: string[]) {
  const path = join(dir, `variant-${Math.random()}.json`);
  writeFileSync(path, JSON.stringify(file));
  const r = await cliInProcess('query', question, '--corpus', path, '--retriever', 'bm25', '--json', ...flags);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, notes: r.stderr.split('\n').filter((l) => l.includes('postings')), results: JSON.parse(r.stdout).results as { strategy: string; blocks: { text: string }[] }[] };
}
const without = (file: SavedCorpus): SavedCorpus => ({ ...file, postings: undefined });
const QUESTIONS = ['When does the ferry leave the harbour?', 'Quando sai o barco do porto?', 'bell at dusk'];

describe('saved BM25 postings', () => {
  it('are written once for the sentences, leaves, naive and packed chunks, and answer byte for byte as the text analysed again', async () => {
    for (const [name, flags] of [['lucene', []], ['plus', ['--bm25', 'bm25plus', '--analyzer', 'words']]] as const) {
      const p = saved[name].postings!;
      expect(p.kinds.map((k) => k.kind)).toEqual(['sentence', 'leaf', 'chunk', 'packed']);
      expect(p.terms).toContain(name === 'lucene' ? 'ferri' : 'ferry'); // stemmed, or plain words
      expect(new Set(p.terms).size).toBe(p.terms.length);
      for (const q of QUESTIONS) {
        const [a, b] = [await query(saved[name], q, ...flags), await query(without(saved[name]), q, ...flags)];
        expect(a.stdout).toBe(b.stdout);
        expect(a.notes).toEqual([]);
        expect(a.results.some((r) => r.blocks.length > 0)).toBe(true);
      }
    }
  });

  it('are taken as stored, not made again, when made the same way from the same documents', async () => {
    // Two terms' names swapped: only postings taken as they are would find the bell where the ferry is.
    const terms = [...saved.lucene.postings!.terms];
    const [ferry, bell] = [terms.indexOf('ferri'), terms.indexOf('bell')];
    [terms[ferry], terms[bell]] = ['bell', 'ferri'];
    const { results } = await query({ ...saved.lucene, postings: { ...saved.lucene.postings!, terms } }, 'bell', '--strategies', 'sentence');
    expect(results[0]!.blocks.map((b) => b.text)).toEqual(['Ferries', 'The first ferry leaves the harbour at six.', 'In winter the ferry runs twice a day.']);
  });

  it('are built again with a note when damaged, and answer as without them', async () => {
    const q = QUESTIONS[0]!;
    const expected = (await query(without(saved.lucene), q)).stdout;
    const p = saved.lucene.postings!;
    const cut = { ...p, kinds: p.kinds.map((k) => (k.kind === 'leaf' ? { ...k, data: k.data.slice(0, 12) } : k)) };
    const r1 = await query({ ...saved.lucene, postings: cut }, q);
    expect(r1.stdout).toBe(expected);
    expect(r1.notes).toEqual([expect.stringMatching(/--corpus .*: the saved BM25 postings of the leaf units are damaged: built again from the text$/)]);
    const rows = { ...p, kinds: p.kinds.map((k) => (k.kind === 'chunk' ? { ...k, rows: k.rows + 1 } : k)) };
    expect((await query({ ...saved.lucene, postings: rows }, q)).notes).toEqual([expect.stringContaining('postings of the chunk units are damaged')]);
    const twice = { ...p, terms: [...p.terms.slice(0, -1), p.terms[0]!] };
    const r2 = await query({ ...saved.lucene, postings: twice }, q);
    expect(r2.stdout).toBe(expected);
    expect(r2.notes).toHaveLength(4);
  });

  it('are built again with a note when the documents were edited after saving', async () => {
    const docs = saved.lucene.docs.map((d) => ({ ...d, text: d.text.replace('bell', 'horn') }));
    const edited = { ...saved.lucene, docs };
    const r = await query(edited, 'horn');
    expect(r.stdout).toBe((await query(without(edited), 'horn')).stdout);
    expect(r.results.find((x) => x.strategy === 'sentence')!.blocks[0]!.text).toBe('The keeper rings the horn at dusk.');
    expect(r.notes).toEqual(['sentence', 'leaf', 'chunk', 'packed'].map((k) => expect.stringContaining(`postings of the ${k} units were made from other text than the corpus's documents`)));
  });

  it('are passed over without a note when the query asks for another analyzer or BM25 variant', async () => {
    const r = await query(saved.lucene, QUESTIONS[0]!, '--bm25', 'bm25plus', '--analyzer', 'words');
    expect(r.notes).toEqual([]);
    expect(r.stdout).toBe((await query(saved.plus, QUESTIONS[0]!, '--bm25', 'bm25plus', '--analyzer', 'words')).stdout);
  });
});
