/**
 * One indexing run in a module worker, as the app's worker does it (src/worker/lab.ts):
 * app  = loadDocument → RetrievalEngine.addDocuments → engine.embedUnits('sentence') with
 *        TransformersEmbedder (configured by src/worker/model-env.ts);
 * bare = the same texts through onnxruntime-web's InferenceSession directly: the same
 *        tokenizer, slices of 256 units, length-sorted batches of 16, mean pooling and L2
 *        normalisation in a plain loop;
 * split = the app path until BM25 can answer: loadDocument → addDocuments → the first BM25
 *        search of the sentence column (which builds its index), no embedding — the model is
 *        loaded only for its tokenizer, which counts every sentence's tokens as in the app.
 */
import { AutoTokenizer, env } from '@huggingface/transformers';
import * as ort from 'onnxruntime-web/webgpu';
import { loadDocument } from '../../../src/core/documents/load';
import { lengthSortedOrder } from '../../../src/core/embed/embedder';
import { TransformersEmbedder } from '../../../src/core/embed/transformers-embedder';
import { RetrievalEngine } from '../../../src/core/engine';
import { configureModelSource, configureRuntime } from '../../../src/worker/model-env';
import { serve } from '../../../src/rpc/server';
import type { RpcPort } from '../../../src/rpc/wire';
import { BENCH_TAG, type BenchApi, type IndexingRequest, type IndexingResult } from './protocol';

const WARMUP = ['A short warm-up sentence.', 'Another one, so that the first batch pays the start-up cost outside the timing.', 'Third.'];

/** The app path up to the split: the model loaded (warmed up when `warmup`), the document parsed and added to an engine. */
async function parsedAndSplit(req: IndexingRequest, warmup: boolean) {
  configureRuntime(req.ortWasm, req.threads);
  await configureModelSource({ model: req.model, source: 'local' }, req.modelsUrl);
  const tl = performance.now();
  const embedder = await TransformersEmbedder.load({ model: req.model, dtype: req.dtype, device: 'wasm' });
  if (warmup) await embedder.embed(WARMUP);
  const modelLoadMs = performance.now() - tl;
  const bytes = new Uint8Array(await (await fetch(req.docUrl!)).arrayBuffer());
  const t0 = performance.now();
  const doc = await loadDocument({ name: req.docName!, bytes });
  const t1 = performance.now();
  const engine = new RetrievalEngine({ embedder });
  engine.addDocuments([doc]);
  const t2 = performance.now();
  return { engine, modelLoadMs, t0, parseMs: t1 - t0, splitMs: t2 - t1, t2 };
}

async function app(req: IndexingRequest): Promise<IndexingResult> {
  const { engine, modelLoadMs, t0, parseMs, splitMs, t2 } = await parsedAndSplit(req, true);
  await engine.embedUnits('sentence', { batchSize: req.batchSize });
  const t3 = performance.now();
  const n = engine.unitCount('sentence');
  return {
    mode: 'app',
    threads: req.threads,
    crossOriginIsolated,
    ortNumThreads: (env.backends.onnx as { wasm?: { numThreads?: number } }).wasm?.numThreads ?? null,
    sentences: n,
    totalMs: t3 - t0,
    stages: { parseMs, splitMs, embedMs: t3 - t2 },
    modelLoadMs,
    texts: Array.from({ length: n }, (_, i) => engine.unitText('sentence', i)),
  };
}

/** Text to searchable by BM25: parse, split and the first BM25 search (the model loaded for its tokenizer only). */
async function split(req: IndexingRequest): Promise<IndexingResult> {
  const { engine, modelLoadMs, t0, parseMs, splitMs, t2 } = await parsedAndSplit(req, false);
  const [r] = await engine.search('What makes the tides?', ['sentence'], { retriever: 'bm25' });
  const t3 = performance.now();
  if (!r?.blocks.length) throw new Error('the first BM25 search found nothing');
  return {
    mode: 'split',
    threads: req.threads,
    crossOriginIsolated,
    ortNumThreads: null,
    sentences: engine.unitCount('sentence'),
    totalMs: t3 - t0,
    stages: { parseMs, splitMs, bm25Ms: t3 - t2 },
    modelLoadMs,
  };
}

