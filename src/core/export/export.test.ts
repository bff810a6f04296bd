import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupNode, SHARED_DATA } from '../../node/setup';
import { createPglite, pgliteDatabase } from '../../node/pglite-verify';
import { DocumentBuilder } from '../documents/builder';
import type { Embedder } from '../embed/embedder';
import { TransformersEmbedder } from '../embed/transformers-embedder';
import { RetrievalEngine } from '../engine';
import { readSquad } from '../eval/squad';
import type { EvalSet } from '../eval/dataset';
import type { StructureParams } from '../retrieve/params';
import type { Document } from '../types';
import { exportBundle, type ExportResult } from './bundle';
import { splitCopyScript } from './copy-reader';
import { BundleError, type BundleFile } from './format';
import type { Golden } from './golden';
import { importBundle } from './import';
import { fromBase64 } from './bytes';
import { splitCopyBytes } from './copy-reader';
import { readParquet } from './parquet';
import { loadBundleSql, readVerifiable, verifyBundle, type VerifyReport } from './verify';
import { retrievalParams } from '../retrieve/params';
import { analyze } from '../index/analyzer';
import { DEFAULT_LEXICAL, LexicalIndex, type LexicalParams } from '../index/lexical-index';
import { buildPostings, scorePostings } from './postings';

const SQUAD = `${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`;

let embedder: TransformersEmbedder;
let squadJson: { data: { title: string; paragraphs: { context: string }[] }[] };
let set: EvalSet;
let engine: RetrievalEngine;
let bundle: ExportResult;
/** One PGlite for the file: its start costs seconds, a clean schema milliseconds. */
let pg: PGlite;

/** The bundle loaded into this file's PGlite, from an empty raglab schema, and checked against its golden run. */
async function verifyHere(files: BundleFile[]): Promise<VerifyReport> {
  await pg.exec('DROP SCHEMA IF EXISTS raglab CASCADE;');
  return verifyBundle(await readVerifiable(files), pgliteDatabase(pg));
}

async function embedded(docs: Document[], structure: Partial<StructureParams> = {}): Promise<RetrievalEngine> {
  const e = new RetrievalEngine({ embedder, structure });
  e.addDocuments(docs);
  for (const kind of ['sentence', 'leaf', 'chunk', 'packed'] as const) await e.embedUnits(kind);
  return e;
}

const file = (files: BundleFile[], name: string) => files.find((f) => f.name === name)!;
const golden = (files: BundleFile[]): Golden => JSON.parse(new TextDecoder().decode(file(files, 'golden.json').bytes));

beforeAll(async () => {
  setupNode();
  pg = await createPglite();
  embedder = await TransformersEmbedder.load({ model: 'rag-lab/test-embedder' });
  squadJson = JSON.parse(readFileSync(SQUAD, 'utf8'));
  set = readSquad(squadJson, { limitDocs: 2 });
  engine = await embedded(set.docs);
  bundle = await exportBundle(engine, {
    strategy: 'window',
    params: { topK: 10, budgetTokens: 256, window: { before: 3, after: 2, bySection: false } },
    questions: set.questions.slice(0, 8),
    labVersion: 'test',
  });
});
afterAll(() => pg?.close());

