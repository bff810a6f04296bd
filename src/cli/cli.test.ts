/**
 * The command line's commands end to end. What a command says and returns runs in this process
 * (cli-runner.ts: main() itself, no start-up); a few runs spawn the bundle the published command
 * runs, for what only a process shows: --help from a cold start, the exit code Node ends with,
 * and PGlite's WebAssembly found from the bundle by verify.
 */
import { SHARED_DATA } from '../node/paths';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES, STRATEGY_LABELS } from '../core/retrieve/params';
import { cli, cliInProcess, stderrLines, type Run } from './cli-runner';

const SQUAD = `${SHARED_DATA}/squad_en/squad-dev-v1.1.from-explorer.json`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-lab-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const SOLAR = `# Solar Energy

Solar panels convert sunlight into electricity. Photovoltaic cells are made of silicon.

## Storage

Batteries store excess energy for the night. Lithium batteries are common in homes.

## Costs

The cost of solar panels has fallen sharply over the last decade. Installation is cheaper too.
`;

describe.concurrent('rag-lab eval', () => {
  it('--json prints exactly one JSON object: every strategy × 3 retrievers', async () => {
    const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '10', '--budget', '256', '--json');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.trim());
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(['dataset', 'embedder', 'questions', 'results']);
    expect(out.dataset).toBe('squad-dev-v1.1.from-explorer.json');
    expect(out.questions).toBe(10);
    expect(out.embedder).toMatch(/^rag-lab\/test-embedder .*TEST MODEL/);
    expect(out.results).toHaveLength(STRATEGIES.length * 3);
    const combos = new Set<string>();
    for (const row of out.results) {
      // Naive chunks are the baseline: every other strategy carries its paired difference from them.
      expect(Object.keys(row).sort()).toEqual(['budgetTokens', 'intervals', 'metrics', 'params', 'strategy', ...(row.strategy === 'naive' ? [] : ['vsBaseline'])]);
      expect(STRATEGIES).toContain(row.strategy);
      expect(['bm25', 'vector', 'hybrid']).toContain(row.params.retriever);
      combos.add(`${row.strategy}/${row.params.retriever}`);
      expect(row.budgetTokens).toBe(256);
      expect(row.params.topK).toBe(50);
      const m = row.metrics;
      expect(Object.keys(m).sort()).toEqual(['answerInContext', 'contextPrecision', 'hitAt1', 'hitAt5', 'meanContextTokens', 'mrr', 'ndcg10', 'recallAt5']);
      // Each metric's 95 % bootstrap interval holds its mean; a difference from naive chunks holds its own.
      expect(Object.keys(row.intervals).sort()).toEqual(Object.keys(m).sort());
      for (const k of Object.keys(m)) {
        expect(row.intervals[k].low).toBeLessThanOrEqual(m[k] + 1e-9);
        expect(row.intervals[k].high).toBeGreaterThanOrEqual(m[k] - 1e-9);
      }
      if (row.vsBaseline) {
        expect(row.vsBaseline.metric).toBe('answerInContext');
        expect(row.vsBaseline.low).toBeLessThanOrEqual(row.vsBaseline.mean);
        expect(row.vsBaseline.distinguishable).toBe(row.vsBaseline.low > 0 || row.vsBaseline.high < 0);
      }
      for (const k of ['hitAt1', 'hitAt5', 'answerInContext', 'recallAt5', 'mrr', 'ndcg10']) {
        expect(m[k]).toBeGreaterThanOrEqual(0);
        expect(m[k]).toBeLessThanOrEqual(1);
      }
      expect(m.hitAt1).toBeLessThanOrEqual(m.hitAt5);
      // Means over 10 questions of 0/1 values are multiples of 0.1.
      expect(Math.round(m.hitAt5 * 10)).toBeCloseTo(m.hitAt5 * 10, 9);
      expect(m.meanContextTokens).toBeGreaterThan(0);
      expect(m.meanContextTokens).toBeLessThanOrEqual(256);
    }
    expect(combos.size).toBe(STRATEGIES.length * 3);
    // Progress goes to stderr, never stdout.
    expect(r.stderr).toMatch(/embedding/);
  });

  it('--sweep --json prints one entry per parameter point', async () => {
    const r = await cliInProcess('eval', '--sweep', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '5', '--strategies', 'window,naive', '--retriever', 'bm25', '--budget', '128,256', '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { questions: number; results: { strategy: string; params: Record<string, unknown>; budgetTokens: number }[] };
    expect(out.questions).toBe(5);
    // (36 windows 0–5 × 0–5 + 1 naive) × 2 budgets
    expect(out.results).toHaveLength(74);
    const windows = out.results.filter((x) => x.strategy === 'window' && x.budgetTokens === 128).map((x) => `${x.params.before}/${x.params.after}`);
    expect(new Set(windows).size).toBe(36);
    expect(windows).toContain('5/0');
    expect(out.results.every((x) => x.budgetTokens === 128 || x.budgetTokens === 256)).toBe(true);
  });

  it('--sweep prints the best setting per budget and its margin over naive chunks', async () => {
    const r = await cliInProcess('eval', '--sweep', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '5', '--strategies', 'window,naive', '--retriever', 'bm25', '--budget', '256');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/== budget 256 tokens: best (window|naive) \(bm25; .*\) answerInContext \d\.\d{3}, [+-]\d\.\d{3} over the best naive chunks/);
  });

  it('--embedder none runs BM25 only', async () => {
    const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '5', '--embedder', 'none', '--json', '--strategies', 'naive,window');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.embedder).toBe('none');
    expect(out.questions).toBe(5);
    expect(out.results.map((x: { strategy: string; params: { retriever: string } }) => `${x.strategy}/${x.params.retriever}`)).toEqual(['naive/bm25', 'window/bm25']);
    for (const x of out.results) expect(x.budgetTokens).toBe(512);
  });

  it('prints a table without --json', async () => {
    const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '3', '--embedder', 'none');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/dataset squad-dev-v1\.1\.from-explorer\.json: 1 documents, \d+ sentences, 3 questions/);
    expect(r.stdout).toMatch(/retriever\s+strategy\s+hit@1/);
    for (const s of STRATEGIES) expect(r.stdout).toMatch(new RegExp(`bm25\\s+${s}`));
  });

  it('a bad --data path: exit code 2 and one "error:" line', async () => {
    const r = await cliInProcess('eval', '--data', join(dir, 'no-such-file.json'));
    expect(r.code).toBe(2);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --data .*no-such-file\.json: no such file or folder$/);
    expect(r.stdout).toBe('');
  });

  it('a malformed dataset: exit code 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"foo": 1}');
    const r = await cliInProcess('eval', '--data', bad);
    expect(r.code).toBe(2);
    const lines = stderrLines(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --data .*bad\.json: not a SQuAD-format file/);

    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{"data": [');
    const r2 = await cliInProcess('eval', '--data', notJson);
    expect(r2.code).toBe(2);
    expect(stderrLines(r2)).toHaveLength(1);
    expect(stderrLines(r2)[0]).toMatch(/^error: .*not valid JSON/);
  });

  it('a folder that is not a BEIR folder: exit code 2', async () => {
    const r = await cliInProcess('eval', '--data', dir);
    expect(r.code).toBe(2);
    expect(stderrLines(r)[0]).toMatch(/^error: .*not a BEIR folder \(missing corpus\.jsonl\)/);
  });

  it('usage errors exit 2 with one "error:" line', async () => {
    const cases = [
      ['eval'],
      ['eval', '--data', SQUAD, '--strategies', 'naive,bogus'],
      ['eval', '--data', SQUAD, '--embedder', 'none', '--retriever', 'vector'],
      ['frobnicate'],
      ['eval', '--no-such-option'],
      ['query'],
      ['query', 'a question'],
      ['eval', '--data', SQUAD, '--levels', '128,512'],
      ['eval', '--data', SQUAD, '--chunk-size', '0'],
      ['eval', '--data', SQUAD, '--threshold', '2'],
      ['eval', '--data', SQUAD, '--window', ',2'],
      ['eval', '--data', SQUAD, '--top-k', '0'],
      ['eval', '--data', SQUAD, '--analyzer', 'porter'],
      ['eval', '--data', SQUAD, '--bm25', 'bm42'],
      ['eval', '--data', SQUAD, '--packed-size', '0'],
      ['eval', '--data', SQUAD, '--semantic-buffer', '1.5'],
    ];
    // Each case is the dispatcher's answer (in this process); two also go through the process
    // (a parse error, an unknown command), for the exit code main.ts hands to Node.
    const spawned = [['frobnicate'], ['eval', '--no-such-option']];
    const processRuns = Promise.all(spawned.map((args) => cli(...args)));
    const runs: { args: string[]; r: Run }[] = [];
    for (const args of cases) runs.push({ args, r: await cliInProcess(...args) });
    (await processRuns).forEach((r, i) => runs.push({ args: spawned[i]!, r }));
    for (const { args, r } of runs) {
      expect(r.code, args.join(' ')).toBe(2);
      const lines = stderrLines(r);
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: /);
    }
  });

  it('a bad numeric option value: exit code 2, the error is the last stderr line', async () => {
    const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '2', '--budget', 'abc');
    expect(r.code).toBe(2);
    expect(stderrLines(r).at(-1)).toBe('error: --budget must be a whole number ≥ 0, got "abc"');
    expect(r.stdout).toBe('');
  });

  // Option values are validated before the dataset is loaded or anything is embedded:
  // a typo in --budget must not cost a full embedding run.
  it('rejects a bad option value before loading and embedding anything', async () => {
    const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--budget', 'abc');
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/embedding/);
    expect(stderrLines(r)).toEqual(['error: --budget must be a whole number ≥ 0, got "abc"']);
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await cli('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^rag-lab/);
    expect(r.stdout).toContain('eval --data PATH');
    for (const flag of ['--packed-size N', '--packed-overlap N', '--semantic-buffer N', '--semantic-percentile P']) expect(r.stdout).toContain(flag);
  });

  it('packed and semantic chunk options: errors name the option; BM25 alone gives packed blocks and says semantic chunking needs a model', async () => {
    const md = join(dir, 'solar-chunkers.md');
    writeFileSync(md, SOLAR);
    const [overlap, percentile, r] = await Promise.all([
      cliInProcess('query', 'q', md, '--packed-size', '64', '--packed-overlap', '64'),
      cliInProcess('query', 'q', md, '--semantic-percentile', '101'),
      cliInProcess('query', 'How do batteries store energy?', md, '--retriever', 'bm25', '--strategies', 'packed,semantic', '--packed-size', '16', '--packed-overlap', '0'),
    ]);
    expect(overlap.code).toBe(2);
    expect(stderrLines(overlap)).toEqual(['error: --packed-overlap must be a whole number ≥ 0 and smaller than --packed-size (64), got 64']);
    expect(percentile.code).toBe(2);
    expect(stderrLines(percentile)).toEqual(['error: --semantic-percentile must be a number in [0, 100], got 101']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/== Sentence-packed chunks · bm25 · [1-9]\d* blocks/);
    expect(r.stdout).toMatch(/== Semantic chunks · bm25 · 0 blocks · 0 tokens .*semantic chunking needs an embedding model/);
  });
});

