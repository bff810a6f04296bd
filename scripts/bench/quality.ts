/**
 * npm run bench:quality [-- --json FILE] [-- --quick]
 *
 * One table over the shared evaluation data: SQuAD v1.1 whole articles (en), XQuAD
 * (zh, es, de), FaQuAD (pt) and SciFact (BEIR, en) — BM25, the TEST embedder and hybrid
 * RRF, every strategy, at 256 and 512 context tokens. Plus SciFact BM25 over whole
 * abstracts beside the published Anserini nDCG@10. Prints numbers; asserts nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TransformersEmbedder } from '../../src/core/embed/transformers-embedder';
import { TEST_EMBEDDER_ID } from '../../src/core/embed/models';
import { RetrievalEngine } from '../../src/core/engine';
import { readBeir } from '../../src/core/eval/beir';
import type { EvalSet } from '../../src/core/eval/dataset';
import { evaluate } from '../../src/core/eval/run-eval';
import { readSquad } from '../../src/core/eval/squad';
import { defaultSweep, sweep } from '../../src/core/eval/sweep';
import type { Metrics } from '../../src/core/eval/metrics';
import { renderTable } from '../../src/cli/table';
import { setupNode, SHARED_DATA } from '../../src/node/setup';

const { values } = parseArgs({ options: { json: { type: 'string' }, quick: { type: 'boolean' } } });

interface Row {
  dataset: string;
  language: string;
  retriever: string;
  strategy: string;
  budgetTokens: number | null;
  metrics: Metrics;
}

/** Every n-th question: SQuAD has 10,570; a tenth keeps the run to minutes with the same articles. */
function everyNth(set: EvalSet, n: number): EvalSet {
  return { ...set, questions: set.questions.filter((_, i) => i % n === 0) };
}

function datasets(quick: boolean): { name: string; language: string; load: () => EvalSet }[] {
  const squad = (file: string, name: string, language: string, nth: number) => () =>
    everyNth(readSquad(JSON.parse(readFileSync(join(SHARED_DATA, file), 'utf8')), { name, language }), quick ? nth * 10 : nth);
  return [
    { name: 'SQuAD v1.1 dev (48 whole articles; every 10th question)', language: 'en', load: squad('squad_en/squad-dev-v1.1.from-explorer.json', 'squad', 'en', 10) },
    { name: 'XQuAD zh', language: 'zh', load: squad('xquad/xquad.zh.json', 'xquad-zh', 'zh', 1) },
    { name: 'XQuAD es', language: 'es', load: squad('xquad/xquad.es.json', 'xquad-es', 'es', 1) },
    { name: 'XQuAD de', language: 'de', load: squad('xquad/xquad.de.json', 'xquad-de', 'de', 1) },
    { name: 'FaQuAD', language: 'pt', load: squad('faquad_pt/dataset.json', 'faquad', 'pt', 1) },
    {
      name: 'SciFact test (BEIR)',
      language: 'en',
      load: () => {
        const dir = join(SHARED_DATA, 'scifact_beir');
        const set = readBeir(
          { corpus: readFileSync(join(dir, 'corpus.jsonl'), 'utf8'), queries: readFileSync(join(dir, 'queries.jsonl'), 'utf8'), qrels: readFileSync(join(dir, 'qrels/test.tsv'), 'utf8') },
          { name: 'scifact', language: 'en' },
        );
        return quick ? { ...set, questions: set.questions.slice(0, 30) } : set;
      },
    },
  ];
}

setupNode();
const quick = Boolean(values.quick);
const t0 = performance.now();
const embedder = await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
const rows: Row[] = [];
const timings: string[] = [];
for (const ds of datasets(quick)) {
  const t = performance.now();
  const set = ds.load();
  const engine = new RetrievalEngine({ embedder });
  engine.addDocuments(set.docs);
  for (const kind of ['sentence', 'leaf', 'chunk'] as const) await engine.embedUnits(kind);
  // One point per strategy (defaults: window 3/3, threshold 0.5, RRF c 60, weights ½ ½), at both budgets.
  const spec = defaultSweep({ windows: [{ before: 3, after: 3 }], thresholds: [0.5], rrfC: [60], bm25Weights: [0.5], budgets: [256, 512] });
  for (const p of await sweep(engine, set, spec)) {
    rows.push({ dataset: ds.name, language: ds.language, retriever: p.retriever, strategy: p.strategy, budgetTokens: p.budgetTokens, metrics: p.metrics });
  }
  timings.push(`${ds.name}: ${set.docs.length} docs, ${engine.corpus.sentences.length} sentences, ${set.questions.length} questions, ${((performance.now() - t) / 1000).toFixed(0)} s`);
  process.stderr.write(`done ${timings.at(-1)}\n`);
}

// SciFact BM25 as in the literature: whole abstracts (title + text) ranked, no budget.
const dir = join(SHARED_DATA, 'scifact_beir');
const sci = readBeir(
  { corpus: readFileSync(join(dir, 'corpus.jsonl'), 'utf8'), queries: readFileSync(join(dir, 'queries.jsonl'), 'utf8'), qrels: readFileSync(join(dir, 'qrels/test.tsv'), 'utf8') },
  { name: 'scifact', language: 'en' },
);
const whole = new RetrievalEngine({ structure: { naive: { size: 4096, overlap: 0 }, chunkLevels: [4096, 512, 128] } });
whole.addDocuments(sci.docs);
const [doc] = await evaluate(whole, quick ? { ...sci, questions: sci.questions.slice(0, 30) } : sci, ['naive'], { retriever: 'bm25', topK: 100, budgetTokens: null });
rows.push({ dataset: 'SciFact test, whole abstracts, no budget', language: 'en', retriever: 'bm25', strategy: 'naive (whole document)', budgetTokens: null, metrics: doc!.metrics });

const f = (n: number) => Number(n.toFixed(3));
console.log(`bench:quality · embedder ${TEST_EMBEDDER_ID} (TEST MODEL: random word-piece vectors; an English WordPiece vocabulary, so most Chinese characters are [UNK]) · BM25 = MiniSearch BM25+ (k1 1.2, b 0.7, δ 0.5) × matched terms, no stemming${quick ? ' · QUICK: a tenth of the questions' : ''}`);
console.log(
  renderTable(
    ['dataset', 'lang', 'retriever', 'strategy', 'budget', 'hit@1', 'hit@5', 'ans in ctx', 'MRR', 'nDCG@10', 'ctx tokens'],
    rows.map((r) => [r.dataset, r.language, r.retriever, r.strategy, r.budgetTokens ?? 'none', f(r.metrics.hitAt1), f(r.metrics.hitAt5), f(r.metrics.answerInContext), f(r.metrics.mrr), f(r.metrics.ndcg10), Number(r.metrics.meanContextTokens.toFixed(1))]),
  ),
);
console.log(`\nSciFact BM25 nDCG@10 over whole abstracts: ${doc!.metrics.ndcg10.toFixed(4)} — published (Anserini, Lucene BM25 k1 0.9 b 0.4 with Porter stemming): 0.6647 multifield, 0.6789 flat.`);
console.log(timings.join('\n'));
console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s`);
if (values.json) {
  writeFileSync(values.json, JSON.stringify(rows, null, 1));
  console.log(`rows written to ${values.json}`);
}