describe('export → PostgreSQL (PGlite + pgvector) → the golden run', () => {
  it('reproduces ranked ids, blocks, scores and metrics for BM25, vector and hybrid over every SQL strategy', async () => {
    const report = await verifyHere(bundle.files);
    expect(report.runs.map((r) => `${r.retriever}/${r.strategy}`)).toEqual(
      ['bm25', 'vector', 'hybrid'].flatMap((r) => ['naive', 'sentence', 'window', 'automerge'].map((s) => `${r}/${s}`)),
    );
    for (const r of report.runs) {
      expect(r.firstDifference, `${r.retriever}/${r.strategy}`).toBeNull();
      expect(r.sameUnits).toBe(8);
      expect(r.sameBlocks).toBe(8);
      expect(r.maxScoreDiff).toBeLessThanOrEqual(1e-5);
      expect(r.metricsSql).toEqual(r.metricsLab);
    }
    expect(report.agree).toBe(true);
    // Not a vacuous agreement: blocks were handed over, merged, cut by the budget and fused from both lists.
    const g = golden(bundle.files);
    const run = (r: string, s: string) => g.runs.find((x) => x.retriever === r && x.strategy === s)!;
    expect(run('hybrid', 'window').results.every((q) => q.blocks.length > 0)).toBe(true);
    expect(run('hybrid', 'window').results.some((q) => q.blocks.some((b) => b.sentences[1] - b.sentences[0] > 1))).toBe(true);
    expect(run('bm25', 'window').results.every((q) => q.blocks.reduce((n, b) => n + b.tokens, 0) <= 256)).toBe(true);
    expect(run('hybrid', 'sentence').metrics!.answerInContext).toBeGreaterThan(0);
  });

  it('agrees on structured documents: headers with title, section and pages, section-bounded windows, a filter, a tight budget', async () => {
    const docs = squadJson.data.slice(0, 2).map((a, ai) => {
      const b = new DocumentBuilder();
      a.paragraphs.slice(0, 12).forEach((p, pi) => {
        if (pi % 4 === 0) b.heading(1, `Part ${pi / 4} of ${a.title}`);
        if (pi % 2 === 0) b.heading(2, `Sub ${pi}`);
        b.beginPage();
        b.block(p.context);
        // Text past the Basic Multilingual Plane and COPY's special characters must survive SQL as they are.
        if (pi === 1) b.rawBlock('Emoji 😀 before a back\\slash and a\ttab. The 🏛 museum holds the crown of the kings.');
        b.endPage(pi + 1);
      });
      return b.build({ id: `doc-${ai}`, title: a.title, meta: { fileName: `${a.title}.pdf`, size: 1, format: 'pdf' }, tags: ['demo'] });
    });
    const e = await embedded(docs, { chunkLevels: [512, 128, 32], headers: { enabled: true, title: true, section: true, fields: ['page', 'tags'] } });
    const questions = [...set.questions.slice(0, 4).map((q) => ({ question: q.question })), { question: 'Which museum holds the crown of the kings?' }];
    const r = await exportBundle(e, {
      strategy: 'automerge',
      params: { topK: 8, budgetTokens: 200, window: { before: 2, after: 4, bySection: true }, merge: { threshold: 0.3 }, filters: { section: 'part 0' }, rrf: { c: 20, weights: { bm25: 0.3, vector: 0.7 } } },
      questions,
    });
    const report = await verifyHere(r.files);
    for (const run of report.runs) expect(run.firstDifference, `${run.retriever}/${run.strategy}`).toBeNull();
    expect(report.agree).toBe(true);
    const g = golden(r.files);
    // The filter held: every block lies in part 0 of its document.
    const blocks = g.runs.flatMap((x) => x.results.flatMap((q) => q.blocks));
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(b.chars[0]).toBeLessThan(docs[b.doc]!.sections[1]!.end);
    expect(blocks.some((b) => e.corpus.docs[b.doc]!.text.slice(b.chars[0], b.chars[1]).includes('🏛 museum'))).toBe(true);
    // Parents replaced their leaves somewhere: merging was exercised, not only single leaves.
    const leafSpans = new Set(e.hierarchy.leaves.map((id) => `${e.hierarchy.nodes[id]!.start}-${e.hierarchy.nodes[id]!.end}`));
    const merged = g.runs.filter((x) => x.strategy === 'automerge').flatMap((x) => x.results.flatMap((q) => q.blocks)).filter((b) => !leafSpans.has(`${b.sentences[0]}-${b.sentences[1]}`));
    expect(merged.length).toBeGreaterThan(0);
  });

  it('writes data that psql loads as is: one COPY … FROM stdin block per table, each ending in \\.', () => {
    const sql = new TextDecoder().decode(file(bundle.files, 'postgres/data.sql').bytes);
    const parts = splitCopyScript(sql).filter((p) => p.kind === 'copy');
    expect(parts.map((p) => (p.kind === 'copy' ? p.statement.split(' ')[1] : ''))).toEqual([
      'raglab.config', 'raglab.documents', 'raglab.sections', 'raglab.pages', 'raglab.sentences', 'raglab.units', 'raglab.headers', 'raglab.vectors', 'raglab.postings', 'raglab.unit_lengths', 'raglab.bm25_stats',
    ]);
    const sentences = parts[4]!;
    expect(sentences.kind === 'copy' && sentences.data.split('\n').length - 1).toBe(engine.corpus.sentences.length);
    expect(sql.match(/^\\\.$/gm)!.length).toBe(11);
  });
});

