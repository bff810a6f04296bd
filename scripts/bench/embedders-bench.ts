/**
 * npx tsx scripts/bench/embedders-bench.ts [--out FILE] [--quick] [--no-browser] [--only endpoint|node|tab|split] [--limit TEXTS_PER_S]
 *
 * Embedding models (issue 31), three numbers:
 *  - staticToMiniLM: sentences per second of the generated static stand-in (Model2Vec-shaped,
 *    rag-lab/test-static-embedder) over the MiniLM-shaped stand-in (real architecture, random
 *    weights, q8: ../shared/models/stand-ins/minilm-l6-shape-random), the same sentences, the
 *    same Chromium tab (the indexing harness, app path: embedUnits('sentence'), 2 threads),
 *    embedding stage only. Node's ratio is printed beside it.
 *  - static100kTabSeconds: 100,000 sentences indexed with static vectors in that tab (parse,
 *    split and embed; the model already loaded).
 *  - split100kTabSeconds: the same 100,000 sentences from text to searchable by BM25 in a fresh
 *    tab worker (parse, split, the first BM25 search; the model loaded for its tokenizer only).
 *  - endpointShareOfLimit: 10,000 sentences through EndpointEmbedder with its default batch and
 *    concurrency against the mock server (its own process) limited to LIMIT texts a second (500):
 *    achieved texts/s ÷ LIMIT.
 * Prints a table; asserts nothing about time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { renderTable } from '../../src/cli/table';
import { EndpointEmbedder, ENDPOINT_DEFAULTS } from '../../src/core/embed/endpoint-embedder';
import { TransformersEmbedder } from '../../src/core/embed/transformers-embedder';
import { setupNode } from '../../src/node/setup';
import { CACHE, launch } from './browser-bench';
import { longSquadText, PROJECT_ROOT } from './common';
import { serveStatic } from './server';
import type { IndexingRequest, IndexingResult } from './browser/protocol';

export interface EmbeddersBench {
  staticToMiniLM: number | null;
  static100kTabSeconds: number | null;
  split100kTabSeconds: number | null;
  endpointShareOfLimit: number | null;
  detail: Record<string, unknown>;
}

const { values } = parseArgs({ options: { out: { type: 'string' }, quick: { type: 'boolean' }, 'no-browser': { type: 'boolean' }, only: { type: 'string' }, limit: { type: 'string' } } });
const quick = Boolean(values.quick);
/** `tab` runs the three tab rows; `split` the split row alone (for A/B runs of the splitter). */
const want = (part: 'endpoint' | 'node' | 'tab' | 'split') => !values.only || values.only === part || (part === 'split' && values.only === 'tab');
const log = (s: string) => process.stderr.write(`[embedders] ${s}\n`);
const STAND_IN = resolve(PROJECT_ROOT, '../shared/models/stand-ins/minilm-l6-shape-random');
const STATIC_DIR = resolve(PROJECT_ROOT, 'public/models/rag-lab/test-static-embedder');
const MINILM_ID = 'rag-lab/minilm-stand-in';
const STATIC_ID = 'rag-lab/test-static-embedder';
const RATIO_SENTENCES = quick ? 300 : 1000;
const BIG = quick ? 20_000 : 100_000;
const ENDPOINT_SENTENCES = 10_000;
/**
 * The mock's capacity, texts/s. At 384 dimensions this machine's JSON alone (the mock writing
 * it, the client reading it) tops out near 1,000 texts/s in one process, so a higher limit
 * would measure JSON speed rather than whether batching and concurrency keep a server busy.
 */
const LIMIT = Number(values.limit ?? 500);

/** SQuAD contexts repeated (each copy's paragraphs numbered apart) until about `n` sentences. */
function sentencesText(n: number): string {
  const base = longSquadText(n).split('\n\n');
  const out: string[] = [];
  let count = 0;
  for (let rep = 0; count < n; rep++) {
    for (const p of base) {
      const para = rep ? `Copy ${rep}. ${p}` : p;
      out.push(para);
      count += (para.match(/[.!?](\s|$)/g) ?? []).length;
      if (count >= n) break;
    }
  }
  return out.join('\n\n');
}

const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+/).filter((s) => s.trim());

/** A models folder holding both stand-ins under the ids the embedders load. */
function modelsFolder(): string {
  const dir = join(CACHE, 'embedders-models');
  mkdirSync(join(dir, 'rag-lab'), { recursive: true });
  for (const [id, target] of [[MINILM_ID, STAND_IN], [STATIC_ID, STATIC_DIR]] as const) if (!existsSync(join(dir, id))) symlinkSync(target, join(dir, id));
  return dir;
}

