/**
 * Query latency, slider latency and memory of the retrieval engine at one corpus size, in
 * Node (the same src/core code the worker runs). Run by run.ts as
 *   node --expose-gc --import tsx scripts/bench/node-bench.ts --n 100000 --out FILE
 * The corpus is SQuAD dev articles copied until it has --n sentences (copies rotate the
 * paragraphs and number the title); vectors are random unit vectors put in through
 * engine.importVectors (sentence, leaf, naive-chunk and sentence-packed kinds: what a bundle carries and the app embeds);
 * query vectors are random too (RandomEmbedder), so times are retrieval only.
 *
 * Memory is measured part by part (`memory.parts`, bytes per sentence: each part's heap +
 * array-buffer growth after gc as it is built: corpus, each kind's vectors, each kind's BM25
 * index, the rest made by the first search) and, with --drift N, over N different questions and
 * N slider moves after the timings (`memoryDrift`: bounded caches keep it flat).
 */
import { writeFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { documentFromText } from '../../src/core/documents/load';
import { RetrievalEngine } from '../../src/core/engine';
import { BUNDLE_KINDS } from '../../src/core/export/tables';
import { vectorIndexFactory } from '../../src/core/index/backends';
import { retrievalParams, STRATEGIES, type RetrievalParams, type StrategyName, type UnitKind } from '../../src/core/retrieve/params';
import { ApproxTokenCounter, ModelTokenCounter, type TokenCounter } from '../../src/core/segment/tokens';
import { commonSection, sectionPath } from '../../src/core/structure/corpus';
import type { ContextBlock } from '../../src/core/types';
import type { ColumnSpec } from '../../src/worker/protocol';
import { articleCopy, bareScan, columnsFor, percentile, pickModel, RandomEmbedder, randomUnits, round, squadArticles, squadQuestions } from './common';

const { values } = parseArgs({ options: { n: { type: 'string' }, out: { type: 'string' }, queries: { type: 'string' }, approx: { type: 'boolean' }, drift: { type: 'string' } } });
const N = Number(values.n ?? 10000);
const NQ = Number(values.queries ?? 30);
const DRIFT = Number(values.drift ?? 0);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function mem(): { heap: number; arrayBuffers: number; external: number; total: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, arrayBuffers: m.arrayBuffers, external: m.external, total: m.heapUsed + m.external };
}

