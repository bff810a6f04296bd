// Saved splits: a query over a saved corpus takes each document's split from the file instead of
// segmenting and counting again, and splits again whatever in it does not hold.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from './cli-runner';
import { parse } from './options';
import { engineFromSaved, type SavedCorpus } from './saved-corpus';

const TEXT = '# Ferries\n\nThe first ferry leaves the harbour at six. It crosses the bay in forty minutes.\n\n## Winter\n\nIn winter the ferry runs twice a day. Storms may cancel the evening crossing.\n';

let dir: string;
let corpus: string;
let saved: SavedCorpus;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-saved-'));
  writeFileSync(join(dir, 'ferries.md'), TEXT);
  corpus = join(dir, 'corpus.json');
  const r = await cliInProcess('index', join(dir, 'ferries.md'), '--out', corpus, '--embedder', 'none');
  expect(r.code, r.stderr).toBe(0);
  saved = JSON.parse(readFileSync(corpus, 'utf8'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (file: SavedCorpus, ...flags: string[]) => {
  const path = join(dir, `variant-${Math.random()}.json`);
  writeFileSync(path, JSON.stringify(file));
  return engineFromSaved(parse(['--embedder', 'none', ...flags]).values, path);
};
/** The sentences' [start, end, tokens] as the engine holds them. */
const spans = (e: Awaited<ReturnType<typeof load>>) => e.corpus.sentences.map((s) => [s.start, s.end, s.tokens]);

describe('saved corpus splits', () => {
  it('are written for every document, and a query over them holds the same sentences and chunks', async () => {
    const id = saved.docs[0]!.id;
    expect(Object.keys(saved.splits ?? {})).toEqual([id]);
    const withSplits = await load(saved);
    const { splits: _s, ...without } = saved;
    const fresh = await load(without);
    expect(spans(withSplits)).toEqual(spans(fresh));
    expect(spans(withSplits)).toHaveLength(6); // two headings, four sentences
    expect(withSplits.chunks.map((c) => [c.start, c.end, c.tokens])).toEqual(fresh.chunks.map((c) => [c.start, c.end, c.tokens]));
  });

  it('are taken as stored (not made again) when they were made the same way', async () => {
    const id = saved.docs[0]!.id;
    const ints = new Int32Array(new Uint8Array(Buffer.from(saved.splits![id]!.sentences, 'base64')).buffer);
    ints[4] = 99; // the first sentence's token count, as a stored split could only say it
    const marked = { ...saved, splits: { [id]: { ...saved.splits![id]!, sentences: Buffer.from(ints.buffer).toString('base64') } } };
    expect((await load(marked)).corpus.sentences[0]!.tokens).toBe(99);
  });

  it('are split again when damaged, or made another way (naive chunk size)', async () => {
    const id = saved.docs[0]!.id;
    const expected = spans(await load(saved));
    const damaged = { ...saved, splits: { [id]: { ...saved.splits![id]!, sentences: 'AAA' } } };
    expect(spans(await load(damaged))).toEqual(expected);
    const outOfText = { ...saved, splits: { [id]: { ...saved.splits![id]!, sentences: Buffer.from(new Int32Array([0, -1, 0, 100_000, 3, -1, 0]).buffer).toString('base64') } } };
    expect(spans(await load(outOfText))).toEqual(expected);
    const otherWay = { ...saved, structure: { ...saved.structure, naive: { size: 8, overlap: 0 } } };
    const resplit = await load(otherWay);
    expect(spans(resplit)).toEqual(expected);
    expect(resplit.chunks.length).toBeGreaterThan((await load(saved)).chunks.length);
  });
});
