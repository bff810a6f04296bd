/**
 * The `npm run bench -- --json FILE` report. Other tools read these field names, and the
 * README lists them (section "bench --json fields"); report.test.ts checks that the two agree.
 */
import type { ColdStart, IndexingBench } from './browser-bench';
import type { BrowserImport, BrowserImportRow } from './browser-import';
import type { ScaleRow } from './scale-bench';
import type { FormatRow } from './formats-bench';
import type { EmbeddersBench } from './embedders-bench';
import type { RenderBench } from './render-bench';
import type { CliBench } from './cli-bench';

/** The vector index at one size (scale-bench.ts), or why it was not measured. */
export type ScaleResult = ScaleRow | { n: number; skipped: string };

/** One engine run of node-bench.ts at one corpus size. */
export interface NodeBench {
  n: number;
  documents: number;
  tokenCounter: string;
  vectors: string;
  buildMs: number;
  importMs: number;
  bm25BuildMs: number;
  /** The first search after the BM25 build: vector codes and rows, semantic chunks, scratch (absent before this field was split out). */
  firstSearchMs?: number;
  memory: { sentences: number; units: Record<string, number>; deltaBytes: number; heapDelta: number; externalDelta: number; bytesPerSentence: number; rawBytesPerSentence: number; ratio: number; allKindVectorBytesPerSentence: number; parts?: Record<string, number> };
  scan: { p50Ms: number; p95Ms: number };
  query: Record<string, { p50Ms: number; p95Ms: number; ratioToScan: number }>;
  slider: Record<string, { p50Ms: number; p95Ms: number }>;
  /** Memory after many different questions and slider moves (node-bench --drift N); null when not run. */
  memoryDrift?: MemoryDrift | null;
}

export interface MemoryDrift {
  questions: number;
  sliderMoves: number;
  startBytes: number;
  endBytes: number;
  /** (end − start) ÷ start: the goal is within ±0.05. */
  ratio: number;
}

/** One vector-index backend at one size (backend-one.ts). */
export interface BackendRow {
  n: number;
  backend: string;
  buildMs?: number;
  queryP50Ms?: number;
  queryP95Ms?: number;
  indexBytes?: number;
  measuredBytes?: number;
  recallAt10?: number;
  skipped?: string;
}

/** Export and import of a bundle at one size (export-bench.ts). */
export interface ExportRow {
  n: number;
  exportMs?: number;
  importMs?: number;
  bundleBytes?: number;
  rawBytes?: number;
  ratio?: number;
  parquetBytes?: number;
  jsonlBytes?: number;
  sqlBytes?: number;
  skipped?: string;
}

export interface BenchInputs {
  machine: string;
  model: string;
  quick: boolean;
  indexing: IndexingBench | null;
  indexingError: string | null;
  /** Engine runs in increasing size; the last is the "100k" one (smaller with --quick). */
  engineRuns: NodeBench[];
  backends: BackendRow[];
  exports: ExportRow[];
  browserImport: BrowserImport | null;
  cold: ColdStart | null;
  coldError: string | null;
  /** The vector index at 10k, 100k and 1M (1M skipped with --quick). */
  scale: ScaleResult[];
  /** Loader speed per document format and OCR seconds per page (formats-bench.ts); null when not run. */
  formats?: FormatRow[] | null;
  /** Embedding models (embedders-bench.ts); null when not run. */
  embedders?: BenchEmbedders | null;
  /** Painting the answer beside the worker's time (render-bench.ts); null when not run. */
  render?: RenderBench | null;
  /** The CLI's start in fresh processes (cli-bench.ts); null when not run. */
  cli?: CliBench | null;
  /** The sections that ended, in order (run.ts writes the report after each). */
  sectionsDone?: string[];
  /** Every section ran: false in a report written after one section, or when the run was cut short. */
  complete?: boolean;
}

/** What the report keeps of embedders-bench.ts. */
export type BenchEmbedders = Pick<EmbeddersBench, 'staticToMiniLM' | 'static100kTabSeconds' | 'split100kTabSeconds' | 'endpointShareOfLimit'>;

type Latency = { p50Ms: number; p95Ms: number };

export interface BenchReport {
  machine: string;
  model: string;
  quick: boolean;
  indexing:
    | { appSentencesPerS: number | null; bareSentencesPerS: number | null; ratio: number | null; threads: Record<string, { app: unknown; bare: unknown }>; document: IndexingBench['document']; inWorker: boolean }
    | { error: string };
  query100k: Record<string, Latency & { ratioToScan: number }> | null;
  queryScan100k: Latency | null;
  querySentences: number | null;
  queryBySize: Record<string, { scan: Latency; query: NodeBench['query']; buildMs: number; bm25BuildMs: number; firstSearchMs: number | null }>;
  sliderMs100k: (Partial<Latency> & { byChange: NodeBench['slider'] }) | null;
  bytesPerSentence100k: number | null;
  memoryRatio100k: number | null;
  memory100k: NodeBench['memory'] | null;
  memoryDrift: MemoryDrift | null;
  query1m: Record<string, Latency & { ratioToScan: number }> | null;
  sliderMs1m: (Partial<Latency> & { byChange: NodeBench['slider'] }) | null;
  bytesPerSentence1m: number | null;
  memoryRatio1m: number | null;
  backends: BackendRow[];
  exportBySize: Record<string, ExportRow>;
  browserImportBySize: Record<string, BrowserImportRow>;
  coldStart: ColdStart | { error: string };
  vectors: string | null;
  scaleBySize: Record<string, ScaleResult>;
  ann1m: Ann1m | null;
  formats: FormatRow[] | null;
  embedders: BenchEmbedders | null;
  render: RenderBench | null;
  cli: CliBench | null;
  sectionsDone: string[];
  complete: boolean;
}