async function nodeRatio(texts: string[]): Promise<{ miniLM: number; static: number }> {
  setupNode({ modelsDir: modelsFolder() });
  const rate = async (e: TransformersEmbedder, t: string[]) => {
    await e.embed(t.slice(0, 8));
    const t0 = performance.now();
    await e.embed(t, { batchSize: 16 });
    return t.length / ((performance.now() - t0) / 1000);
  };
  const mini = await TransformersEmbedder.load({ model: MINILM_ID, dtype: 'q8' });
  const miniLM = await rate(mini, texts);
  const stat = await TransformersEmbedder.load({ model: STATIC_ID, dtype: 'fp32' });
  // Static batches are cheap: 256 texts per call, as the page would use.
  await stat.embed(texts.slice(0, 8));
  const reps = 20;
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) await stat.embed(texts, { batchSize: 256 });
  return { miniLM, static: (texts.length * reps) / ((performance.now() - t0) / 1000) };
}

async function browserRuns(): Promise<{ miniLM?: IndexingResult; static?: IndexingResult; big?: IndexingResult; split?: IndexingResult }> {
  const outDir = join(CACHE, 'harness-embedders');
  log('building the harness page…');
  await build({ configFile: resolve(import.meta.dirname, 'vite.bench.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const data = join(CACHE, 'embedders-data');
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'small.txt'), sentencesText(RATIO_SENTENCES));
  writeFileSync(join(data, 'big.txt'), sentencesText(BIG));
  const server = await serveStatic({ '/': outDir, [`/models/${MINILM_ID}/`]: STAND_IN, [`/models/${STATIC_ID}/`]: STATIC_DIR, '/bench-data/': data });
  const browser = await launch();
  const page = await browser.newPage();
  try {
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true, null, { timeout: 60_000 });
    const run = (req: Omit<IndexingRequest, 'ortWasm' | 'modelsUrl' | 'mode' | 'threads' | 'slice'>, mode: IndexingRequest['mode'] = 'app') =>
      page.evaluate((r) => (window as unknown as { benchIndexing: (x: unknown) => Promise<IndexingResult> }).benchIndexing(r), {
        ...req,
        mode,
        threads: 2,
        slice: 256,
        modelsUrl: `${server.origin}/models/`,
      } satisfies Omit<IndexingRequest, 'ortWasm'>);
    const small = { docUrl: `${server.origin}/bench-data/small.txt`, docName: 'small.txt' };
    const bigDoc = { docUrl: `${server.origin}/bench-data/big.txt`, docName: 'big.txt', model: STATIC_ID, dtype: 'fp32', onnxFile: 'onnx/model.onnx', batchSize: 256 } as const;
    const out: Awaited<ReturnType<typeof browserRuns>> = {};
    if (want('tab')) {
      log(`MiniLM stand-in, ${RATIO_SENTENCES} sentences, tab…`);
      out.miniLM = { ...(await run({ ...small, model: MINILM_ID, dtype: 'q8', onnxFile: 'onnx/model_quantized.onnx', batchSize: 16 })), texts: [] };
      log(`static stand-in, the same sentences, tab…`);
      out.static = { ...(await run({ ...small, model: STATIC_ID, dtype: 'fp32', onnxFile: 'onnx/model.onnx', batchSize: 256 })), texts: [] };
      log(`static stand-in, ${BIG.toLocaleString('en')} sentences, tab…`);
      out.big = { ...(await run(bigDoc)), texts: [] };
    }
    log(`split: ${BIG.toLocaleString('en')} sentences to the first BM25 answer, tab…`);
    out.split = await run(bigDoc, 'split');
    return out;
  } finally {
    await page.close();
    await browser.close();
    await server.close();
  }
}

async function endpointShare(texts: string[]): Promise<{ seconds: number; textsPerS: number; share: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'embedding-mock-serve.ts'), '--limit', String(LIMIT), '--dim', '384'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((res, rej) => {
      child.stdout.setEncoding('utf8').once('data', (d: string) => res((JSON.parse(d.split('\n')[0]!) as { url: string }).url));
      child.once('exit', (code) => rej(new Error(`the mock server exited (${code})`)));
    });
    const e = await EndpointEmbedder.connect({ baseUrl: url, model: 'mock-embed' });
    const t0 = performance.now();
    await e.embed(texts);
    const seconds = (performance.now() - t0) / 1000;
    return { seconds, textsPerS: texts.length / seconds, share: texts.length / seconds / LIMIT };
  } finally {
    child.kill();
  }
}

