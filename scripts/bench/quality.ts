/**
 * npm run bench:quality [-- --json FILE] [-- --quick] [-- --analyzer A,B --bm25 V,W] [-- --bm25-only] [-- --skip-late]
 *
 * One table over the shared evaluation data: SQuAD v1.1 whole articles (en), XQuAD
 * (zh, es, de), FaQuAD (pt) and SciFact (BEIR, en) — BM25, the TEST embedder and hybrid
 * RRF, every strategy, at 256 and 512 context tokens. Plus SciFact BM25 over whole
 * abstracts beside the published Anserini nDCG@10. Prints numbers; asserts nothing.
 * --analyzer and --bm25 measure each analyzer × BM25 variant (default: the lab's default);
 * --bm25-only skips the embedder (BM25 rows only, minutes instead of many). Vector and hybrid
 * rows come twice: plain vectors and late-chunked ones (the TEST model's token vectors ignore
 * their context, so its late rows measure the pipeline, not the worth; --skip-late leaves them out).
 * Contextual chunks: on the first articles of SQuAD, naive chunks and Contextual chunks with the
 * contexts the TEST generator writes (its one fixed reply: the pipeline, not the worth), with the
 * calls and time it took (--skip-contextual leaves them out).
 * Language parity (parity.ts): the lab's own parallel set and XQuAD en/es/zh/de, each language's
 * BM25 answer in context beside English's (--parity-only runs only that, in seconds).
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
import { axisValues, defaultSweep, sweep } from '../../src/core/eval/sweep';
import { DEFAULT_RETRIEVAL, UNIT_KINDS } from '../../src/core/retrieve/params';
import { BASELINE, strategyOf } from '../../src/core/strategies/registry';
import type { MetricIntervals, Metrics } from '../../src/core/eval/metrics';
import { renderTable } from '../../src/cli/table';
import { setupNode, SHARED_DATA } from '../../src/node/setup';
import { ANALYZERS } from '../../src/core/index/analyzer';
import { BM25_VARIANTS, DEFAULT_LEXICAL, lexicalLabel, type LexicalParams } from '../../src/core/index/lexical-index';
import type { RetrieverName } from '../../src/core/retrieve/retrievers';
import { generateContexts } from '../../src/core/context/generate-contexts';
import { localContextGenerator } from '../../src/core/context/generators';
import { LocalGenerator, TEST_GENERATOR_ID } from '../../src/core/generate/local';
import { ensureTestGenerator } from '../make-test-lm';
import { measureParity, parityTables, type ParityRow } from './parity';

const { values } = parseArgs({
  options: { json: { type: 'string' }, quick: { type: 'boolean' }, analyzer: { type: 'string' }, bm25: { type: 'string' }, 'bm25-only': { type: 'boolean' }, 'skip-late': { type: 'boolean' }, 'skip-contextual': { type: 'boolean' }, 'parity-only': { type: 'boolean' } },
});
const pick = <T extends string>(v: string | undefined, allowed: readonly T[], fallback: T): T[] => {
  const items = (v ?? fallback).split(',').map((x) => x.trim()) as T[];
  for (const i of items) if (!allowed.includes(i)) throw new Error(`unknown "${i}" (choose from ${allowed.join(', ')})`);
  return items;
};
const LEXICAL: LexicalParams[] = pick(values.analyzer, ANALYZERS, DEFAULT_LEXICAL.analyzer).flatMap((analyzer) =>
  pick(values.bm25, BM25_VARIANTS, DEFAULT_LEXICAL.bm25).map((bm25) => ({ analyzer, bm25 })),
);
const bm25Only = Boolean(values['bm25-only']);
const withLate = !bm25Only && !values['skip-late'];
/** How late-chunked rows are labelled: with the test model they say nothing about the technique's worth. */
const LATE_LABEL = 'late · test model — measures the pipeline, not the worth';
/** How contextual rows are labelled: every context is the TEST generator's one fixed reply. */
const CONTEXT_LABEL = 'TEST generator — measures the pipeline, not the worth';