describe('BM25 through the export, for each analyzer and variant', () => {
  const choices: LexicalParams[] = [
    { analyzer: 'stem', bm25: 'lucene' },
    { analyzer: 'words', bm25: 'bm25plus' },
    { analyzer: 'stem+stop', bm25: 'bm25plus' },
    { analyzer: 'words', bm25: 'lucene' },
  ];
  for (const lexical of choices) {
    it(`${lexical.analyzer} · ${lexical.bm25}: PGlite reproduces the lab's BM25 and hybrid ids, blocks and scores on the SQuAD slice`, async () => {
      const e = await embedded(set.docs, { lexical });
      const r = await exportBundle(e, {
        strategy: 'window',
        params: { topK: 10, budgetTokens: 256, window: { before: 3, after: 2, bySection: false } },
        questions: set.questions.slice(0, 8),
        retrievers: ['bm25', 'hybrid'],
      });
      const report = await verifyHere(r.files);
      expect(report.runs.map((x) => `${x.retriever}/${x.strategy}`)).toEqual(['bm25', 'hybrid'].flatMap((x) => ['naive', 'sentence', 'window', 'automerge'].map((st) => `${x}/${st}`)));
      for (const run of report.runs) {
        expect(run.firstDifference, `${run.retriever}/${run.strategy}`).toBeNull();
        expect(run.sameUnits).toBe(8);
        expect(run.sameBlocks).toBe(8);
        expect(run.maxScoreDiff).toBeLessThanOrEqual(1e-5);
      }
      expect(report.agree).toBe(true);
      const g = golden(r.files);
      // The golden terms are the analyzer's: stemmed where it stems.
      for (const q of g.questions) expect(q.terms).toEqual(analyze(q.question, q.language, lexical.analyzer).filter(Boolean));
      // The golden BM25 scores are the lab's index's own.
      const idx = e.lexicalIndex('sentence');
      const run = g.runs.find((x) => x.retriever === 'bm25' && x.strategy === 'sentence')!;
      g.questions.forEach((q, i) => expect(run.results[i]!.units).toEqual(idx.search(q.question, 10, undefined, q.language)));
      const m = JSON.parse(new TextDecoder().decode(file(r.files, 'manifest.json').bytes));
      expect(m.bm25).toMatchObject({ variant: lexical.bm25, analyzer: lexical.analyzer, languages: ['en'] });
      expect(m.structure.lexical).toEqual(lexical);
    });
  }

  it('the manifest, unit lengths and statistics say how Lucene BM25 counts: tokens, k1 0.9, b 0.4, no δ', async () => {
    const lexical = { analyzer: 'stem', bm25: 'lucene' } as const;
    const e = await embedded(set.docs.slice(0, 1), { lexical });
    const r = await exportBundle(e, { strategy: 'sentence', questions: [{ question: 'Which teams played in the games?' }], retrievers: ['bm25'] });
    const m = JSON.parse(new TextDecoder().decode(file(r.files, 'manifest.json').bytes));
    expect(m.bm25).toMatchObject({ variant: 'lucene', label: 'Lucene BM25 · stem', k1: 0.9, b: 0.4, delta: 0, analyzer: 'stem' });
    expect(m.bm25.length).toMatch(/number of TOKENS/);
    expect(m.bm25.analysis).toMatch(/en: stemmed \(Porter en\)/);
    expect(golden(r.files).questions[0]!.terms).toEqual(['which', 'team', 'plai', 'in', 'the', 'game']);
    const lines = (name: string) => {
      const block = splitCopyBytes(file(r.files, 'postgres/data.sql').bytes).find((p) => p.kind === 'copy' && p.statement.startsWith(`COPY raglab.${name} `))!;
      return new TextDecoder().decode(block.kind === 'copy' ? block.data : new Uint8Array()).split('\n').filter(Boolean).map((l) => l.split('\t'));
    };
    const idx = e.lexicalIndex('sentence');
    const sentenceLengths = lines('unit_lengths').filter((l) => l[0] === 'sentence').map((l) => Number(l[2]));
    expect(sentenceLengths).toEqual([...idx.lengths()]);
    const stats = lines('bm25_stats').find((l) => l[0] === 'sentence')!;
    const total = sentenceLengths.reduce((a, b) => a + b, 0);
    expect(stats.slice(1).map(Number)).toEqual([sentenceLengths.length, total / sentenceLengths.length, 0.9, 0.4, 0]);
    // Postings rows (term, unit, tf) and lengths are what the analyzer gives each unit's text, derived independently.
    for (const kind of ['sentence', 'leaf', 'chunk', 'packed'] as const) {
      const ref = buildPostings(e.unitCount(kind), (id) => analyze(e.unitText(kind, id), 'en', 'stem'), 'lucene');
      const rows = lines('postings').filter((l) => l[0] === kind).map((l) => `${l[1]}|${l[2]}|${l[3]}`);
      expect(rows, kind).toEqual([...ref.terms].flatMap(([t, p]) => p.units.map((u, i) => `${t}|${u}|${p.tf[i]}`)));
      expect(lines('unit_lengths').filter((l) => l[0] === kind).map((l) => Number(l[2])), kind).toEqual([...ref.lengths]);
      expect(Number(lines('bm25_stats').find((l) => l[0] === kind)![2]), kind).toBe(ref.avgLength);
    }
    const fw = (n: string) => new TextDecoder().decode(file(r.files, n).bytes);
    expect(fw('frameworks/haystack/pipelines.yaml')).toMatch(/Lucene's BM25Similarity \(k1 0\.9, b 0\.4, length in tokens\)[\s\S]*Elasticsearch and OpenSearch[\s\S]*en: `english`/);
    expect(fw('frameworks/llamaindex/pipeline.py')).toMatch(/"similarity": \{"type": "BM25", "k1": 0\.9, "b": 0\.4\}/);
  });

  it('scores postings by hand-computed Lucene BM25 and BM25+ values', () => {
    // Units: "a b a" (3 tokens, 2 distinct), "b c" (2, 2), "c" (1, 1); N = 3.
    const units = [['a', 'b', 'a'], ['b', 'c'], ['c']];
    const lucene = buildPostings(3, (i) => units[i]!, 'lucene');
    expect([...lucene.lengths]).toEqual([3, 2, 1]);
    expect(lucene.avgLength).toBe(2);
    // idf(a) = ln(1 + 2.5/1.5); idf(b) = ln(1 + 1.5/2.5); unit 0: a tf 2, b tf 1, len 3 → norm 0.9·(0.6 + 0.4·1.5) = 1.08.
    const idfA = Math.log(1 + 2.5 / 1.5);
    const idfB = Math.log(1 + 1.5 / 2.5);
    const u0 = (idfA * 2) / (2 + 1.08) + (idfB * 1) / (1 + 1.08);
    const u1 = (idfB * 1) / (1 + 0.9 * (0.6 + 0.4 * 1));
    const got = scorePostings(lucene, ['a', 'b'], 10);
    expect(got.map((h) => h.id)).toEqual([0, 1]);
    expect(got[0]!.score).toBeCloseTo(u0, 12);
    expect(got[1]!.score).toBeCloseTo(u1, 12);
    expect(got[0]!.score).toBeCloseTo(0.8628654, 6);
    // The lab's Lucene index gives the very same scores.
    const idx = new LexicalIndex({ analyzer: 'words', bm25: 'lucene' });
    idx.add(['a b a', 'b c', 'c']);
    expect(idx.search('a b', 10)).toEqual(got);
    // BM25+ (k1 1.2, b 0.7, δ 0.5), length in distinct terms (2, 2, 1; running mean 5/3), × matched terms.
    const plus = buildPostings(3, (i) => units[i]!, 'bm25plus');
    expect([...plus.lengths]).toEqual([2, 2, 1]);
    const norm = (len: number) => 1.2 * (1 - 0.7 + (0.7 * len) / plus.avgLength);
    const p0 = (idfA * (0.5 + (2 * 2.2) / (2 + norm(2))) + idfB * (0.5 + 2.2 / (1 + norm(2)))) * 2;
    const p1 = idfB * (0.5 + 2.2 / (1 + norm(2)));
    const gotPlus = scorePostings(plus, ['a', 'b'], 10);
    expect(gotPlus.map((h) => h.id)).toEqual([0, 1]);
    expect(gotPlus[0]!.score).toBeCloseTo(p0, 12);
    expect(gotPlus[1]!.score).toBeCloseTo(p1, 12);
    const idxPlus = new LexicalIndex({ analyzer: 'words', bm25: 'bm25plus' });
    idxPlus.add(['a b a', 'b c', 'c']);
    idxPlus.search('a b', 10).forEach((h, i) => expect(h.score).toBeCloseTo(gotPlus[i]!.score, 12));
  });

  it('an engine without a lexical choice exports the lab default', () => {
    expect(engine.structure.lexical).toEqual(DEFAULT_LEXICAL);
    expect(bundle.manifest.bm25).toMatchObject({ variant: DEFAULT_LEXICAL.bm25, analyzer: DEFAULT_LEXICAL.analyzer });
  });
});

describe('the vectors as text and bytes', () => {
  const UNIT_KINDS = ['sentence', 'leaf', 'chunk', 'packed'] as const;
  const vectorOf = (kind: (typeof UNIT_KINDS)[number], unit: number) => {
    const all = engine.exportVectors()[kind]!;
    const dim = embedder.dim;
    return all.subarray(unit * dim, (unit + 1) * dim);
  };
  const bytesOf = (f: Float32Array) => Buffer.from(f.buffer, f.byteOffset, f.byteLength);

  it('PostgreSQL reads back every vector of data.sql as its very float32 bytes, loaded in small COPY pieces', async () => {
    await pg.exec('DROP SCHEMA IF EXISTS raglab CASCADE;');
    const files = new Map(bundle.files.map((f) => [f.name, f.bytes]));
    // 64 KB pieces: the data goes in as many COPY calls, as a 100k-sentence bundle's does.
    await loadBundleSql(pgliteDatabase(pg), files, 64 << 10);
    const rows = (await pg.query<{ kind: (typeof UNIT_KINDS)[number]; unit: number; e: number[] }>('SELECT kind, unit, embedding::real[] AS e FROM raglab.vectors ORDER BY kind, unit')).rows;
    expect(rows.length).toBe(UNIT_KINDS.reduce((n, k) => n + engine.unitCount(k), 0));
    for (const r of rows) expect(bytesOf(Float32Array.from(r.e)).equals(bytesOf(vectorOf(r.kind, r.unit))), `${r.kind} ${r.unit}`).toBe(true);
    const counts = (await pg.query<{ n: number }>('SELECT count(*)::integer AS n FROM raglab.sentences')).rows[0]!.n;
    expect(counts).toBe(engine.corpus.sentences.length);
  });

  it('the SQL text of each vector is the shortest that reads back: parsed, it is the same float32 bytes', () => {
    const parts = splitCopyBytes(file(bundle.files, 'postgres/data.sql').bytes);
    const block = parts.find((p) => p.kind === 'copy' && p.statement.startsWith('COPY raglab.vectors'))!;
    const lines = new TextDecoder().decode(block.kind === 'copy' ? block.data : new Uint8Array()).split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    let chars = 0;
    let values = 0;
    for (const line of lines) {
      const [kind, unit, text] = line.split('\t') as [(typeof UNIT_KINDS)[number], string, string];
      const parsed = Float32Array.from(text.slice(1, -1).split(',').map(Number));
      expect(bytesOf(parsed).equals(bytesOf(vectorOf(kind, Number(unit))))).toBe(true);
      for (const t of text.slice(1, -1).split(',')) {
        chars += t.length;
        values++;
        // No shorter text of the same value: one significant digit fewer no longer reads back.
        const digits = t.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '');
        if (digits.length > 1) expect(Math.fround(Number(Number(t).toPrecision(digits.length - 1)))).not.toBe(Math.fround(Number(t)));
      }
    }
    // Shorter than the 9 significant digits written before (about 12.6 characters a value).
    expect(chars / values).toBeLessThan(11.5);
  });

  it('JSONL rows are the JSON of the row objects, and their vectors the same float32 bytes', () => {
    const manifest = JSON.parse(new TextDecoder().decode(file(bundle.files, 'manifest.json').bytes));
    for (const f of bundle.files.filter((x) => x.name.startsWith('jsonl/'))) {
      const lines = new TextDecoder().decode(f.bytes).split('\n');
      expect(lines.pop()).toBe('');
      const table = f.name.slice('jsonl/'.length, -'.jsonl'.length);
      expect(lines.length, f.name).toBe(manifest.tables[table].rows);
      for (const line of lines) expect(JSON.stringify(JSON.parse(line))).toBe(line);
    }
    const vectors = new TextDecoder().decode(file(bundle.files, 'jsonl/vectors.jsonl').bytes).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    for (const v of vectors) expect(Buffer.from(fromBase64(v.embedding)).equals(bytesOf(vectorOf(v.kind, v.unit)))).toBe(true);
  });
});

