import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DATA } from '../../node/setup';
import { RetrievalEngine } from '../engine';
import { readSquad } from '../eval/squad';
import type { EvalSet } from '../eval/dataset';
import type { StrategyName } from '../retrieve/params';
import { ApproxTokenCounter } from '../segment/tokens';
import { exportBundle, type ExportResult } from './bundle';
import type { BundleFile } from './format';
import { importBundle } from './import';

const squad = JSON.parse(readFileSync(`${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`, 'utf8'));
const STRATEGIES: StrategyName[] = ['sentence', 'window', 'automerge', 'naive'];

let set: EvalSet;
let engine: RetrievalEngine;
let bundle: ExportResult;

beforeAll(async () => {
  set = readSquad(squad, { limitDocs: 3 });
  engine = new RetrievalEngine({ counter: new ApproxTokenCounter() });
  // One by one, as documents dropped in the page are added.
  for (const d of set.docs) engine.addDocuments([d]);
  bundle = await exportBundle(engine, { strategy: 'window', params: { retriever: 'bm25' }, questions: set.questions.slice(0, 3), labVersion: 'test' });
});

const replaced = (files: BundleFile[], name: string, bytes: Uint8Array) => files.map((f) => (f.name === name ? { name, bytes } : f));
const manifestOf = (files: BundleFile[]) => JSON.parse(new TextDecoder().decode(files.find((f) => f.name === 'manifest.json')!.bytes));

/** Every strategy's BM25 blocks and scores for some questions. */
async function answers(e: RetrievalEngine) {
  const out = [];
  for (const q of set.questions.slice(0, 25)) out.push(await e.search(q.question, STRATEGIES, { retriever: 'bm25', topK: 8 }));
  return out;
}

describe('import of a bundle into a fresh corpus', () => {
  it("takes the bundle's BM25 postings for every unit kind and answers exactly as the exporting corpus", async () => {
    const { engine: back, lexicalKinds } = await importBundle(bundle.files, { embedder: null });
    expect(lexicalKinds).toEqual(['sentence', 'leaf', 'chunk', 'packed']);
    expect(back.corpus).toEqual(engine.corpus);
    expect(back.chunks).toEqual(engine.chunks);
    const theirs = await answers(engine);
    expect(theirs.flat().every((r) => r.blocks.length > 0)).toBe(true);
    expect(await answers(back)).toEqual(theirs);
  });

  it('builds the indexes from the text when the postings were made with another analyzer, with the same answers', async () => {
    const m = manifestOf(bundle.files);
    const another = engine.structure.lexical.analyzer === 'words' ? 'stem' : 'words';
    const files = replaced(bundle.files, 'manifest.json', new TextEncoder().encode(JSON.stringify({ ...m, bm25: { ...m.bm25, analyzer: another } })));
    const { engine: back, lexicalKinds } = await importBundle(files, { embedder: null });
    expect(lexicalKinds).toEqual([]);
    expect(await answers(back)).toEqual(await answers(engine));
  });

  it('builds the indexes from the text when the postings do not match the units (checked on a sample), or are corrupt', async () => {
    const m = manifestOf(bundle.files);
    // Another engine's postings under this bundle's checksums: the sample of units analysed here disagrees.
    const other = new RetrievalEngine({ counter: new ApproxTokenCounter() });
    other.addDocuments(readSquad(squad, { limitDocs: 4 }).docs.slice(1));
    const foreign = await exportBundle(other, { strategy: 'window', params: { retriever: 'bm25' }, questions: [], labVersion: 'test' });
    const post = foreign.files.find((f) => f.name === 'parquet/postings.parquet')!;
    const entry = manifestOf(foreign.files).files.find((f: { name: string }) => f.name === 'parquet/postings.parquet');
    const withForeign = replaced(
      replaced(bundle.files, 'parquet/postings.parquet', post.bytes),
      'manifest.json',
      new TextEncoder().encode(JSON.stringify({ ...m, files: m.files.map((f: { name: string }) => (f.name === entry.name ? entry : f)) })),
    );
    const a = await importBundle(withForeign, { embedder: null });
    expect(a.lexicalKinds).toEqual([]);
    expect(await answers(a.engine)).toEqual(await answers(engine));

    const broken = bundle.files.find((f) => f.name === 'parquet/postings.parquet')!.bytes.slice();
    for (let i = 200; i < 300; i++) broken[i] = broken[i]! ^ 0x5a;
    const b = await importBundle(replaced(bundle.files, 'parquet/postings.parquet', broken), { embedder: null });
    expect(b.lexicalKinds).toEqual([]);
    expect(b.engine.corpus).toEqual(engine.corpus);
  });

  it('adding to an open corpus, builds the indexes from the text', async () => {
    const open = new RetrievalEngine({ counter: new ApproxTokenCounter() });
    open.addDocuments(set.docs.slice(0, 1));
    const { engine: both, lexicalKinds, duplicates } = await importBundle(bundle.files, { embedder: null, into: open });
    expect(duplicates.map((d) => d.id)).toEqual([set.docs[0]!.id]);
    expect(lexicalKinds).toEqual([]);
    expect(both.corpus.sentences).toEqual(engine.corpus.sentences);
    expect(await answers(both)).toEqual(await answers(engine));
  });
});

describe('cancelling an import', () => {
  /** The bundle's files as reads; `onRead(name)` runs when the import asks for a file. */
  const reads = (files: BundleFile[], onRead: (name: string) => void) => {
    const m = new Map(files.map((f) => [f.name, Promise.resolve(f.bytes)]));
    return { get: (name: string) => (onRead(name), m.get(name)) } as unknown as ReadonlyMap<string, Promise<Uint8Array>>;
  };

  it('stops with the AbortError at the next step, and the open corpus is as it was', async () => {
    const open = new RetrievalEngine({ counter: new ApproxTokenCounter() });
    open.addDocuments([set.docs[0]!]);
    const before = { corpus: structuredClone(open.corpus), chunks: open.chunks.length };
    const controller = new AbortController();
    // The user cancels while the tables are being read.
    const files = reads(bundle.files, (name) => {
      if (name === 'parquet/sentences.parquet') controller.abort();
    });
    await expect(importBundle(files, { embedder: null, into: open, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(open.corpus).toEqual(before.corpus);
    expect(open.chunks.length).toBe(before.chunks);
  });

  it('cancelled before it starts, it reads nothing but the manifest', async () => {
    const controller = new AbortController();
    controller.abort();
    const asked: string[] = [];
    await expect(importBundle(reads(bundle.files, (name) => asked.push(name)), { embedder: null, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(asked).toEqual(['manifest.json']);
  });
});