async function bare(req: IndexingRequest): Promise<IndexingResult> {
  ort.env.wasm.wasmPaths = { ...req.ortWasm };
  ort.env.wasm.numThreads = req.threads;
  await configureModelSource({ model: req.model, source: 'local' }, req.modelsUrl);
  const tl = performance.now();
  const tokenizer = await AutoTokenizer.from_pretrained(req.model);
  const modelBytes = new Uint8Array(await (await fetch(`${req.modelsUrl}${req.model}/${req.onnxFile}`)).arrayBuffer());
  const session = await ort.InferenceSession.create(modelBytes, { executionProviders: ['wasm'], logSeverityLevel: 2 });
  const texts = req.texts!;
  let dim = 0;
  let runMs = 0;
  let tokenizeMs = 0;
  const embedBatch = async (batch: string[], out: Float32Array | null, rows: number[]) => {
    const ta = performance.now();
    const enc = tokenizer(batch, { padding: true, truncation: true }) as unknown as Record<string, { data: BigInt64Array; dims: number[] }>;
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of session.inputNames) {
      const t = enc[name] ?? (name === 'token_type_ids' ? { data: new BigInt64Array(enc.input_ids!.data.length), dims: enc.input_ids!.dims } : undefined);
      if (!t) throw new Error(`the tokenizer gives no ${name}`);
      feeds[name] = new ort.Tensor('int64', t.data, t.dims);
    }
    const tb = performance.now();
    const res = await session.run(feeds);
    const tc = performance.now();
    tokenizeMs += tb - ta;
    runMs += tc - tb;
    const hidden = res[session.outputNames[0]!]!;
    const [b, len, d] = hidden.dims as number[];
    dim = d!;
    const h = hidden.data as Float32Array;
    const mask = enc.attention_mask!.data;
    if (!out) return;
    for (let r = 0; r < b!; r++) {
      const v = out.subarray(rows[r]! * d!, (rows[r]! + 1) * d!);
      let count = 0;
      for (let t = 0; t < len!; t++) {
        if (mask[r * len! + t] === 0n) continue;
        count++;
        const off = (r * len! + t) * d!;
        for (let j = 0; j < d!; j++) v[j]! += h[off + j]!;
      }
      let norm = 0;
      for (let j = 0; j < d!; j++) norm += (v[j]! /= Math.max(1, count)) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let j = 0; j < d!; j++) v[j]! /= norm;
    }
  };
  await embedBatch(WARMUP, null, []);
  const modelLoadMs = performance.now() - tl;
  runMs = tokenizeMs = 0;
  const t0 = performance.now();
  const vectors = new Float32Array(texts.length * dim);
  for (let start = 0; start < texts.length; start += req.slice) {
    const slice = texts.slice(start, start + req.slice);
    const order = lengthSortedOrder(slice);
    for (let b = 0; b < order.length; b += req.batchSize) {
      const idx = order.slice(b, b + req.batchSize);
      await embedBatch(idx.map((i) => slice[i]!), vectors, idx.map((i) => start + i));
    }
  }
  const t1 = performance.now();
  return {
    mode: 'bare',
    threads: req.threads,
    crossOriginIsolated,
    ortNumThreads: ort.env.wasm.numThreads ?? null,
    sentences: texts.length,
    totalMs: t1 - t0,
    stages: { tokenizeMs, sessionRunMs: runMs, poolMs: t1 - t0 - tokenizeMs - runMs },
    modelLoadMs,
  };
}

serve<BenchApi>(
  self as unknown as RpcPort,
  BENCH_TAG,
  {
    index: {
      concurrency: 'serial',
      run: (req) => {
        env.useWasmCache = false;
        return req.mode === 'app' ? app(req) : req.mode === 'split' ? split(req) : bare(req);
      },
    },
  },
  // The stack travels too: the harness prints it.
  { describeError: (err) => ({ code: 'failed', message: `${(err as Error)?.message ?? err}\n${(err as Error)?.stack ?? ''}` }) },
);