describe('import', () => {
  it('gives back the same corpus and vectors, byte for byte', async () => {
    const { engine: back, added, duplicates } = await importBundle(bundle.files, { embedder });
    expect(added.length).toBe(2);
    expect(duplicates).toEqual([]);
    expect(back.corpus.sentences).toEqual(engine.corpus.sentences);
    expect(back.hierarchy).toEqual(engine.hierarchy);
    expect(back.chunks).toEqual(engine.chunks);
    expect(back.unitCount('packed')).toBe(engine.unitCount('packed'));
    const a = engine.exportVectors();
    const b = back.exportVectors();
    for (const kind of ['sentence', 'leaf', 'chunk', 'packed'] as const) {
      expect(Buffer.from(b[kind]!.buffer, b[kind]!.byteOffset, b[kind]!.byteLength).equals(Buffer.from(a[kind]!.buffer, a[kind]!.byteOffset, a[kind]!.byteLength))).toBe(true);
    }
    const again = await exportBundle(back, { strategy: 'window', params: { topK: 10, budgetTokens: 256, window: { before: 3, after: 2, bySection: false } }, questions: set.questions.slice(0, 8), labVersion: 'test' });
    expect(again.files.map((f) => f.name)).toEqual(bundle.files.map((f) => f.name));
    for (const f of again.files) expect(Buffer.from(f.bytes).equals(Buffer.from(file(bundle.files, f.name).bytes)), f.name).toBe(true);
  });

  it('adds to an open corpus without touching it, skipping documents it already has', async () => {
    const one = await embedded(set.docs.slice(0, 1));
    const sentencesBefore = one.corpus.sentences.length;
    const { engine: both, added, duplicates } = await importBundle(bundle.files, { embedder, into: one });
    expect(added.map((d) => d.id)).toEqual([set.docs[1]!.id]);
    expect(duplicates.map((d) => d.id)).toEqual([set.docs[0]!.id]);
    expect(one.corpus.docs.length).toBe(1);
    expect(one.corpus.sentences.length).toBe(sentencesBefore);
    expect(both.corpus.sentences).toEqual(engine.corpus.sentences);
    const a = engine.exportVectors().sentence!;
    const b = both.exportVectors().sentence!;
    expect(Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(Buffer.from(a.buffer, a.byteOffset, a.byteLength))).toBe(true);
  });

  describe('refuses a bad bundle with one clear message and changes nothing', () => {
    const replace = (name: string, bytes: Uint8Array | null) => {
      const out = bundle.files.filter((f) => f.name !== name);
      return bytes ? [...out, { name, bytes }] : out;
    };
    const manifestWith = (patch: Record<string, unknown>) => {
      const m = JSON.parse(new TextDecoder().decode(file(bundle.files, 'manifest.json').bytes));
      return replace('manifest.json', new TextEncoder().encode(JSON.stringify({ ...m, ...patch })));
    };
    const units = () => bundle.files.find((f) => f.name === 'parquet/units.parquet')!.bytes;
    const other: Embedder = { model: 'Xenova/all-MiniLM-L6-v2', dim: 384, maxTokens: 512, isTestModel: false, counter: { name: 'x', count: () => 1 }, embed: async () => ({ vectors: new Float32Array(), truncated: [] }) };

    const cases: [string, () => Promise<BundleFile[]> | BundleFile[], RegExp, Embedder | 'none' | null][] = [
      ['another embedding model', () => bundle.files, /made with rag-lab\/test-embedder \(128 dimensions\), but the loaded embedder is Xenova\/all-MiniLM-L6-v2 \(384 dimensions\)/, other],
      ['no embedding model', () => bundle.files, /made with rag-lab\/test-embedder \(128 dimensions\), but no embedding model is loaded/, 'none'],
      ['an unknown format version', () => manifestWith({ version: 7 }), /unknown bundle format version 7: this lab reads version 1/, null],
      ['no manifest', () => replace('manifest.json', null), /manifest\.json is missing/, null],
      ['a truncated manifest', () => replace('manifest.json', file(bundle.files, 'manifest.json').bytes.slice(0, 200)), /manifest\.json is truncated or corrupt/, null],
      ['a missing file', () => replace('parquet/sentences.parquet', null), /incomplete: parquet\/sentences\.parquet is missing/, null],
      ['a truncated Parquet file', () => replace('parquet/sentences.parquet', file(bundle.files, 'parquet/sentences.parquet').bytes.slice(0, 5000)), /parquet\/sentences\.parquet is truncated \(5000 of \d+ bytes\)/, null],
      [
        'a corrupt Parquet file',
        () => {
          const b = file(bundle.files, 'parquet/vectors.parquet').bytes.slice();
          for (let i = 1000; i < 1100; i++) b[i] = b[i]! ^ 0x5a;
          return replace('parquet/vectors.parquet', b);
        },
        /parquet\/vectors\.parquet is corrupt/,
        null,
      ],
      [
        'a Parquet file without a column',
        async () => {
          const t = await readParquet('units', 'parquet/units.parquet', units());
          const cols = Object.keys(t.columns).filter((c) => c !== 'parent');
          const bytes = new Uint8Array(parquetWriteBuffer({ columnData: cols.map((c) => ({ name: c, data: t.columns[c]! as never })) }));
          return replace('parquet/units.parquet', bytes);
        },
        /parquet\/units\.parquet has no column "parent"/,
        null,
      ],
    ];
    // One open corpus for these cases: each checks it is left as it found it.
    let open: RetrievalEngine;
    beforeAll(async () => {
      open = await embedded(set.docs.slice(1, 2));
    });
    for (const [what, make, message, emb] of cases) {
      it(what, async () => {
        const before = { docs: open.corpus.docs.length, sentences: open.corpus.sentences.length, vectors: open.exportVectors().sentence!.slice() };
        const files = await make();
        const err = await importBundle(files, { embedder: emb === 'none' ? null : (emb ?? embedder), into: open }).catch((e) => e);
        expect(err).toBeInstanceOf(BundleError);
        expect(err.message).toMatch(message);
        expect(open.corpus.docs.length).toBe(before.docs);
        expect(open.corpus.sentences.length).toBe(before.sentences);
        expect(open.exportVectors().sentence).toEqual(before.vectors);
      });
    }
  });
});