describe.concurrent('rag-lab query and index', () => {
  it('query "…" <file.md> prints a table per strategy', async () => {
    const md = join(dir, 'solar.md');
    writeFileSync(md, SOLAR);
    const r = await cliInProcess('query', 'How do batteries store energy?', md);
    expect(r.code, r.stderr).toBe(0);
    for (const s of STRATEGIES) expect(r.stdout).toContain(`== ${STRATEGY_LABELS[s]} · hybrid ·`);
    expect(r.stdout.match(/^#\s+score\s+tokens\s+where\s+from\s+text$/gm)).toHaveLength(STRATEGIES.length);
    // The sentence strategy's first hit is the batteries sentence, found by both retrievers.
    const sentenceTable = r.stdout.split('== ').find((t) => t.startsWith(STRATEGY_LABELS.sentence))!;
    const firstRow = sentenceTable.split('\n')[3]!;
    expect(firstRow).toMatch(/^1\s/);
    expect(firstRow).toContain('Batteries store excess energy for the night.');
    expect(firstRow).toMatch(/bm25 #1 · vector #\d+ · rrf 0\.\d{4}/);
    expect(firstRow).toContain('Solar Energy › Storage');
  });

  it('query with --retriever bm25 and --embedder none', async () => {
    const md = join(dir, 'solar2.md');
    writeFileSync(md, SOLAR);
    const r = await cliInProcess('query', 'cost of solar panels', md, '--embedder', 'none', '--strategies', 'sentence', '--retriever', 'bm25');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`== ${STRATEGY_LABELS.sentence} · bm25 ·`);
    expect(r.stdout).toMatch(/^1\s.*The cost of solar panels has fallen sharply/m);
    expect(r.stderr).not.toMatch(/embedding/);
  });

  it('query --analyzer stem --bm25 lucene: a stemmed word finds its other forms, and the header says how BM25 scored', async () => {
    const md = join(dir, 'solar-stem.md');
    writeFileSync(md, SOLAR);
    const plain = await cliInProcess('query', 'panel costing', md, '--embedder', 'none', '--strategies', 'sentence', '--retriever', 'bm25', '--analyzer', 'words', '--bm25', 'bm25plus');
    expect(plain.stdout).toContain('BM25 scored as BM25+ · words');
    expect(plain.stdout).not.toMatch(/The cost of solar panels has fallen sharply/);
    const r = await cliInProcess('query', 'panel costing', md, '--embedder', 'none', '--strategies', 'sentence', '--retriever', 'bm25', '--analyzer', 'stem', '--bm25', 'lucene');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`== ${STRATEGY_LABELS.sentence} · bm25 ·`);
    expect(r.stdout).toContain('BM25 scored as Lucene BM25 · stem');
    expect(r.stdout).toMatch(/^1\s.*The cost of solar panels has fallen sharply/m);
  });

  it('index <file> --out corpus.json, then query --corpus corpus.json', async () => {
    const md = join(dir, 'solar3.md');
    writeFileSync(md, SOLAR);
    const out = join(dir, 'corpus.json');
    const r = await cliInProcess('index', md, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/document\s+language\s+sections\s+pages\s+sentences/);
    expect(r.stdout).toMatch(/\d+ sentences · \d+ leaves · \d+ naive chunks · embedder rag-lab\/test-embedder/);
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    expect(saved.format).toBe('rag-lab-corpus');
    expect(saved.version).toBe(1);
    expect(saved.embedder).toBe('rag-lab/test-embedder');
    expect(saved.docs).toHaveLength(1);
    expect(saved.docs[0].title).toBe('Solar Energy');
    for (const kind of ['sentence', 'leaf', 'chunk']) {
      const bytes = Buffer.from(saved.vectors[kind], 'base64');
      expect(bytes.length % (128 * 4), kind).toBe(0);
      expect(bytes.length).toBeGreaterThan(0);
    }

    const q = await cliInProcess('query', 'How do batteries store energy?', '--corpus', out);
    expect(q.code, q.stderr).toBe(0);
    for (const s of STRATEGIES) expect(q.stdout).toContain(`== ${STRATEGY_LABELS[s]} · hybrid ·`);
    // Vectors come from the file: nothing is re-embedded, and vector search is available.
    expect(q.stderr).not.toMatch(/embedding/);
    expect(q.stdout).not.toMatch(/BM25 results only/);
    expect(q.stdout).toMatch(/Batteries store excess energy for the night\./);
    expect(q.stdout).toMatch(/vector #1/);
  });

  it('query --corpus with a file that is not a saved corpus: exit 2', async () => {
    const notCorpus = join(dir, 'not-corpus.json');
    writeFileSync(notCorpus, '{"hello": "world"}');
    const r = await cliInProcess('query', 'anything', '--corpus', notCorpus);
    expect(r.code).toBe(2);
    expect(stderrLines(r)).toEqual([expect.stringMatching(/^error: --corpus .*not a corpus saved by "rag-lab index"/)]);
  });

  it('index without --out: exit 2', async () => {
    const md = join(dir, 'solar4.md');
    writeFileSync(md, SOLAR);
    const r = await cliInProcess('index', md);
    expect(r.code).toBe(2);
    expect(stderrLines(r)).toEqual(['error: index: --out FILE is required']);
  });
});

describe.concurrent('without a generated or reachable embedding model', () => {
  /** An empty models folder: what a fresh clone has before "npm run models:test". */
  function emptyModels(): string {
    return mkdtempSync(join(dir, 'no-models-'));
  }
  const NOTE = 'note: --retriever bm25: no vectors computed (BM25 needs no model)';

  it('eval --retriever bm25 runs and says once that no vectors were computed', async () => {
    const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '5', '--retriever', 'bm25', '--models-dir', emptyModels(), '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(stderrLines(r).filter((l) => l === NOTE)).toHaveLength(1);
    const out = JSON.parse(r.stdout);
    expect(out.embedder).toBe('none');
    expect(new Set(out.results.map((x: { params: { retriever: string } }) => x.params.retriever))).toEqual(new Set(['bm25']));
    expect(out.results).toHaveLength(STRATEGIES.length);
  });

  it('query --retriever bm25 runs over files', async () => {
    const md = join(dir, 'solar-nomodel.md');
    writeFileSync(md, SOLAR);
    const r = await cliInProcess('query', 'cost of solar panels', md, '--retriever', 'bm25', '--strategies', 'sentence', '--models-dir', emptyModels());
    expect(r.code, r.stderr).toBe(0);
    expect(stderrLines(r)).toEqual([NOTE]);
    expect(r.stdout).toMatch(/^1\s.*The cost of solar panels has fallen sharply/m);
  });

  it('index --retriever bm25 saves a corpus without vectors, which query --corpus reads', async () => {
    const md = join(dir, 'solar-nomodel2.md');
    writeFileSync(md, SOLAR);
    const out = join(dir, 'corpus-bm25.json');
    const models = emptyModels();
    const r = await cliInProcess('index', md, '--out', out, '--retriever', 'bm25', '--models-dir', models);
    expect(r.code, r.stderr).toBe(0);
    expect(stderrLines(r)).toEqual([NOTE]);
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    expect(saved.embedder).toBeNull();
    expect(saved.vectors).toEqual({});
    const q = await cliInProcess('query', 'Batteries for the night', '--corpus', out, '--retriever', 'bm25', '--strategies', 'sentence', '--models-dir', models);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toMatch(/^1\s.*bm25 #1.*Batteries store excess energy for the night\./m);
  });

  for (const retriever of ['vector', 'hybrid']) {
    it(`eval --retriever ${retriever}: one error line naming the command that fixes it, exit 2`, async () => {
      const r = await cliInProcess('eval', '--data', SQUAD, '--limit-docs', '1', '--retriever', retriever, '--models-dir', emptyModels());
      expect(r.code).toBe(2);
      expect(stderrLines(r)).toEqual(['error: the test embedder is not generated yet: run "npm run models:test" first']);
    });
  }
});

describe('rag-lab export, verify, index --from', () => {
  it('exports a bundle, verifies it in PGlite (exit 0, 100 %), and indexes from it without embedding', async () => {
    const out = join(dir, 'bundle');
    const e = await cliInProcess('export', '--data', SQUAD, '--limit-docs', '1', '--limit-questions', '2', '--strategy', 'automerge', '--budget', '256', '--out', out);
    expect(e.code, e.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.strategy.name ?? manifest.strategy).toMatch(/automerge/);
    // As a child process: PGlite's WebAssembly and data files are found from the bundle.
    const v = await cli('verify', out, '--engine', 'pglite');
    expect(v.code, v.stderr + v.stdout).toBe(0);
    expect(v.stdout).toMatch(/agreement: 100 %/);
    const saved = join(dir, 'from-bundle.json');
    const i = await cliInProcess('index', '--from', out, '--out', saved);
    expect(i.code, i.stderr).toBe(0);
    expect(i.stderr).not.toMatch(/embedding/);
    expect(JSON.parse(readFileSync(saved, 'utf8')).docs).toHaveLength(1);
  });

  it('verify with an unknown engine, or a folder that is not a bundle: one error line, exit 2', async () => {
    const r = await cliInProcess('verify', dir, '--engine', 'oracle');
    expect(r.code).toBe(2);
    expect(stderrLines(r)).toHaveLength(1);
    expect(stderrLines(r)[0]).toMatch(/^error: /);
  });
});
