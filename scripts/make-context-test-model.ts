/**
 * A TEST embedder whose token vectors depend on the other tokens of the input, for late
 * chunking's tests (the test embedder's token vectors ignore them, so late-chunked vectors would
 * equal its plain ones). The same seeded table as the test embedder (make-test-model.ts), plus
 * half the mean of the input's token rows:
 *
 *   out[t] = (table[id_t] + ½ · Σ_s mask_s · table[id_s] / Σ_s mask_s) · mask_t
 *
 * A unit's late-chunked vector then carries its span's word pieces, while its plain vector (mean
 * pooling over its own text) stays the bag of its own: both are computed by hand in the tests.
 * It carries NO learned meaning. Output: public/models/rag-lab/test-context-embedder/ (git-ignored).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';
import { encodeModel, makeTable, TEST_MODEL_DIM, writeModelFolder } from './make-test-model';

const { onnx } = onnxProto as unknown as typeof import('onnx-proto');

export const CONTEXT_TEST_MODEL_ID = 'rag-lab/test-context-embedder';
/** How much of the input's mean token row each token's output carries. */
export const CONTEXT_WEIGHT = 0.5;
const VERSION = 1;
const VOCAB = 30522;

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(resolve(here, '..'), 'public', 'models', CONTEXT_TEST_MODEL_ID);

function buildModel(): Uint8Array {
  const TP = onnx.TensorProto.DataType;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const table = makeTable();
  const f32 = (name: string, values: number[]) => ({ name, dataType: TP.FLOAT, dims: [], rawData: new Uint8Array(new Float32Array(values).buffer) });
  const node = (opType: string, input: string[], output: string, attribute: object[] = []) => ({ opType, input, output: [output], attribute });
  const input = (name: string) => ({
    name,
    type: { tensorType: { elemType: TP.INT64, shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }] } } },
  });
  const graph = onnx.GraphProto.create({
    name: 'rag_lab_test_context_embedder',
    initializer: [
      { name: 'token_table', dataType: TP.FLOAT, dims: [VOCAB, TEST_MODEL_DIM], rawData: new Uint8Array(table.buffer) },
      // Zero type embeddings: the BERT signature has token_type_ids, and the graph uses it.
      { name: 'type_table', dataType: TP.FLOAT, dims: [2, TEST_MODEL_DIM], rawData: new Uint8Array(2 * TEST_MODEL_DIM * 4) },
      { name: 'axis_seq', dataType: TP.INT64, dims: [1], int64Data: [1] },
      { name: 'axis_last', dataType: TP.INT64, dims: [1], int64Data: [2] },
      f32('one', [1]),
      f32('weight', [CONTEXT_WEIGHT]),
    ],
    node: [
      node('Gather', ['token_table', 'input_ids'], 'tok', [{ name: 'axis', type: INT, i: 0 }]),
      node('Gather', ['type_table', 'token_type_ids'], 'typ', [{ name: 'axis', type: INT, i: 0 }]),
      node('Add', ['tok', 'typ'], 'emb'),
      node('Cast', ['attention_mask'], 'mask_f', [{ name: 'to', type: INT, i: TP.FLOAT }]),
      node('Unsqueeze', ['mask_f', 'axis_last'], 'mask_3d'),
      node('Mul', ['emb', 'mask_3d'], 'real'),
      node('ReduceSum', ['real', 'axis_seq'], 'sum', [{ name: 'keepdims', type: INT, i: 1 }]),
      node('ReduceSum', ['mask_3d', 'axis_seq'], 'count', [{ name: 'keepdims', type: INT, i: 1 }]),
      node('Max', ['count', 'one'], 'count_1'),
      node('Div', ['sum', 'count_1'], 'mean'),
      node('Mul', ['mean', 'weight'], 'context'),
      node('Add', ['emb', 'context'], 'mixed'),
      node('Mul', ['mixed', 'mask_3d'], 'last_hidden_state'),
    ],
    input: [input('input_ids'), input('attention_mask'), input('token_type_ids')],
    output: [
      {
        name: 'last_hidden_state',
        type: { tensorType: { elemType: TP.FLOAT, shape: { dim: [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }, { dimValue: TEST_MODEL_DIM }] } } },
      },
    ],
  });
  return encodeModel(graph, VERSION, 'RAG Context Lab TEST context embedder: the test table plus half the mean token row. Not a real model.');
}

export function ensureContextTestModel(force = false): string {
  return writeModelFolder(outDir, CONTEXT_TEST_MODEL_ID, VERSION, { hidden_size: TEST_MODEL_DIM }, buildModel, "Each token's output is its row of the test embedder's table plus half the mean row of the input, so token vectors depend on their context.", force);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`test context embedder ready: ${ensureContextTestModel(process.argv.includes('--force'))}`);
}
