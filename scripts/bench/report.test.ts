import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/node/paths';
import { benchReport, type BenchInputs, type NodeBench } from './report';

/** The README's table of `--json` fields: path → allowed JSON types. */
function documentedFields(): Map<string, string[]> {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('`npm run bench -- --json FILE` fields');
  expect(start, 'README section "bench --json fields"').toBeGreaterThan(0);
  const fields = new Map<string, string[]>();
  for (const line of readme.slice(start).split('\n').slice(1)) {
    const m = /^\s*\|\s*`([^`]+)`\s*\|\s*([^|]+?(?:\\\|[^|]+?)*)\s*\|/.exec(line);
    if (m) fields.set(m[1]!, m[2]!.split('\\|').map((t) => t.trim()));
    else if (fields.size && !/^\s*\|/.test(line)) break; // the table ended
  }
  return fields;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every value at a documented path (`[name]`: every key, `[]`: every element); absent parents end a branch. */
function valuesAt(obj: unknown, path: string): unknown[] {
  let current: unknown[] = [obj];
  for (const seg of path.split('.')) {
    const m = /^([^[]+)(\[name\]|\[\])?$/.exec(seg)!;
    const next: unknown[] = [];
    for (const c of current) {
      if (c === null || typeof c !== 'object' || !(m[1]! in c)) continue;
      const v = (c as Record<string, unknown>)[m[1]!];
      if (!m[2]) next.push(v);
      else if (v !== null && typeof v === 'object') next.push(...Object.values(v as object));
    }
    current = next;
  }
  return current;
}

const run = (n: number): NodeBench => ({
  n,
  documents: 10,
  tokenCounter: 'MiniLM tokenizer',
  vectors: 'random unit vectors',
  buildMs: 100,
  importMs: 5,
  bm25BuildMs: 50,
  memory: { sentences: n, units: { sentence: n }, deltaBytes: 1, heapDelta: 1, externalDelta: 1, bytesPerSentence: n >= 1_000_000 ? 2600 : 6501, rawBytesPerSentence: 1846, ratio: n >= 1_000_000 ? 1.41 : 3.52, allKindVectorBytesPerSentence: 2430, parts: { corpus: 900, 'vectors sentence': 768 } },
  scan: { p50Ms: 75, p95Ms: 90 },
  query: { 'window / hybrid': { p50Ms: 100, p95Ms: 120, ratioToScan: 1.33 } },
  slider: { topK: { p50Ms: n >= 1_000_000 ? 9 : 4.5, p95Ms: 6.9 } },
  memoryDrift: n >= 1_000_000 ? null : { questions: 1000, sliderMoves: 1000, startBytes: 100, endBytes: 101, ratio: 0.01 },
});

const full: BenchInputs = {
  machine: 'cpu',
  model: 'stand-in',
  quick: false,
  indexing: {
    document: { name: 'd.txt', chars: 10, sentences: 2 },
    worker: true,
    runs: [1, 2].flatMap((threads) =>
      (['app', 'bare'] as const).map((mode) => ({ mode, threads, crossOriginIsolated: true, ortNumThreads: threads, sentences: 2, totalMs: 10, stages: {}, modelLoadMs: 1, sentencesPerS: mode === 'app' ? 70 : 80 })),
    ),
  },
  indexingError: null,
  engineRuns: [run(10_000), run(100_000), run(1_000_000)],
  backends: [
    { n: 1000, backend: 'flat', buildMs: 4, queryP50Ms: 0.7, queryP95Ms: 1, indexBytes: 1, measuredBytes: 1, recallAt10: 1 },
    { n: 1000, backend: 'voy', skipped: 'over the cap' },
  ],
  exports: [{ n: 10058, exportMs: 18000, importMs: 3000, bundleBytes: 200, rawBytes: 100, ratio: 2, parquetBytes: 30, jsonlBytes: 70, sqlBytes: 100 }],
  browserImport: { model: 'm', dim: 384, rows: [{ sentences: 10000, zipBytes: 1, fileBytes: 1, makeMs: 1, dropToSentMs: 10, dropToImportedMs: 6000, dropToFirstResultMs: 6300, workerImportMs: 5000, workerPhasesMs: { unzip: 50, read: 3000, store: 1900 }, workerReadPartsMs: { tables: 1300, bm25: 800 }, reloadToRestoredMs: 1200, reloadToFirstResultMs: 1500 }] as never },
  cold: { model: 'm', pdf: 'p.pdf', pages: 48, pageLoadToModelReadyMs: 1, dropToFirstBm25Ms: 1700, dropToFirstVectorMs: 7100, dropToAllEmbeddedMs: null, longTasks: { count: 0, totalMs: 0, maxMs: 0, over200Ms: 0 }, crossOriginIsolated: true },
  coldError: null,
  scale: [
    {
      n: 1_000_000,
      dim: 384,
      queries: 100,
      vectors: 'real-sentence vectors',
      exact: { buildMs: 2500, bytesPerVector: 1536, queryP50Ms: 1146, queryP95Ms: 1585, filteredP50Ms: 357 },
      ann: { buildMs: 11000, bytesPerVector: 1588, queryP50Ms: 112, queryP95Ms: 181, filteredP50Ms: 41, recallAt10: 0.989, filteredRecallAt10: 0.985 },
      answers: { questions: 92, exact: 0.51, ann: 0.5, delta: -0.01 },
      rows: {
        float16: { bytesPerVector: 820, queryP50Ms: 112, recallAt10: 0.989, answerInContextDelta: -0.01, maxScoreDiff: 0.0004 },
        int8: { bytesPerVector: 440, queryP50Ms: 110, recallAt10: 0.98, answerInContextDelta: -0.01, maxScoreDiff: 0.004 },
      },
    },
    { n: 100_000, skipped: 'over the 600 s cap' },
  ],
  formats: [
    { format: 'docx', file: 'report.docx', bytes: 9000, unit: 'page', units: 40, ms: 400, unitsPerS: 100 },
    { format: 'scanned pdf', file: 'scan.pdf', bytes: 50000, unit: 'scanned page', units: 1, ms: 30000, unitsPerS: 0.033, sPerPage: 30, wer: 0 },
  ],
  embedders: { staticToMiniLM: 120, static100kTabSeconds: 25, split100kTabSeconds: 4, endpointShareOfLimit: 0.95 },
  cli: { cliHelpMs: 170, cliQueryMs: 900, sourceHelpMs: 2200, sourceQueryMs: 3000, runs: 7 },
  render: { docs: 8, enter: [{ firstPaintMs: 90, paintedMs: 140, workerMs: 50, roundTripMs: 60 }], drag: { steps: 250, searches: 40, perStepMs: 20, workerMeanMs: 8, totalMs: 5000 } },
};
const empty: BenchInputs = { ...full, indexing: null, indexingError: 'no browser', engineRuns: [], backends: [], exports: [], browserImport: null, cold: null, coldError: 'no browser', scale: [], formats: null, embedders: null, render: null, cli: null };

describe('npm run bench --json: the fields the README documents', () => {
  const fields = documentedFields();
  const reports = [benchReport(full), benchReport(empty)];

  it('the README documents the fields other tools read', () => {
    for (const f of ['indexing.ratio', 'query100k[name].ratioToScan', 'sliderMs100k.p50Ms', 'memoryRatio100k', 'bytesPerSentence100k', 'query1m[name].p50Ms', 'sliderMs1m.p50Ms', 'bytesPerSentence1m', 'memoryRatio1m', 'memoryDrift.ratio', 'memory100k.parts']) expect(fields.has(f), f).toBe(true);
  });

  it('every top-level field of the report is documented', () => {
    const documentedTop = new Set([...fields.keys()].map((p) => p.split(/[.[]/)[0]));
    for (const r of reports) expect(Object.keys(r).filter((k) => !documentedTop.has(k))).toEqual([]);
  });

  it('every documented field is in a full or an empty report, with the documented type', () => {
    for (const [path, types] of fields) {
      const found = reports.flatMap((r) => valuesAt(r, path));
      expect(found.length, `${path} is in no report`).toBeGreaterThan(0);
      for (const v of found) expect(types, `${path} = ${JSON.stringify(v)}`).toContain(typeOf(v));
    }
  });

  it('the values are where other tools look for them', () => {
    const r = benchReport(full) as unknown as Record<string, any>;
    expect(r.indexing.ratio).toBeCloseTo(70 / 80, 10);
    expect(r.query100k['window / hybrid'].ratioToScan).toBe(1.33);
    expect(r.sliderMs100k.p50Ms).toBe(4.5);
    expect(r.memoryRatio100k).toBe(3.52);
    expect(r.querySentences).toBe(100_000);
    expect(Object.keys(r.queryBySize)).toEqual(['10000', '100000', '1000000']);
    // The 1M engine run fills the "1m" fields and leaves the "100k" ones to the 100k run.
    expect(r.memoryRatio1m).toBe(1.41);
    expect(r.bytesPerSentence1m).toBe(2600);
    expect(r.sliderMs1m.p50Ms).toBe(9);
    expect(r.query1m['window / hybrid'].p50Ms).toBe(100);
    expect(r.memoryDrift.ratio).toBe(0.01);
    expect(r.memory100k.parts.corpus).toBe(900);
    expect(benchReport({ ...full, engineRuns: [run(100_000)] }).query1m).toBeNull();
    expect(r.ann1m).toMatchObject({ n: 1_000_000, recallAt10: 0.989, answerInContextDelta: -0.01, queryP50Ms: 112, exactQueryP50Ms: 1146 });
    expect(r.scaleBySize['100000'].skipped).toBe('over the 600 s cap');
    expect((benchReport(empty) as unknown as Record<string, unknown>).ann1m).toBeNull();
    expect(r.embedders.split100kTabSeconds).toBe(4);
    expect(r.cli).toMatchObject({ cliHelpMs: 170, cliQueryMs: 900 });
    // A report written after each section says which ended and that the run was not over yet.
    expect(benchReport({ ...empty, engineRuns: [run(10_000)], sectionsDone: ['engine 10000'], complete: false })).toMatchObject({ sectionsDone: ['engine 10000'], complete: false, queryBySize: { '10000': { buildMs: 100 } } });
  });
});
