import { beforeAll, describe, expect, it } from 'vitest';
import { verifyInPglite } from '../../node/pglite-verify';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { retrievalParams } from '../retrieve/params';
import { exportBundle, type ExportResult } from './bundle';
import { CONTEXTS_FILE } from './contexts';
import { BundleError, MANIFEST, type BundleFile } from './format';
import type { Golden } from './golden';
import { hashEmbedder } from './hostile-fixture';
import { importBundle } from './import';
import { BUNDLE_KINDS } from './tables';

const embedder = hashEmbedder();
const text = (files: BundleFile[], name: string) => new TextDecoder().decode(files.find((f) => f.name === name)!.bytes);
const jsonl = (files: BundleFile[], table: string) => text(files, `jsonl/${table}.jsonl`).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

let engine: RetrievalEngine;
let bundle: ExportResult;
/** The sentence whose context alone holds "zeppelin". */
let zeppelin: number;

beforeAll(async () => {
  engine = new RetrievalEngine({ embedder });
  engine.addDocuments([
    documentFromText('The hangar was built in 1929. It housed the largest airship of its time. Crowds came to watch it land. The field is a park today.', 'hangar.txt'),
    documentFromText('Stars differ in brightness. Some distant objects outshine whole galaxies. Astronomers measure their redshift.', 'sky.txt'),
  ]);
  for (const kind of BUNDLE_KINDS) await engine.embedUnits(kind);
  const ctx = (kind: 'sentence' | 'leaf' | 'chunk', id: number, t: string) => engine.contexts.store.set(engine.contexts.key(kind, id), { text: t, source: 'model test' });
  zeppelin = 1;
  ctx('sentence', 1, 'The Graf Zeppelin at the Lakehurst hangar.');
  ctx('sentence', 5, 'Quasars, the brightest objects in the sky.');
  ctx('leaf', 0, 'A hangar history with a zeppelin.');
  ctx('chunk', 1, 'Quasar astronomy.');
  engine.setContextual(true);
  for (const kind of BUNDLE_KINDS) await engine.contexts.embed(kind);
  bundle = await exportBundle(engine, {
    strategy: 'window',
    params: { topK: 5, budgetTokens: 200 },
    questions: [
      { id: 'q1', question: 'zeppelin hangar' },
      { id: 'q2', question: 'quasar brightness' },
      { id: 'q3', question: 'park today' },
    ],
    labVersion: 'test',
  });
});

describe('a bundle with contextual retrieval on', () => {
  it('PostgreSQL ranks as the lab did: BM25 over the contextualised postings, vectors the contextual ones', async () => {
    const report = await verifyInPglite(bundle.files);
    for (const r of report.runs) expect(r.firstDifference, `${r.retriever}/${r.strategy}`).toBeNull();
    expect(report.agree).toBe(true);
    // Not vacuous: BM25 finds the sentence by a word only its context holds.
    const golden = JSON.parse(text(bundle.files, 'golden.json')) as Golden;
    const run = golden.runs.find((r) => r.retriever === 'bm25' && r.strategy === 'sentence')!;
    expect(run.results[0]!.blocks[0]!.sentences).toEqual([zeppelin, zeppelin + 1]);
  });

  it('its postings are the terms of header-less context + text, and its vectors those of that same text', async () => {
    const postings = jsonl(bundle.files, 'postings').filter((p) => p.kind === 'sentence' && p.term === 'zeppelin');
    expect(postings.map((p) => [p.unit, p.tf])).toEqual([[zeppelin, 1]]);
    const vectors = jsonl(bundle.files, 'vectors').filter((v) => v.kind === 'sentence');
    const expected = (await embedder.embed([engine.unitText('sentence', zeppelin, true)])).vectors;
    const row = vectors.find((v) => v.unit === zeppelin)!.embedding as string;
    const bytes = Uint8Array.from(atob(row), (c) => c.charCodeAt(0));
    expect(Array.from(new Float32Array(bytes.buffer))).toEqual(Array.from(expected));
    // A unit without a context keeps its plain vector.
    const plain = (await embedder.embed([engine.unitText('sentence', 0, false)])).vectors;
    const row0 = Uint8Array.from(atob(vectors.find((v) => v.unit === 0)!.embedding as string), (c) => c.charCodeAt(0));
    expect(Array.from(new Float32Array(row0.buffer))).toEqual(Array.from(plain));
  });

  it('carries the contexts and says how they were made and used', () => {
    const manifest = JSON.parse(text(bundle.files, MANIFEST));
    expect(manifest.structure.contextual).toBe(true);
    expect(manifest.contextual).toMatchObject({ file: 'contexts.json', contexts: { sentence: 2, leaf: 1, chunk: 1 }, sources: { 'model test': 4 } });
    expect(manifest.files.some((f: { name: string }) => f.name === CONTEXTS_FILE)).toBe(true);
    const saved = JSON.parse(text(bundle.files, CONTEXTS_FILE));
    expect(saved.entries).toHaveLength(4);
    // The generated framework code says how the contexts were made and how to index with them.
    for (const [name, marker] of [['frameworks/haystack/pipelines.yaml', '#'], ['frameworks/langchain/retriever.mjs', '//'], ['frameworks/llamaindex/pipeline.py', '#']] as const) {
      const code = text(bundle.files, name);
      expect(code, name).toContain(`${marker} Contextual retrieval (Anthropic, 2024) is on: 2 sentence, 1 leaf, 1 chunk units carry a situating context, written by model test (4).`);
      expect(code, name).toContain(`${marker} Index and embed each unit as the lab did: header (if on) + blank line + context + blank line + text;`);
    }
  });

  it('imports with its contexts, its contextual BM25 postings and vectors: nothing to write or embed again', async () => {
    const r = await importBundle(bundle.files, { embedder });
    const e = r.engine;
    expect([e.structure.contextual, e.contexts.store.count(), r.lexicalKinds.includes('sentence')]).toEqual([true, 4, true]);
    expect(e.unitText('sentence', zeppelin)).toBe(engine.unitText('sentence', zeppelin));
    expect(await e.contexts.embed('sentence')).toBe(0);
    const p = retrievalParams({ retriever: 'hybrid', topK: 4 });
    for (const q of ['zeppelin hangar', 'quasar brightness']) {
      const ours = await engine.candidates(q, 'sentence', p);
      const theirs = await e.candidates(q, 'sentence', p);
      expect(theirs.candidates.map((c) => [c.id, c.score])).toEqual(ours.candidates.map((c) => [c.id, c.score]));
    }
  });

  it('a damaged contexts file is refused with its name', async () => {
    const files = bundle.files.map((f) => (f.name === CONTEXTS_FILE ? { ...f, bytes: new TextEncoder().encode('{"format": "nope"}') } : f));
    await expect(importBundle(files, { embedder })).rejects.toThrow(new BundleError("contexts.json is corrupt: its checksum differs from the manifest's"));
    const missing = bundle.files.filter((f) => f.name !== CONTEXTS_FILE);
    await expect(importBundle(missing, { embedder })).rejects.toThrow('the bundle is incomplete: contexts.json is missing');
  });
});