async function counter(): Promise<{ counter: TokenCounter; name: string }> {
  const model = pickModel();
  if (values.approx) return { counter: new ApproxTokenCounter(), name: 'approx' };
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${dirname(model.dir)}/`;
  const tok = await AutoTokenizer.from_pretrained(model.dir.split('/').pop()!);
  return { counter: new ModelTokenCounter(tok as never, model.id), name: `${model.id} tokenizer` };
}

const say = (m: string) => process.stderr.write(`[node-bench ${N}] ${m}\n`);
const { counter: tokens, name: counterName } = await counter();
const articles = squadArticles();
const questions = squadQuestions();
const dim = 384;
const embedder = new RandomEmbedder(tokens, dim);

// ---- build (memory measured around it) ---------------------------------------------------
const before = mem();
const t0 = performance.now();
// The app's default vector backend (`auto`: exact below 20,000 vectors of a kind, 1-bit codes + float16 rows from there).
const engine = new RetrievalEngine({ embedder, vectorIndex: vectorIndexFactory('auto') });
let rep = 0;
// Documents go in 200 at a time: each addDocuments call also walks the whole corpus (structure/units.ts),
// so one call per document is quadratic (a 1M-sentence corpus would take hours).
let batch: ReturnType<typeof documentFromText>[] = [];
outer: for (;;) {
  for (const a of articles) {
    batch.push(documentFromText(articleCopy(a, rep), `${a.title} ${rep}.md`, 'md'));
    if (batch.length < 200 && engine.corpus.sentences.length + batch.length * 40 < N) continue;
    engine.addDocuments(batch);
    batch = [];
    if (engine.corpus.sentences.length >= N) break outer;
  }
  rep++;
}
const buildMs = performance.now() - t0;
const parts: Record<string, number> = {};
let mark = mem();
/** The growth since the last mark, as a part (bytes per sentence). */
const part = (name: string) => {
  const now = mem();
  parts[name] = (now.total - mark.total) / engine.corpus.sentences.length;
  mark = now;
};
let docChars = 0;
for (const d of engine.corpus.docs) docChars += (d as { text?: string }).text?.length ?? 0;
parts.corpus = (mark.total - before.total) / engine.corpus.sentences.length;
say(`corpus built in ${(buildMs / 1000).toFixed(1)} s`);
const n = engine.corpus.sentences.length;
const t1 = performance.now();
const kinds: UnitKind[] = [...BUNDLE_KINDS];
const units: Record<string, number> = {};
for (const [i, kind] of kinds.entries()) {
  units[kind] = engine.unitCount(kind);
  let v: Float32Array | null = randomUnits(engine.unitCount(kind), dim, 1000 + i);
  await engine.importVectors(kind, v);
  v = null;
  part(`vectors ${kind}`);
}
const importMs = performance.now() - t1;
// BM25 indexes are built on the first search of each unit kind (as in the app): here before it, timed apart
// from the rest of that search (the vector indexes' codes and rows, the semantic chunks, scratch).
const t2 = performance.now();
let bm25Ms = 0;
for (const kind of kinds) {
  const tk = performance.now();
  engine.lexicalIndex(kind);
  bm25Ms += performance.now() - tk;
  part(`bm25 ${kind}`);
}
say(`BM25 built in ${(bm25Ms / 1000).toFixed(1)} s`);
const t3 = performance.now();
await engine.search('warm up the lexical indexes', [...STRATEGIES], retrievalParams({ retriever: 'hybrid' }));
const firstSearchMs = performance.now() - t3;
say(`first search in ${(firstSearchMs / 1000).toFixed(1)} s (BM25 and first search ${((performance.now() - t2) / 1000).toFixed(1)} s)`);
part('first search (other lazily built parts, scratch)');
const after = mem();
let textBytes = 0;
for (const s of engine.corpus.sentences) textBytes += 2 * (s.end - s.start);
const vectorBytes = n * dim * 4;
const delta = after.total - before.total;
const memory = {
  sentences: n,
  units,
  deltaBytes: delta,
  heapDelta: after.heap - before.heap,
  externalDelta: after.external - before.external,
  arrayBuffersDelta: after.arrayBuffers - before.arrayBuffers,
  bytesPerSentence: delta / n,
  rawBytesPerSentence: (vectorBytes + textBytes) / n,
  ratio: delta / (vectorBytes + textBytes),
  allKindVectorBytesPerSentence: (Object.values(units).reduce((a, b) => a + b, 0) * dim * 4) / n,
  /** Bytes per sentence by part, in the order built; `corpus` includes the document texts (`documentTextBytes`, UTF-16). */
  parts: { ...parts, documentTextBytes: (2 * docChars) / n },
};

// ---- what the worker does for one column (lab.ts search + view) ---------------------------
function view(b: ContextBlock, query: string): unknown {
  const c = engine.corpus;
  const doc = c.docs[b.doc]!;
  const first = c.sentences[b.sentences.start]!;
  const last = c.sentences[b.sentences.end - 1]!;
  const hitSpans = b.hits.map((i) => c.sentences[i]!).map((s) => [Math.max(0, s.start - b.start), Math.min(b.end - b.start, s.end - b.start)]);
  return { ...b, parent: engine.enclosingNode(b.sentences.start, b.sentences.end), coherence: engine.blockCoherence(b.sentences.start, b.sentences.end, query), path: sectionPath(doc, commonSection(doc, first.section, last.section)), hitSpans };
}

/** Time per column inside labSearch (ms, summed over calls): where an all-columns search goes. */
const columnMs = new Map<string, number[]>();
async function labSearch(query: string, base: RetrievalParams, columns: ColumnSpec[]): Promise<number> {
  let blocks = 0;
  for (const column of columns) {
    const p = { ...base, retriever: column.retriever, rerank: { ...base.rerank, enabled: column.rerank } };
    if (column.fusion) continue; // no LLM variants: the worker answers with a note and no search
    const t = performance.now();
    const [r] = await engine.search(query, [column.strategy], p);
    blocks += r!.blocks.map((b) => view(b, query)).length;
    const key = `${column.id}/${column.retriever}`;
    if (!columnMs.has(key)) columnMs.set(key, []);
    columnMs.get(key)!.push(performance.now() - t);
  }
  return blocks;
}

let qi = 0;
const nextQuestion = () => `${questions[qi++ % questions.length]} ${qi >= questions.length ? qi : ''}`.trim();

/** Garbage collection seen by the process (ms by kind: minor, major, incremental, weak), for stderr lines. */
const gcMs: Record<string, number> = {};
const GC_KINDS: Record<number, string> = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major', [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = GC_KINDS[(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
    gcMs[kind] = (gcMs[kind] ?? 0) + e.duration;
  }
}).observe({ entryTypes: ['gc'] });
/** GC pauses (ms by kind) during `f`, for the stderr line. */
async function gcDuring(f: () => Promise<void>): Promise<string> {
  const before = { ...gcMs };
  await f();
  await new Promise((r) => setImmediate(r)); // let the observer deliver the last entries
  const gc = Object.entries(gcMs).map(([k, v]) => [k, v - (before[k] ?? 0)] as const).filter(([, v]) => v >= 0.5).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
  return gc || 'none';
}

async function timeIt(runs: number, f: (q: string) => Promise<unknown>): Promise<{ p50Ms: number; p95Ms: number }> {
  for (let i = 0; i < 3; i++) await f(nextQuestion());
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const q = nextQuestion();
    const t = performance.now();
    await f(q);
    ts.push(performance.now() - t);
  }
  return { p50Ms: percentile(ts, 0.5), p95Ms: percentile(ts, 0.95) };
}

// ---- bare exact scan of the same sentence vectors ------------------------------------
let sentenceVectors: Float32Array | null = randomUnits(units.sentence!, dim, 1000);
const queryVecs = randomUnits(NQ + 3, dim, 77);
const scanTimes: number[] = [];
for (let i = 0; i < NQ + 3; i++) {
  const t = performance.now();
  bareScan(sentenceVectors!, dim, queryVecs.subarray(i * dim, (i + 1) * dim), 10);
  if (i >= 3) scanTimes.push(performance.now() - t);
}
const scan = { p50Ms: percentile(scanTimes, 0.5), p95Ms: percentile(scanTimes, 0.95) };
sentenceVectors = null; // not held while the engine is timed (1.5 GB at 1M)

// ---- query latency per strategy and retriever ------------------------------------------
// Interleaved: each round asks every strategy × retriever one new question, in an order rotated
// by one each round. Timed one series after another, a column's p50 at 1M took whatever the
// machine did during its second: a probe with 8 rounds of five columns (docs/performance.md, "Query and slider
// time at 1M") saw every column, naive included, run ~1.5× slower for a few seconds with no major
// collection in V8's trace and ≤ 6 ms of minor GC a series, so the series that ran then looked slow on its own.
const query: Record<string, { p50Ms: number; p95Ms: number; ratioToScan: number }> = {};
const singles = (['vector', 'hybrid'] as const).flatMap((retriever) => STRATEGIES.map((s) => ({ key: `${s}/${retriever}`, s: s as StrategyName, p: retrievalParams({ retriever }) })));
const singleMs = new Map<string, number[]>(singles.map((c) => [c.key, []]));
const singlesGc = await gcDuring(async () => {
  for (let round = -3; round < NQ; round++) {
    for (let j = 0; j < singles.length; j++) {
      const c = singles[(j + Math.max(0, round)) % singles.length]!;
      const q = nextQuestion();
      const t = performance.now();
      await engine.search(q, [c.s], c.p);
      if (round >= 0) singleMs.get(c.key)!.push(performance.now() - t); // the first 3 rounds warm up
    }
  }
});
for (const { key } of singles) {
  const ts = singleMs.get(key)!;
  const p50Ms = percentile(ts, 0.5);
  query[key] = { p50Ms, p95Ms: percentile(ts, 0.95), ratioToScan: p50Ms / scan.p50Ms };
}
say(`single columns, ${NQ} interleaved rounds (GC pauses over them, ms: ${singlesGc}): ${singles.map(({ key }) => `${key} ${query[key]!.p50Ms.toFixed(1)}`).join(', ')}`);
for (const base of ['vector', 'hybrid'] as const) {
  const p = retrievalParams({ retriever: base });
  columnMs.clear();
  const r = await timeIt(NQ, (q) => labSearch(q, p, columnsFor(base)));
  query[`all columns/${base} base`] = { ...r, ratioToScan: r.p50Ms / scan.p50Ms };
  // In column order, each column's p50 inside the set (a kind's vector scan is paid by the first column of that kind).
  say(`all columns/${base} base: p50 ${r.p50Ms.toFixed(1)} ms = ${[...columnMs].map(([c, ts]) => `${c} ${percentile(ts, 0.5).toFixed(1)}`).join(', ')}`);
}

// ---- slider: a retrieval-only change re-runs blocks on cached candidates -------------------
async function slider(runs: number, strategies: 'all' | StrategyName, change: (p: RetrievalParams) => RetrievalParams): Promise<{ p50Ms: number; p95Ms: number }> {
  const ts: number[] = [];
  const p1 = retrievalParams({ retriever: 'vector' });
  const p2 = change(p1);
  for (let i = 0; i < runs + 2; i++) {
    const q = nextQuestion();
    const run = (p: RetrievalParams) => (strategies === 'all' ? labSearch(q, p, columnsFor('vector')) : engine.search(q, [strategies], p));
    await run(p1);
    const t = performance.now();
    await run(p2);
    if (i >= 2) ts.push(performance.now() - t);
  }
  return { p50Ms: percentile(ts, 0.5), p95Ms: percentile(ts, 0.95) };
}
const wider = (p: RetrievalParams) => ({ ...p, window: { ...p.window, before: 5, after: 5 } });
const sliders = {
  'all columns (window ±3 → ±5)': await slider(NQ, 'all', wider),
  'window (±3 → ±5)': await slider(NQ, 'window', wider),
  'automerge (threshold 0.5 → 0.3)': await slider(NQ, 'automerge', (p) => ({ ...p, merge: { threshold: 0.3 } })),
  'adaptive (threshold → +0.1)': await slider(NQ, 'adaptive', (p) => ({ ...p, adaptive: { ...p.adaptive, threshold: p.adaptive.threshold + 0.1 } })),
};

// ---- memory drift: many different questions and slider moves on the built engine -------------
let memoryDrift: { questions: number; sliderMoves: number; startBytes: number; endBytes: number; ratio: number } | null = null;
if (DRIFT > 0) {
  const start = mem();
  const p1 = retrievalParams({ retriever: 'hybrid' });
  for (let i = 0; i < DRIFT; i++) await engine.search(`${nextQuestion()} drift ${i}`, ['window'], p1);
  for (let i = 0; i < DRIFT; i++) {
    const p = { ...p1, window: { ...p1.window, before: 1 + (i % 6), after: 1 + ((i >> 1) % 6) } };
    await engine.search(`${questions[i % 50]} drift`, ['window'], p);
  }
  const end = mem();
  // Against what the engine holds (its growth from before the build).
  memoryDrift = { questions: DRIFT, sliderMoves: DRIFT, startBytes: start.total - before.total, endBytes: end.total - before.total, ratio: (end.total - start.total) / (start.total - before.total) };
  say(`memory drift over ${DRIFT} questions + ${DRIFT} slider moves: ${(memoryDrift.ratio * 100).toFixed(2)} %`);
}

const out = {
  n,
  documents: engine.corpus.docs.length,
  tokenCounter: counterName,
  vectors: "random unit vectors (engine.importVectors for sentence, leaf, chunk and packed) in the app's `auto` vector index; random query vectors (no model call)",
  buildMs,
  importMs,
  bm25BuildMs: bm25Ms,
  firstSearchMs,
  memory,
  scan,
  query,
  slider: sliders,
  memoryDrift,
};
const json = JSON.stringify(out, (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? round(v, 3) : v), 1);
if (values.out) writeFileSync(values.out, json);
else console.log(json);
