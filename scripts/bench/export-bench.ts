/**
 * Export and import of a bundle at one corpus size, in Node (the same src/core code the
 * page runs). Run by run.ts as
 *   node --expose-gc --import tsx scripts/bench/export-bench.ts --n 100000 --out FILE
 * Corpus: SQuAD dev articles copied to --n sentences with random unit vectors for the three
 * unit kinds (as node-bench.ts); 10 golden questions. Times the whole export (tables,
 * Parquet, JSONL, SQL, golden run, frameworks), then the import of the bundle into a fresh
 * engine (no re-embedding), and measures the bundle against raw vector + text bytes.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { documentFromText } from '../../src/core/documents/load';
import { RetrievalEngine } from '../../src/core/engine';
import { exportBundle } from '../../src/core/export/bundle';
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

const engine = new RetrievalEngine({ embedder });
let rep = 0;
outer: for (;;) {
  for (const a of squadArticles()) {
    engine.addDocuments([documentFromText(articleCopy(a, rep), `${a.title} ${rep}.md`, 'md')]);
    if (engine.corpus.sentences.length >= N) break outer;
  }
  rep++;
}
const kinds: UnitKind[] = ['sentence', 'leaf', 'chunk'];
for (const [i, kind] of kinds.entries()) await engine.importVectors(kind, randomUnits(engine.unitCount(kind), dim, 1000 + i));
say(`corpus: ${engine.corpus.sentences.length} sentences`);

const questions = squadQuestions().slice(0, 10).map((question) => ({ question }));
const t0 = performance.now();
const exported = await exportBundle(engine, { strategy: 'window', params: { retriever: 'hybrid', budgetTokens: 512 }, questions, labVersion: 'bench' });
const exportMs = performance.now() - t0;
say(`exported in ${(exportMs / 1000).toFixed(1)} s`);

const bytesOf = (pred: (name: string) => boolean) => exported.files.filter((f) => pred(f.name)).reduce((s, f) => s + f.bytes.length, 0);
const bundleBytes = bytesOf(() => true);
const result = {
  n: engine.corpus.sentences.length,
  exportMs,
  importMs: 0,
  bundleBytes,
  rawBytes: exported.rawBytes,
  ratio: bundleBytes / exported.rawBytes,
  parquetBytes: bytesOf((n) => n.endsWith('.parquet')),
  jsonlBytes: bytesOf((n) => n.endsWith('.jsonl')),
  sqlBytes: bytesOf((n) => n.endsWith('.sql')),
};
const t1 = performance.now();
const imported = await importBundle(exported.files, { embedder });
result.importMs = performance.now() - t1;
if (imported.engine.corpus.sentences.length !== engine.corpus.sentences.length) throw new Error('the import lost sentences');
say(`imported in ${(result.importMs / 1000).toFixed(1)} s`);
writeFileSync(values.out ?? '/dev/stdout', JSON.stringify(result));