/** The approximate index at a million sentence vectors against the exact scan. */
export interface Ann1m {
  n: number;
  recallAt10: number;
  filteredRecallAt10: number;
  /**
   * Sentence-level answer-in-context of the top 10 (SQuAD questions among the queries),
   * approximate minus exact, on the same 1M vectors — not the whole engine's context blocks.
   */
  answerInContextDelta: number | null;
  queryP50Ms: number;
  queryP95Ms: number;
  exactQueryP50Ms: number;
  buildMs: number;
  bytesPerVector: number;
}

export function benchReport(i: BenchInputs): BenchReport {
  const run = (mode: string, t: number) => i.indexing?.runs.find((r) => r.mode === mode && r.threads === t);
  const app2 = run('app', 2);
  const bare2 = run('bare', 2);
  // The "100k" fields hold the largest run up to 100k sentences; the "1m" fields a run of 1M or more.
  const big = i.engineRuns.filter((r) => r.n < 1_000_000).at(-1);
  const million = i.engineRuns.find((r) => r.n >= 1_000_000);
  const queryOf = (r: NodeBench) => Object.fromEntries(Object.entries(r.query).map(([k, v]) => [k, { p50Ms: v.p50Ms, p95Ms: v.p95Ms, ratioToScan: v.ratioToScan }]));
  const sliderOf = (r: NodeBench) => ({ ...(Object.values(r.slider)[0] ?? {}), byChange: r.slider });
  return {
    machine: i.machine,
    model: i.model,
    quick: i.quick,
    indexing: i.indexing
      ? {
          appSentencesPerS: app2?.sentencesPerS ?? null,
          bareSentencesPerS: bare2?.sentencesPerS ?? null,
          ratio: app2 && bare2 ? app2.sentencesPerS / bare2.sentencesPerS : null,
          threads: Object.fromEntries([1, 2].map((t) => [t, { app: run('app', t) ?? null, bare: run('bare', t) ?? null }])),
          document: i.indexing.document,
          inWorker: i.indexing.worker,
        }
      : { error: i.indexingError ?? 'not run' },
    query100k: big ? queryOf(big) : null,
    queryScan100k: big?.scan ?? null,
    querySentences: big?.n ?? null,
    queryBySize: Object.fromEntries(i.engineRuns.map((r) => [r.n, { scan: r.scan, query: r.query, buildMs: r.buildMs, bm25BuildMs: r.bm25BuildMs, firstSearchMs: r.firstSearchMs ?? null }])),
    sliderMs100k: big ? sliderOf(big) : null,
    bytesPerSentence100k: big?.memory.bytesPerSentence ?? null,
    memoryRatio100k: big?.memory.ratio ?? null,
    memory100k: big?.memory ?? null,
    memoryDrift: big?.memoryDrift ?? null,
    query1m: million ? queryOf(million) : null,
    sliderMs1m: million ? sliderOf(million) : null,
    bytesPerSentence1m: million?.memory.bytesPerSentence ?? null,
    memoryRatio1m: million?.memory.ratio ?? null,
    backends: i.backends,
    exportBySize: Object.fromEntries(i.exports.map((e) => [e.n, e])),
    browserImportBySize: Object.fromEntries((i.browserImport?.rows ?? []).map((r) => [r.sentences, r])),
    coldStart: i.cold ?? { error: i.coldError ?? 'not run' },
    vectors: big?.vectors ?? null,
    scaleBySize: Object.fromEntries(i.scale.map((r) => [r.n, r])),
    ann1m: ann1m(i.scale),
    formats: i.formats ?? null,
    embedders: i.embedders ?? null,
    render: i.render ?? null,
    cli: i.cli ?? null,
    sectionsDone: [...(i.sectionsDone ?? [])],
    complete: i.complete ?? true,
  };
}

function ann1m(rows: ScaleResult[]): Ann1m | null {
  const r = rows.find((x): x is ScaleRow => x.n >= 1_000_000 && !('skipped' in x));
  if (!r) return null;
  return {
    n: r.n,
    recallAt10: r.ann.recallAt10,
    filteredRecallAt10: r.ann.filteredRecallAt10,
    answerInContextDelta: r.answers?.delta ?? null,
    queryP50Ms: r.ann.queryP50Ms,
    queryP95Ms: r.ann.queryP95Ms,
    exactQueryP50Ms: r.exact.queryP50Ms,
    buildMs: r.ann.buildMs,
    bytesPerVector: r.ann.bytesPerVector,
  };
}