describe('generated framework code', () => {
  it("LangChain.js's EnsembleRetriever fusion, run on the lab's BM25 and vector lists, gives the lab's hybrid order", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-lab-langchain-'));
    try {
      writeFileSync(join(dir, 'fusion.mjs'), file(bundle.files, 'frameworks/langchain/fusion.mjs').bytes);
      const { weightedReciprocalRank, RRF } = await import(pathToFileURL(join(dir, 'fusion.mjs')).href);
      expect(RRF).toEqual({ c: 60, weights: [0.5, 0.5], topK: 10, fetchK: 20 });
      const g = golden(bundle.files);
      const hybrid = g.runs.find((r) => r.retriever === 'hybrid' && r.strategy === 'sentence')!;
      const p = retrievalParams(JSON.parse(new TextDecoder().decode(file(bundle.files, 'manifest.json').bytes)).params);
      for (const [i, q] of g.questions.entries()) {
        const list = async (retriever: 'bm25' | 'vector') => (await engine.candidates(q.question, 'sentence', { ...p, retriever, topK: RRF.fetchK })).candidates.map((c) => ({ id: c.id }));
        const fused: { id: number; score: number }[] = weightedReciprocalRank([await list('bm25'), await list('vector')]);
        expect(fused.map((d) => d.id)).toEqual(hybrid.results[i]!.units.map((u) => u.id));
        fused.forEach((d, j) => expect(d.score).toBeCloseTo(hybrid.results[i]!.units[j]!.score, 12));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says beside the tuned values where Haystack and LlamaIndex count differently, and which targets the tests execute', () => {
    const text = (n: string) => new TextDecoder().decode(file(bundle.files, n).bytes);
    expect(text('frameworks/haystack/pipelines.yaml')).toMatch(/join_mode: reciprocal_rank_fusion[\s\S]*weights: \[0\.500000, 0\.500000\]/);
    expect(text('frameworks/haystack/pipelines.yaml')).toMatch(/ranks from 0 with k = 61/);
    expect(text('frameworks/llamaindex/pipeline.py')).toMatch(/ranks from 0 with k fixed at 60/);
    const m = JSON.parse(text('manifest.json'));
    expect(m.targets.filter((t: { status: string }) => t.status === 'generated only').map((t: { files: string[] }) => t.files[0])).toEqual([
      'frameworks/langchain/retriever.mjs',
      'frameworks/haystack/pipelines.yaml',
      'frameworks/llamaindex/pipeline.py',
    ]);
  });
});