interface Row {
  dataset: string;
  language: string;
  retriever: string;
  /** The analyzer and BM25 variant (for bm25 and hybrid rows). */
  lexical?: LexicalParams;
  /** How unit vectors were made (vector and hybrid rows): each unit alone, or late-chunked (LATE_LABEL). */
  vectors?: 'plain' | 'late';
  /** Who wrote the situating contexts of a Contextual chunks row (CONTEXT_LABEL). */
  contexts?: string;
  strategy: string;
  budgetTokens: number | null;
  metrics: Metrics;
  /** 95 % bootstrap interval of each metric (seeded, 1000 resamples of the questions). */
  intervals: MetricIntervals;
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

const parityProgress = (line: string) => process.stderr.write(`done ${line}\n`);
if (values['parity-only']) {
  const parity = await measureParity(LEXICAL[0]!, parityProgress);
  console.log(`bench:quality --parity-only · BM25 only, tokens counted with approx (as eval --retriever bm25)${parityTables(parity)}`);
  if (values.json) writeFileSync(values.json, JSON.stringify(parity, null, 1));
  process.exit(0);
}

setupNode();
const quick = Boolean(values.quick);
const t0 = performance.now();
const embedder = bm25Only ? null : await TransformersEmbedder.load({ model: TEST_EMBEDDER_ID });
const rows: Row[] = [];
const retrieverPlan: { lexical: LexicalParams; retrievers: RetrieverName[] }[] = [];
const timings: string[] = [];
for (const ds of datasets(quick)) {
  const t = performance.now();
  const set = ds.load();
  const engine = new RetrievalEngine({ embedder });
  engine.addDocuments(set.docs);
  const embedSeconds = async () => {
    const t = performance.now();
    if (embedder) for (const kind of UNIT_KINDS) await engine.embedUnits(kind);
    return (performance.now() - t) / 1000;
  };
  const plainSeconds = await embedSeconds();
  // One point per strategy (each sweep axis at its default: window 3/3, threshold 0.5; RRF c 60, weights ½ ½), at both budgets.
  const spec = defaultSweep({ ...axisValues({}, DEFAULT_RETRIEVAL), rrfC: [60], bm25Weights: [0.5], budgets: [256, 512] });
  // Semantic chunks are cut by embeddings: without a model there are none to measure.
  if (!embedder) spec.strategies = spec.strategies.filter((s) => strategyOf(s).unit !== 'semantic');
  // Contextual chunks without contexts are naive chunks: measured below, with contexts written.
  spec.strategies = spec.strategies.filter((s) => s !== 'contextual');
  LEXICAL.forEach((lexical, i) => {
    // Vector rows do not depend on the lexical model: measured with the first choice only.
    retrieverPlan.push({ lexical, retrievers: embedder ? (i === 0 ? ['bm25', 'vector', 'hybrid'] : ['bm25', 'hybrid']) : ['bm25'] });
  });
  for (const { lexical, retrievers } of retrieverPlan.splice(0)) {
    engine.setLexical(lexical);
    for (const p of await sweep(engine, set, { ...spec, retrievers })) {
      rows.push({ dataset: ds.name, language: ds.language, retriever: p.retriever, ...(p.retriever !== 'vector' ? { lexical } : {}), ...(p.retriever !== 'bm25' ? { vectors: 'plain' as const } : {}), strategy: p.strategy, budgetTokens: p.budgetTokens, metrics: p.metrics, intervals: p.intervals! });
    }
  }
  let late = '';
  if (withLate) {
    // The same points with late-chunked vectors (semantic chunks stay cut by plain sentence vectors).
    engine.setLexical(LEXICAL[0]!);
    engine.setVectorVariant('late');
    const lateSeconds = await embedSeconds();
    for (const p of await sweep(engine, set, { ...spec, retrievers: ['vector', 'hybrid'] })) {
      rows.push({ dataset: ds.name, language: ds.language, retriever: p.retriever, ...(p.retriever === 'hybrid' ? { lexical: LEXICAL[0]! } : {}), vectors: 'late', strategy: p.strategy, budgetTokens: p.budgetTokens, metrics: p.metrics, intervals: p.intervals! });
    }
    engine.setVectorVariant('plain');
    late = `, embedding every kind ${plainSeconds.toFixed(1)} s plain, ${lateSeconds.toFixed(1)} s late-chunked`;
  }
  timings.push(`${ds.name}: ${set.docs.length} docs, ${engine.corpus.sentences.length} sentences, ${set.questions.length} questions${late}, ${((performance.now() - t) / 1000).toFixed(0)} s`);
  process.stderr.write(`done ${timings.at(-1)}\n`);
}

// Contextual chunks: contexts for the naive chunks of the first SQuAD articles, written by the TEST generator.
let contextual = '';
if (!values['skip-contextual']) {
  const articles = quick ? 2 : 5;
  const full = readSquad(JSON.parse(readFileSync(join(SHARED_DATA, 'squad_en/squad-dev-v1.1.from-explorer.json'), 'utf8')), { name: 'squad', language: 'en', limitDocs: articles });
  const name = `SQuAD v1.1 dev (first ${articles} articles, all their questions)`;
  const engine = new RetrievalEngine({ embedder });
  engine.addDocuments(full.docs);
  ensureTestGenerator();
  const lm = await LocalGenerator.load({ model: TEST_GENERATOR_ID });
  // Windows of 512 tokens: the test model's time grows with the prompt, and its reply ignores it.
  const generator = { ...localContextGenerator(lm), contextTokens: 512 };
  const t = performance.now();
  const run = await generateContexts({ units: engine, kind: 'chunk', store: engine.contexts.store, generator });
  const ms = performance.now() - t;
  await lm.dispose();
  if (embedder) {
    for (const kind of ['chunk'] as const) await engine.embedUnits(kind);
    await engine.contexts.embed('chunk');
  }
  const spec = defaultSweep({ ...axisValues({}, DEFAULT_RETRIEVAL), strategies: ['naive', 'contextual'], rrfC: [60], bm25Weights: [0.5], budgets: [256, 512], retrievers: embedder ? ['bm25', 'vector', 'hybrid'] : ['bm25'] });
  engine.setLexical(LEXICAL[0]!);
  for (const p of await sweep(engine, full, spec)) {
    rows.push({ dataset: name, language: 'en', retriever: p.retriever, ...(p.retriever !== 'vector' ? { lexical: LEXICAL[0]! } : {}), ...(p.retriever !== 'bm25' ? { vectors: 'plain' as const } : {}), ...(p.strategy === 'contextual' ? { contexts: CONTEXT_LABEL } : {}), strategy: p.strategy, budgetTokens: p.budgetTokens, metrics: p.metrics, intervals: p.intervals! });
  }
  const pr = run.progress;
  contextual = `contexts for ${pr.total} naive chunks of ${name} by ${TEST_GENERATOR_ID} (512-token windows): ${pr.written} written, ${pr.failed} failed, ${pr.calls} calls in ${(ms / 1000).toFixed(0)} s (${((ms / Math.max(1, pr.calls)) * 1000 / 1000 / 60).toFixed(1)} min per 1,000 calls)`;
  timings.push(contextual);
  process.stderr.write(`done ${contextual}\n`);
}

// SciFact BM25 as in the literature: whole abstracts (title + text) ranked, no budget: the baseline's chunks hold whole documents.
const dir = join(SHARED_DATA, 'scifact_beir');
const sci = readBeir(
  { corpus: readFileSync(join(dir, 'corpus.jsonl'), 'utf8'), queries: readFileSync(join(dir, 'queries.jsonl'), 'utf8'), qrels: readFileSync(join(dir, 'qrels/test.tsv'), 'utf8') },
  { name: 'scifact', language: 'en' },
);
const whole = new RetrievalEngine({ structure: { naive: { size: 4096, overlap: 0 }, chunkLevels: [4096, 512, 128] } });
whole.addDocuments(sci.docs);
const wholeNdcg: string[] = [];
for (const lexical of LEXICAL) {
  whole.setLexical(lexical);
  const [doc] = await evaluate(whole, quick ? { ...sci, questions: sci.questions.slice(0, 30) } : sci, [BASELINE], { retriever: 'bm25', topK: 100, budgetTokens: null });
  rows.push({ dataset: 'SciFact test, whole abstracts, no budget', language: 'en', retriever: 'bm25', lexical, strategy: `${BASELINE} (whole document)`, budgetTokens: null, metrics: doc!.metrics, intervals: doc!.intervals! });
  wholeNdcg.push(`${lexicalLabel(lexical)}: ${doc!.metrics.ndcg10.toFixed(4)}`);
}

const f = (n: number) => Number(n.toFixed(3));
console.log(
  `bench:quality · embedder ${embedder ? `${TEST_EMBEDDER_ID} (TEST MODEL: random word-piece vectors; an English WordPiece vocabulary, so most Chinese characters are [UNK])` : 'none (--bm25-only)'} · BM25 as ${LEXICAL.map(lexicalLabel).join(', ')} (BM25+ = MiniSearch, k1 1.2, b 0.7, δ 0.5, × matched terms, length in distinct terms; Lucene BM25 = k1 0.9, b 0.4, length in tokens)${quick ? ' · QUICK: a tenth of the questions' : ''}`,
);
console.log(
  renderTable(
    ['dataset', 'lang', 'retriever', 'lexical', 'vectors', 'strategy', 'contexts', 'budget', 'hit@1', 'hit@5', 'ans in ctx', 'MRR', 'nDCG@10', 'ctx tokens'],
    rows.map((r) => [r.dataset, r.language, r.retriever, r.lexical ? lexicalLabel(r.lexical) : '–', r.vectors === 'late' ? LATE_LABEL : (r.vectors ?? '–'), r.strategy, r.contexts ?? '–', r.budgetTokens ?? 'none', f(r.metrics.hitAt1), f(r.metrics.hitAt5), f(r.metrics.answerInContext), f(r.metrics.mrr), f(r.metrics.ndcg10), Number(r.metrics.meanContextTokens.toFixed(1))]),
  ),
);
// The lexical choices side by side: per QA set, the best BM25 strategy's answer in context at 512 tokens (with its
// interval); SciFact by nDCG@10 over whole abstracts. The default is chosen from this table, across all sets.
const lexicalRows = rows.filter((r) => r.retriever === 'bm25' && r.lexical);
const summary = LEXICAL.map((l) => {
  const mine = lexicalRows.filter((r) => lexicalLabel(r.lexical!) === lexicalLabel(l));
  const cells = datasets(quick).map((ds) => {
    const at512 = mine.filter((r) => r.dataset === ds.name && r.budgetTokens === 512 && !/SciFact/.test(ds.name));
    const best = at512.sort((a, b) => b.metrics.answerInContext - a.metrics.answerInContext)[0];
    return best ? `${f(best.metrics.answerInContext)} [${f(best.intervals.answerInContext.low)}, ${f(best.intervals.answerInContext.high)}] ${best.strategy}` : '';
  }).filter(Boolean);
  const sci = mine.find((r) => r.dataset.startsWith('SciFact test, whole abstracts'));
  return [lexicalLabel(l), ...cells, sci ? `${f(sci.metrics.ndcg10)} [${f(sci.intervals.ndcg10.low)}, ${f(sci.intervals.ndcg10.high)}]` : ''];
});
console.log('\nBM25, best strategy\'s answer in context at 512 tokens [95 % interval]; SciFact: nDCG@10 over whole abstracts');
console.log(renderTable(['lexical', ...datasets(quick).filter((d) => !/SciFact/.test(d.name)).map((d) => d.name.split(' (')[0]!), 'SciFact nDCG@10'], summary));
if (withLate) {
  // Plain beside late-chunked vectors, per set: the best vector strategy's answer in context at 512 tokens, with its interval.
  const cell = (ds: string, vectors: 'plain' | 'late') => {
    const best = rows.filter((r) => r.dataset === ds && r.retriever === 'vector' && r.vectors === vectors && r.budgetTokens === 512).sort((x, y) => y.metrics.answerInContext - x.metrics.answerInContext)[0];
    return best ? `${f(best.metrics.answerInContext)} [${f(best.intervals.answerInContext.low)}, ${f(best.intervals.answerInContext.high)}] ${best.strategy}` : '';
  };
  console.log(`\nVector retrieval, plain vs late-chunked vectors: best strategy's answer in context at 512 tokens [95 % interval] (${LATE_LABEL})`);
  console.log(renderTable(['dataset', 'plain', 'late'], datasets(quick).map((d) => [d.name, cell(d.name, 'plain'), cell(d.name, 'late')])));
}
const parity: ParityRow[] = await measureParity(LEXICAL[0]!, parityProgress);
console.log(`\nLanguage parity${parityTables(parity)}`);
console.log(`\nSciFact BM25 nDCG@10 over whole abstracts: ${wholeNdcg.join('; ')} — published (Anserini, Lucene BM25 k1 0.9 b 0.4 with Porter stemming): 0.6647 multifield, 0.6789 flat.`);
console.log(timings.join('\n'));
console.log(`total ${((performance.now() - t0) / 1000).toFixed(0)} s`);
if (values.json) {
  writeFileSync(values.json, JSON.stringify([...rows, ...parity], null, 1));
  console.log(`rows written to ${values.json}`);
}
