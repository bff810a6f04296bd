/**
 * Generates the project's deterministic TEST embedder: a tiny ONNX graph with the BERT
 * signature (input_ids, attention_mask, token_type_ids → last_hidden_state) whose token
 * embeddings are a seeded random table. Mean pooling over it gives a bag-of-word-pieces
 * vector whose cosine follows word overlap: enough to test that a query finds its
 * sentence, through the very same transformers.js path the app uses for real models.
 * It carries NO learned meaning: it is labelled "test model" everywhere.
 *
 * Written in TypeScript with onnx-proto (not Python's onnx) so a fresh machine needs
 * nothing but npm to build it. Output: public/models/rag-lab/test-embedder/ (git-ignored),
 * so the web app and the e2e tests can load it from the same self-hosted /models/ path.
 */
import { mkdirSync, copyFileSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto as unknown as typeof import('onnx-proto');

export const TEST_MODEL_ID = 'rag-lab/test-embedder';
export const TEST_MODEL_DIM = 128;
const VOCAB = 30522;
const SEED = 20261122;
/** Bump when the graph or the table changes, so stale generated files are rebuilt. */
const VERSION = 2;

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const outDir = join(root, 'public', 'models', TEST_MODEL_ID);
const tokenizerDir = join(here, 'test-model', 'tokenizer');

/** mulberry32: tiny, seedable, identical on every platform. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Weight of a word piece. BERT's uncased vocabulary lists whole words from id 1996 on in
 * roughly descending corpus frequency ("the", "of", "and", …), so the id is a cheap IDF
 * proxy: frequent pieces get small vectors and stop dominating the mean. Special tokens
 * ([PAD] [UNK] [CLS] [SEP] [MASK]) get none, so they add nothing to every sentence.
 */
export function pieceWeight(id: number): number {
  if (id === 0 || (id >= 100 && id <= 103)) return 0;
  if (id < 1996) return 0.25; // single characters and punctuation
  return Math.min(1, Math.sqrt((id - 1995) / 2000));
}

function makeTable(): Float32Array {
  const rand = mulberry32(SEED);
  const table = new Float32Array(VOCAB * TEST_MODEL_DIM);
  for (let id = 0; id < VOCAB; id++) {
    const w = pieceWeight(id);
    let norm = 0;
    const row = table.subarray(id * TEST_MODEL_DIM, (id + 1) * TEST_MODEL_DIM);
    for (let d = 0; d < TEST_MODEL_DIM; d += 2) {
      // Box–Muller: Gaussian rows are isotropic, so distinct pieces are near-orthogonal.
      const u = Math.max(rand(), 1e-12);
      const v = rand();
      const r = Math.sqrt(-2 * Math.log(u));
      const a = r * Math.cos(2 * Math.PI * v);
      const b = r * Math.sin(2 * Math.PI * v);
      row[d] = a;
      row[d + 1] = b;
      norm += a * a + b * b;
    }
    const scale = norm > 0 ? w / Math.sqrt(norm) : 0;
    for (let d = 0; d < TEST_MODEL_DIM; d++) row[d]! *= scale;
  }
  return table;
}

function buildModel(): Uint8Array {
  const TP = onnx.TensorProto.DataType;
  const table = makeTable();
  const dims = (...d: (number | string)[]) => ({
    dim: d.map((x) => (typeof x === 'number' ? { dimValue: x } : { dimParam: x })),
  });
  const input = (name: string) => ({
    name,
    type: { tensorType: { elemType: TP.INT64, shape: dims('batch_size', 'sequence_length') } },
  });
  const graph = onnx.GraphProto.create({
    name: 'rag_lab_test_embedder',
    initializer: [
      {
        name: 'token_table',
        dataType: TP.FLOAT,
        dims: [VOCAB, TEST_MODEL_DIM],
        rawData: new Uint8Array(table.buffer),
      },
      // Type embeddings are zero: the input is declared (the real models have it) and used.
      { name: 'type_table', dataType: TP.FLOAT, dims: [2, TEST_MODEL_DIM], rawData: new Uint8Array(2 * TEST_MODEL_DIM * 4) },
      { name: 'last_axis', dataType: TP.INT64, dims: [1], int64Data: [2] },
    ],
    node: [
      { opType: 'Gather', input: ['token_table', 'input_ids'], output: ['tok'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
      { opType: 'Gather', input: ['type_table', 'token_type_ids'], output: ['typ'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
      { opType: 'Add', input: ['tok', 'typ'], output: ['emb'] },
      { opType: 'Cast', input: ['attention_mask'], output: ['mask_f'], attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: TP.FLOAT }] },
      { opType: 'Unsqueeze', input: ['mask_f', 'last_axis'], output: ['mask_3d'] },
      { opType: 'Mul', input: ['emb', 'mask_3d'], output: ['last_hidden_state'] },
    ],
    input: [input('input_ids'), input('attention_mask'), input('token_type_ids')],
    output: [
      {
        name: 'last_hidden_state',
        type: { tensorType: { elemType: TP.FLOAT, shape: dims('batch_size', 'sequence_length', TEST_MODEL_DIM) } },
      },
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'rag-context-lab scripts/make-test-model.ts',
    modelVersion: VERSION,
    docString: 'RAG Context Lab TEST embedder: seeded random bag-of-word-pieces table. Not a real model.',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

export function ensureTestModel(force = false): string {
  const stamp = join(outDir, 'VERSION');
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === String(VERSION)) return outDir;
  mkdirSync(join(outDir, 'onnx'), { recursive: true });
  for (const f of ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) {
    copyFileSync(join(tokenizerDir, f), join(outDir, f));
  }
  const config = JSON.parse(readFileSync(join(tokenizerDir, 'config.json'), 'utf8'));
  Object.assign(config, {
    _name_or_path: TEST_MODEL_ID,
    hidden_size: TEST_MODEL_DIM,
    num_hidden_layers: 0,
    rag_lab_test_model: true,
  });
  writeFileSync(join(outDir, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(outDir, 'onnx', 'model.onnx'), buildModel());
  writeFileSync(
    join(outDir, 'README.md'),
    '# rag-lab/test-embedder (TEST MODEL)\n\nGenerated by `npm run models:test`. A seeded random bag-of-word-pieces table, not a trained model.\n' +
      'Tokenizer: Xenova/all-MiniLM-L6-v2 (Apache-2.0), see scripts/test-model/tokenizer/NOTICE.md.\n',
  );
  writeFileSync(stamp, String(VERSION));
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = ensureTestModel(process.argv.includes('--force'));
  console.log(`test embedder ready: ${dir}`);
}