const all = sentencesOf(sentencesText(Math.max(RATIO_SENTENCES, ENDPOINT_SENTENCES) + 500));
const result: EmbeddersBench = { staticToMiniLM: null, static100kTabSeconds: null, split100kTabSeconds: null, endpointShareOfLimit: null, detail: {} };
const rows: (string | number)[][] = [];

if (want('endpoint')) {
log(`endpoint: ${ENDPOINT_SENTENCES.toLocaleString('en')} sentences, mock limited to ${LIMIT}/s, defaults batch ${ENDPOINT_DEFAULTS.batchSize} × ${ENDPOINT_DEFAULTS.concurrency} in flight…`);
const ep = await endpointShare(all.slice(0, ENDPOINT_SENTENCES));
result.endpointShareOfLimit = ep.share;
result.detail.endpoint = { ...ep, limit: LIMIT, batchSize: ENDPOINT_DEFAULTS.batchSize, concurrency: ENDPOINT_DEFAULTS.concurrency };
rows.push([`endpoint, ${ENDPOINT_SENTENCES.toLocaleString('en')} sentences (mock limit ${LIMIT}/s)`, ep.textsPerS.toFixed(0), ep.seconds.toFixed(1), `share of limit ${ep.share.toFixed(3)}`]);
}

if (want('node')) {
log(`Node: MiniLM stand-in vs static stand-in on ${RATIO_SENTENCES} sentences…`);
const node = await nodeRatio(all.slice(0, RATIO_SENTENCES));
result.detail.node = node;
rows.push([`Node: MiniLM stand-in (q8)`, node.miniLM.toFixed(0), '', '']);
rows.push([`Node: static stand-in`, node.static.toFixed(0), '', `×${(node.static / node.miniLM).toFixed(0)} MiniLM`]);
}

if (!values['no-browser'] && (want('tab') || want('split'))) {
  try {
    const b = await browserRuns();
    const perS = (r: IndexingResult) => r.sentences / (r.stages.embedMs! / 1000);
    result.detail.browser = b;
    if (b.miniLM && b.static && b.big) {
      result.staticToMiniLM = perS(b.static) / perS(b.miniLM);
      result.static100kTabSeconds = b.big.totalMs / 1000;
      rows.push([`tab: MiniLM stand-in, ${b.miniLM.sentences} sentences`, perS(b.miniLM).toFixed(0), (b.miniLM.stages.embedMs! / 1000).toFixed(1), '']);
      rows.push([`tab: static stand-in, same sentences`, perS(b.static).toFixed(0), (b.static.stages.embedMs! / 1000).toFixed(2), `×${result.staticToMiniLM.toFixed(0)} MiniLM`]);
      rows.push([`tab: static stand-in, ${b.big.sentences.toLocaleString('en')} sentences (parse+split+embed)`, (b.big.sentences / (b.big.totalMs / 1000)).toFixed(0), result.static100kTabSeconds.toFixed(1), `parse ${(b.big.stages.parseMs! / 1000).toFixed(1)} s, split ${(b.big.stages.splitMs! / 1000).toFixed(1)} s, embed ${(b.big.stages.embedMs! / 1000).toFixed(1)} s`]);
    }
    if (b.split) {
      const s = b.split;
      result.split100kTabSeconds = s.totalMs / 1000;
      rows.push([`tab: ${s.sentences.toLocaleString('en')} sentences, text to the first BM25 answer`, (s.sentences / (s.totalMs / 1000)).toFixed(0), result.split100kTabSeconds.toFixed(1), `parse ${(s.stages.parseMs! / 1000).toFixed(1)} s, split ${(s.stages.splitMs! / 1000).toFixed(1)} s, BM25 ${(s.stages.bm25Ms! / 1000).toFixed(1)} s`]);
    }
  } catch (e) {
    result.detail.browserError = (e as Error).message;
    rows.push(['tab runs', 'failed', '', (e as Error).message.split('\n')[0]!]);
  }
}

console.log(`10. Embedding models (static stand-in, endpoint)${quick ? ' — QUICK' : ''}`);
console.log(renderTable(['run', 'sentences/s', 'seconds', ''], rows));
if (values.out) writeFileSync(values.out, JSON.stringify(result, null, 2));
