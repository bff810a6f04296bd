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
import { mulberry32 } from '../src/core/util/random';

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
export const TEST_RERANKER_ID = 'rag-lab/test-reranker';
const RERANKER_VERSION = 1;
const rerankerDir = join(root, 'public', 'models', TEST_RERANKER_ID);
const tokenizerDir = join(here, 'test-model', 'tokenizer');


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

/** The test embedder's token table (shared by the static stand-in, scripts/make-static-model.ts). */
export function makeTable(): Float32Array {
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
  return encodeModel(graph, VERSION, 'RAG Context Lab TEST embedder: seeded random bag-of-word-pieces table. Not a real model.');
}

/** Wraps a graph into an ONNX model (IR 7, opset 13: what ONNX Runtime Web and Node both run). */
export function encodeModel(graph: ReturnType<typeof onnx.GraphProto.create>, version: number, docString: string): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'rag-context-lab scripts/make-test-model.ts',
    modelVersion: version,
    docString,
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * The TEST cross-encoder: BERT's sequence-classification signature (→ logits [batch, 1]).
 * Token type 0 marks the query, 1 the passage; each side is summed into a
 * bag-of-word-pieces vector over the same table as the test embedder, and the logit is
 * their cosine. It lets the reranking path run for real through transformers.js.
 */
function buildReranker(): Uint8Array {
  const TP = onnx.TensorProto.DataType;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const table = makeTable();
  const f32 = (name: string, values: number[], dims: number[]) => ({ name, dataType: TP.FLOAT, dims, rawData: new Uint8Array(new Float32Array(values).buffer) });
  const i64 = (name: string, values: number[]) => ({ name, dataType: TP.INT64, dims: [values.length], int64Data: values });
  const node = (opType: string, input: string[], output: string, attribute: object[] = []) => ({ opType, input, output: [output], attribute });
  const input = (name: string) => ({
    name,
    type: { tensorType: { elemType: TP.INT64, shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }] } } },
  });
  const graph = onnx.GraphProto.create({
    name: 'rag_lab_test_reranker',
    initializer: [
      { name: 'token_table', dataType: TP.FLOAT, dims: [VOCAB, TEST_MODEL_DIM], rawData: new Uint8Array(table.buffer) },
      f32('one', [1], []),
      f32('eps', [1e-6], []),
      i64('axis_seq', [1]),
      i64('axis_last', [2]),
    ],
    node: [
      node('Gather', ['token_table', 'input_ids'], 'tok', [{ name: 'axis', type: INT, i: 0 }]),
      node('Cast', ['attention_mask'], 'mask', [{ name: 'to', type: INT, i: TP.FLOAT }]),
      node('Cast', ['token_type_ids'], 'seg_b', [{ name: 'to', type: INT, i: TP.FLOAT }]),
      node('Sub', ['one', 'seg_b'], 'seg_a'),
      node('Mul', ['mask', 'seg_a'], 'mask_a2'),
      node('Mul', ['mask', 'seg_b'], 'mask_b2'),
      node('Unsqueeze', ['mask_a2', 'axis_last'], 'mask_a'),
      node('Unsqueeze', ['mask_b2', 'axis_last'], 'mask_b'),
      node('Mul', ['tok', 'mask_a'], 'tok_a'),
      node('Mul', ['tok', 'mask_b'], 'tok_b'),
      node('ReduceSum', ['tok_a', 'axis_seq'], 'vec_a', [{ name: 'keepdims', type: INT, i: 0 }]),
      node('ReduceSum', ['tok_b', 'axis_seq'], 'vec_b', [{ name: 'keepdims', type: INT, i: 0 }]),
      node('Mul', ['vec_a', 'vec_b'], 'prod'),
      node('ReduceSum', ['prod', 'axis_seq'], 'dot', [{ name: 'keepdims', type: INT, i: 1 }]),
      node('Mul', ['vec_a', 'vec_a'], 'sq_a'),
      node('Mul', ['vec_b', 'vec_b'], 'sq_b'),
      node('ReduceSum', ['sq_a', 'axis_seq'], 'ss_a', [{ name: 'keepdims', type: INT, i: 1 }]),
      node('ReduceSum', ['sq_b', 'axis_seq'], 'ss_b', [{ name: 'keepdims', type: INT, i: 1 }]),
      node('Mul', ['ss_a', 'ss_b'], 'ss'),
      node('Sqrt', ['ss'], 'norm'),
      node('Add', ['norm', 'eps'], 'norm_eps'),
      node('Div', ['dot', 'norm_eps'], 'logits'),
    ],
    input: [input('input_ids'), input('attention_mask'), input('token_type_ids')],
    output: [{ name: 'logits', type: { tensorType: { elemType: TP.FLOAT, shape: { dim: [{ dimParam: 'batch_size' }, { dimValue: 1 }] } } } }],
  });
  return encodeModel(graph, RERANKER_VERSION, 'RAG Context Lab TEST cross-encoder: cosine of query and passage bags of word pieces. Not a real model.');
}

export function writeModelFolder(dir: string, id: string, version: number, configPatch: Record<string, unknown>, onnxBytes: () => Uint8Array, readme: string, force: boolean): string {
  const stamp = join(dir, 'VERSION');
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === String(version)) return dir;
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  for (const f of ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']) {
    copyFileSync(join(tokenizerDir, f), join(dir, f));
  }
  const config = JSON.parse(readFileSync(join(tokenizerDir, 'config.json'), 'utf8'));
  Object.assign(config, { _name_or_path: id, num_hidden_layers: 0, rag_lab_test_model: true, ...configPatch });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, 'onnx', 'model.onnx'), onnxBytes());
  writeFileSync(
    join(dir, 'README.md'),
    `# ${id} (TEST MODEL)\n\nGenerated by \`npm run models:test\`. ${readme} Not a trained model.\n` +
      'Tokenizer: Xenova/all-MiniLM-L6-v2 (Apache-2.0), see scripts/test-model/tokenizer/NOTICE.md.\n',
  );
  writeFileSync(stamp, String(version));
  return dir;
}

export function ensureTestModel(force = false): string {
  return writeModelFolder(outDir, TEST_MODEL_ID, VERSION, { hidden_size: TEST_MODEL_DIM }, buildModel, 'A seeded random bag-of-word-pieces table.', force);
}

export function ensureTestReranker(force = false): string {
  return writeModelFolder(
    rerankerDir,
    TEST_RERANKER_ID,
    RERANKER_VERSION,
    { hidden_size: TEST_MODEL_DIM, architectures: ['BertForSequenceClassification'], num_labels: 1, id2label: { 0: 'LABEL_0' }, label2id: { LABEL_0: 0 } },
    buildReranker,
    'A cross-encoder stand-in: the logit is the cosine between the bag-of-word-pieces vectors of the query (segment A) and the passage (segment B).',
    force,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  console.log(`test embedder ready: ${ensureTestModel(force)}`);
  console.log(`test reranker ready: ${ensureTestReranker(force)}`);
}
