/**
 * Export and import of a bundle at one corpus size, in Node (the same src/core code the
 * page runs). Run by run.ts as
 *   node --expose-gc --import tsx scripts/bench/export-bench.ts --n 100000 --out FILE
 * Corpus: SQuAD dev articles copied to --n sentences with random unit vectors for the four
 * unit kinds a bundle carries (as node-bench.ts); 10 golden questions. First the engine's BM25 indexes are
 * built (as the page has once questions were asked; timed apart as bm25WarmMs), then the
 * whole export is timed (tables, postings, Parquet, JSONL, SQL, golden run, frameworks),
 * then the import of the bundle into a fresh engine (no re-embedding; sentences, units and
 * BM25 postings taken from the bundle) and its first BM25 question. The bundle is
 * measured against raw vector + text bytes, per format too, and the process's peak RSS.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { documentFromText } from '../../src/core/documents/load';
import { RetrievalEngine } from '../../src/core/engine';
import { exportBundle } from '../../src/core/export/bundle';
import { BUNDLE_KINDS } from '../../src/core/export/tables';
import { importBundle } from '../../src/core/export/import';
import type { UnitKind } from '../../src/core/retrieve/params';
import { ApproxTokenCounter } from '../../src/core/segment/tokens';
import { articleCopy, RandomEmbedder, randomUnits, squadArticles, squadQuestions } from './common';

const { values } = parseArgs({ options: { n: { type: 'string' }, out: { type: 'string' } } });
const N = Number(values.n ?? 10000);
const say = (m: string) => process.stderr.write(`[export-bench ${N}] ${m}\n`);
const dim = 384;
// Token counts by the approximate counter: the export's cost, not the tokenizer's, is measured.
const embedder = new RandomEmbedder(new ApproxTokenCounter(), dim);

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
/** CPU time of this process (all its threads, GC helpers included): steadier than wall time on a shared machine. */
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** The corpus, its BM25 warm-up and the export; the engine is left behind for the import. */
async function buildAndExport() {
  const engine = new RetrievalEngine({ embedder });
  // Documents in order until N sentences, added in batches while far from N (an article has far
  // fewer than 1000 sentences, so the corpus is the one adding them one by one gives, sooner).
  const articles = squadArticles();
  let next = 0;
  while (engine.corpus.sentences.length < N) {
    const batch = Math.max(1, Math.floor((N - engine.corpus.sentences.length) / 1000));
    const docs = Array.from({ length: batch }, (_, i) => {
      const k = next + i;
      const a = articles[k % articles.length]!;
      const rep = Math.floor(k / articles.length);
      return documentFromText(articleCopy(a, rep), `${a.title} ${rep}.md`, 'md');
    });
    next += batch;
    engine.addDocuments(docs);
  }
  const kinds: UnitKind[] = [...BUNDLE_KINDS];
  for (const [i, kind] of kinds.entries()) await engine.importVectors(kind, randomUnits(engine.unitCount(kind), dim, 1000 + i));
  say(`corpus: ${engine.corpus.sentences.length} sentences`);

  const questions = squadQuestions().slice(0, 10).map((question) => ({ question }));
  gc();
  const tw = performance.now();
  // One BM25 question per unit kind builds the engine's BM25 indexes, as the page's first questions do.
  await engine.search(questions[0]!.question, ['sentence', 'automerge', 'naive'], { retriever: 'bm25' });
  const bm25WarmMs = performance.now() - tw;
  say(`BM25 indexes built in ${(bm25WarmMs / 1000).toFixed(1)} s`);
  gc();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const bundle = await exportBundle(engine, { strategy: 'window', params: { retriever: 'hybrid', budgetTokens: 512 }, questions, labVersion: 'bench' });
  const exportMs = performance.now() - t0;
  const exportCpuMs = cpuMs(process.cpuUsage(c0));
  say(`exported in ${(exportMs / 1000).toFixed(1)} s (CPU ${(exportCpuMs / 1000).toFixed(1)} s)`);
  return { bundle, exportMs, exportCpuMs, bm25WarmMs, sentences: engine.corpus.sentences.length };
}

// The import goes into a fresh engine, as in a new tab: the exporting engine is garbage by then.
const { bundle: exported, exportMs, exportCpuMs, bm25WarmMs, sentences } = await buildAndExport();

const bytesOf = (pred: (name: string) => boolean) => exported.files.filter((f) => pred(f.name)).reduce((s, f) => s + f.bytes.length, 0);
const bundleBytes = bytesOf(() => true);
const result = {
  n: sentences,
  exportMs,
  exportCpuMs,
  bm25WarmMs,
  importMs: 0,
  importCpuMs: 0,
  /** The first BM25 question over the four unit kinds after the import (what a page waits for its first result). */
  importFirstSearchMs: 0,
  /** Unit kinds whose BM25 index came from the bundle's postings. */
  importLexicalKinds: [] as string[],
  bundleBytes,
  rawBytes: exported.rawBytes,
  ratio: bundleBytes / exported.rawBytes,
  parquetBytes: bytesOf((n) => n.endsWith('.parquet')),
  jsonlBytes: bytesOf((n) => n.endsWith('.jsonl')),
  sqlBytes: bytesOf((n) => n.endsWith('.sql')),
  /** The largest file (a Uint8Array; Node's limit is 4 GiB, readFileSync's 2 GiB). */
  largestFile: exported.files.reduce((a, f) => (f.bytes.length > a.bytes ? { name: f.name, bytes: f.bytes.length } : a), { name: '', bytes: 0 }),
  peakRssBytes: 0,
};
gc();
const t1 = performance.now();
const c1 = process.cpuUsage();
const imported = await importBundle(exported.files, { embedder });
result.importMs = performance.now() - t1;
result.importCpuMs = cpuMs(process.cpuUsage(c1));
if (imported.engine.corpus.sentences.length !== sentences) throw new Error('the import lost sentences');
say(`imported in ${(result.importMs / 1000).toFixed(1)} s (BM25 from the bundle's postings: ${imported.lexicalKinds.join(', ') || 'none'})`);
// The first question after the import: BM25 over the four unit kinds (indexes taken from the postings, else built now).
const t2 = performance.now();
await imported.engine.search(squadQuestions()[0]!, ['sentence', 'automerge', 'naive', 'packed'], { retriever: 'bm25' });
const importFirstSearchMs = performance.now() - t2;
say(`first BM25 question after the import: ${(importFirstSearchMs / 1000).toFixed(2)} s`);
result.importFirstSearchMs = importFirstSearchMs;
result.importLexicalKinds = imported.lexicalKinds;
// maxRSS is in KiB: the whole process (corpus, both engines, the bundle in memory).
result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
writeFileSync(values.out ?? '/dev/stdout', JSON.stringify(result));
