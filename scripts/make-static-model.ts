/**
 * Generates the project's TEST static embedder: a Model2Vec-shaped ONNX graph (inputs
 * `input_ids` [tokens] flattened without special tokens and `offsets` [texts]; output
 * `embeddings` [texts, 128], each text's mean token vector), over the same seeded table as
 * the test embedder. It runs through the very path a real potion-* model takes
 * (transformers.js AutoModel as `model_type: 'model2vec'`), so tests and benches measure that
 * path. Its normalised vectors equal the test embedder's (whose special tokens weigh zero).
 * Output: public/models/rag-lab/test-static-embedder/ (git-ignored). It carries NO learned meaning.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';
import { encodeModel, makeTable, TEST_MODEL_DIM, writeModelFolder } from './make-test-model';

const { onnx } = onnxProto as unknown as typeof import('onnx-proto');

export const TEST_STATIC_MODEL_ID = 'rag-lab/test-static-embedder';
/** Bump when the graph or the table changes, so stale generated files are rebuilt. */
const VERSION = 1;

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(resolve(here, '..'), 'public', 'models', TEST_STATIC_MODEL_ID);

/**
 * Segment means by prefix sums (O(tokens × dim)): cs = CumSum([0; rows]); a text's sum is
 * cs[end] − cs[start]. A one-hot [texts × tokens] matrix product would cost texts × tokens × dim.
 */
function buildStaticModel(): Uint8Array {
  const TP = onnx.TensorProto.DataType;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const table = makeTable();
  const D = TEST_MODEL_DIM;
  const i64 = (name: string, values: number[], dims = [values.length]) => ({ name, dataType: TP.INT64, dims, int64Data: values });
  const node = (opType: string, input: string[], output: string, attribute: object[] = []) => ({ opType, input, output: [output], attribute });
  const graph = onnx.GraphProto.create({
    name: 'rag_lab_test_static_embedder',
    initializer: [
      { name: 'token_table', dataType: TP.FLOAT, dims: [table.length / D, D], rawData: new Uint8Array(table.buffer) },
      { name: 'zero_row', dataType: TP.FLOAT, dims: [1, D], rawData: new Uint8Array(D * 4) },
      { name: 'one', dataType: TP.FLOAT, dims: [], rawData: new Uint8Array(new Float32Array([1]).buffer) },
      i64('axis0', [0], []),
      i64('one_i', [1]),
      i64('big_i', [Number.MAX_SAFE_INTEGER]),
      i64('zero_i', [0]),
      i64('axis1', [1]),
    ],
    node: [
      node('Gather', ['token_table', 'input_ids'], 'tok', [{ name: 'axis', type: INT, i: 0 }]),
      node('Concat', ['zero_row', 'tok'], 'padded', [{ name: 'axis', type: INT, i: 0 }]),
      node('CumSum', ['padded', 'axis0'], 'cs'),
      node('Shape', ['input_ids'], 'n'),
      node('Slice', ['offsets', 'one_i', 'big_i', 'zero_i'], 'rest'),
      node('Concat', ['rest', 'n'], 'ends', [{ name: 'axis', type: INT, i: 0 }]),
      node('Gather', ['cs', 'ends'], 'hi', [{ name: 'axis', type: INT, i: 0 }]),
      node('Gather', ['cs', 'offsets'], 'lo', [{ name: 'axis', type: INT, i: 0 }]),
      node('Sub', ['hi', 'lo'], 'sums'),
      node('Sub', ['ends', 'offsets'], 'lens_i'),
      node('Cast', ['lens_i'], 'lens', [{ name: 'to', type: INT, i: TP.FLOAT }]),
      node('Max', ['lens', 'one'], 'lens1'),
      node('Unsqueeze', ['lens1', 'axis1'], 'lens2'),
      node('Div', ['sums', 'lens2'], 'embeddings'),
    ],
    input: [
      { name: 'input_ids', type: { tensorType: { elemType: TP.INT64, shape: { dim: [{ dimParam: 'tokens' }] } } } },
      { name: 'offsets', type: { tensorType: { elemType: TP.INT64, shape: { dim: [{ dimParam: 'texts' }] } } } },
    ],
    output: [{ name: 'embeddings', type: { tensorType: { elemType: TP.FLOAT, shape: { dim: [{ dimParam: 'texts' }, { dimValue: D }] } } } }],
  });
  return encodeModel(graph, VERSION, 'RAG Context Lab TEST static embedder: Model2Vec-shaped mean over a seeded random token table. Not a real model.');
}

export function ensureTestStaticModel(force = false): string {
  return writeModelFolder(
    outDir,
    TEST_STATIC_MODEL_ID,
    VERSION,
    { model_type: 'model2vec', architectures: ['StaticModel'], hidden_size: TEST_MODEL_DIM, hidden_dim: TEST_MODEL_DIM, normalize: true },
    buildStaticModel,
    'A Model2Vec-shaped static model (input_ids + offsets → embeddings) over the test embedder\'s seeded random table.',
    force,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`test static embedder ready: ${ensureTestStaticModel(process.argv.includes('--force'))}`);
}
