/**
 * Generates the project's TEST generator: a tiny causal LM (model_type "llama", one layer,
 * one KV head of width 1) that loads with AutoModelForCausalLM and generates through the
 * very same transformers.js path as real models: chat template, position ids, an empty
 * past_key_values.0.{key,value} built from the input metadata, present.* fed back each
 * step, greedy or sampled choice over the logits, TextStreamer, stopping criteria.
 *
 * What it "knows" is one assistant turn. The chat template opens every turn with [CLS];
 * the graph finds the last [CLS] the current token can see and emits the next token of
 *   [CLS] assistant : test model answer: the sources say so [1]. [SEP]
 * so the reply is always "test model answer: the sources say so [1]." then EOS ([SEP]).
 * The KV cache is what makes that work after the first step: the key holds each token's
 * position, the value its position if it is a [CLS]; a step sees only its new token, so it
 * finds the turn's start only through the cache. A broken cache path gives a one-word reply.
 *
 * Vocabulary: the BERT WordPiece tokenizer of the test embedder. The reply uses "##" pieces
 * ("answer" "##:", "[" "##1" "##]" "##.") so the WordPiece decoder joins them without spaces.
 * Output: public/models/rag-lab/test-generator/ (git-ignored), ~1 KB of ONNX.
 *
 * The same graph with another turn makes the TEST question writer (rag-lab/test-question-writer),
 * whose fixed reply is the JSON object {"question": "what does the passage say?", "answer": "the"}:
 * "the" occurs in nearly any English passage, so a generation run keeps its first question and
 * rejects every later one as a near-duplicate — the whole pipeline (JSON, span, filters) runs
 * honestly. Its JSON is spelled with single-character "##" pieces where the decoder must not put
 * a space ({"question": …), since WordPiece puts one before every whole word.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto as unknown as typeof import('onnx-proto');

export const TEST_GENERATOR_ID = 'rag-lab/test-generator';
/** The reply the test generator always gives, as the tokenizer decodes it. */
export const TEST_GENERATOR_ANSWER = 'test model answer: the sources say so [1].';
export const TEST_GENERATOR_CONTEXT = 2048;
export const TEST_QUESTION_WRITER_ID = 'rag-lab/test-question-writer';
/** The reply the test question writer always gives, as the tokenizer decodes it. */
export const TEST_QUESTION_WRITER_ANSWER = '{"question": "what does the passage say?", "answer": "the"}';
/** Bump when the graph, the script or the files change, so stale generated files are rebuilt. */
const VERSION = 2;

const VOCAB = 30522;
const CLS = 101;
const SEP = 102;
const PAD = 0;
/** The one assistant turn, from its opening [CLS] to EOS, as word pieces. */
const TURN = ['[CLS]', 'assistant', ':', 'test', 'model', 'answer', '##:', 'the', 'sources', 'say', 'so', '[', '##1', '##]', '##.', '[SEP]'];
/** Single-character pieces that decode to `word` glued to what comes before it. */
const glued = (word: string) => [...word].map((c) => `##${c}`);
/** The question writer's turn: {"question": "what does the passage say?", "answer": "the"} */
const QUESTION_TURN = [
  '[CLS]', 'assistant', ':',
  '{', '##"', ...glued('question'), '##"', '##:',
  '"', ...glued('what'), 'does', 'the', 'passage', 'say', '##?', '##"', '##,',
  '"', ...glued('answer'), '##"', '##:',
  '"', ...glued('the'), '##"', '##}',
  '[SEP]',
];
/** Every turn opens with [CLS]; the generation prompt is "[CLS]assistant:", the head of TURN. */
const CHAT_TEMPLATE =
  "{% for message in messages %}[CLS]{{ message['role'] }}: {{ message['content'] }}[SEP]{% endfor %}" +
  '{% if add_generation_prompt %}[CLS]assistant:{% endif %}';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const modelsDir = join(root, 'public', 'models');
const tokenizerDir = join(here, 'test-model', 'tokenizer');

function turnIds(pieces: string[]): number[] {
  const vocab = (JSON.parse(readFileSync(join(tokenizerDir, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
  return pieces.map((piece) => {
    const id = vocab[piece];
    if (id === undefined) throw new Error(`test generator: "${piece}" is not in the tokenizer's vocabulary`);
    return id;
  });
}

function buildModel(pieces: string[], docString: string): Uint8Array {
  const TP = onnx.TensorProto.DataType;
  const INT = onnx.AttributeProto.AttributeType.INT;
  const INTS = onnx.AttributeProto.AttributeType.INTS;
  const turn = turnIds(pieces);
  const f32 = (name: string, value: number) => ({ name, dataType: TP.FLOAT, dims: [], rawData: new Uint8Array(new Float32Array([value]).buffer) });
  const i64 = (name: string, values: number[], dims: number[] = [values.length]) => ({ name, dataType: TP.INT64, dims, int64Data: values });
  const node = (opType: string, input: string[], output: string, attribute: object[] = []) => ({ opType, input, output: [output], attribute });
  const toFloat = [{ name: 'to', type: INT, i: TP.FLOAT }];
  const toInt64 = [{ name: 'to', type: INT, i: TP.INT64 }];
  const shape = (...d: (number | string)[]) => ({ dim: d.map((x) => (typeof x === 'number' ? { dimValue: x } : { dimParam: x })) });
  const value = (name: string, elemType: number, dims: (number | string)[]) => ({ name, type: { tensorType: { elemType, shape: shape(...dims) } } });
  // The cache layout transformers.js reads: [batch, kv heads, sequence, head_dim].
  const kv = (name: string, seq: string) => value(name, TP.FLOAT, ['batch_size', 1, seq, 1]);

  const graph = onnx.GraphProto.create({
    name: 'rag_lab_test_generator',
    initializer: [
      i64('turn', turn),
      i64('cls_id', [CLS], []),
      i64('last_turn_index', [turn.length - 1], []),
      i64('vocab_start', [0], []),
      i64('vocab_end', [VOCAB], []),
      i64('vocab_step', [1], []),
      i64('axes_1_3', [1, 3]),
      i64('axis_1', [1]),
      i64('axis_2', [2]),
      i64('axis_3', [3]),
      f32('one', 1),
      // Large enough that sampling at any sensible temperature still picks the scripted token.
      f32('logit_scale', 40),
    ],
    node: [
      // This step's tokens: 1-based positions, and the position again where the token is [CLS].
      node('Cast', ['position_ids'], 'pos_f', toFloat),
      node('Add', ['pos_f', 'one'], 'pos1'),
      node('Equal', ['input_ids', 'cls_id'], 'is_cls_b'),
      node('Cast', ['is_cls_b'], 'is_cls', toFloat),
      node('Mul', ['is_cls', 'pos1'], 'cls_pos1'),
      node('Unsqueeze', ['pos1', 'axes_1_3'], 'new_key'),
      node('Unsqueeze', ['cls_pos1', 'axes_1_3'], 'new_value'),
      node('Concat', ['past_key_values.0.key', 'new_key'], 'present.0.key', [{ name: 'axis', type: INT, i: 2 }]),
      node('Concat', ['past_key_values.0.value', 'new_value'], 'present.0.value', [{ name: 'axis', type: INT, i: 2 }]),
      // Causal, mask-aware "attention": each query sees the cached and new keys at or before it.
      node('Squeeze', ['present.0.key', 'axis_3'], 'key_pos'), // [B, 1, T]
      node('Squeeze', ['present.0.value', 'axis_3'], 'val_cls'), // [B, 1, T]
      node('Unsqueeze', ['pos1', 'axis_2'], 'query_pos'), // [B, S, 1]
      node('LessOrEqual', ['key_pos', 'query_pos'], 'causal_b'), // [B, S, T]
      node('Cast', ['causal_b'], 'causal', toFloat),
      node('Cast', ['attention_mask'], 'mask_f', toFloat),
      node('Unsqueeze', ['mask_f', 'axis_1'], 'mask_3d'), // [B, 1, T]
      node('Mul', ['causal', 'mask_3d'], 'visible'),
      node('Mul', ['visible', 'val_cls'], 'seen_cls'),
      node('ReduceMax', ['seen_cls'], 'last_cls', [{ name: 'axes', type: INTS, ints: [2] }, { name: 'keepdims', type: INT, i: 0 }]), // [B, S]
      // Offset from the turn's [CLS] → the next token of the turn; no [CLS] in sight → EOS.
      node('Sub', ['pos1', 'last_cls'], 'offset_f'),
      node('Cast', ['offset_f'], 'offset', toInt64),
      node('Add', ['offset', 'vocab_step'], 'next_index_raw'),
      node('Min', ['next_index_raw', 'last_turn_index'], 'next_index'),
      node('Gather', ['turn', 'next_index'], 'next_token', [{ name: 'axis', type: INT, i: 0 }]), // [B, S]
      node('Unsqueeze', ['next_token', 'axis_2'], 'next_token_3d'), // [B, S, 1]
      node('Range', ['vocab_start', 'vocab_end', 'vocab_step'], 'vocab_ids'), // [V]
      node('Equal', ['vocab_ids', 'next_token_3d'], 'one_hot_b'), // [B, S, V]
      node('Cast', ['one_hot_b'], 'one_hot', toFloat),
      node('Mul', ['one_hot', 'logit_scale'], 'logits'),
    ],
    input: [
      value('input_ids', TP.INT64, ['batch_size', 'sequence_length']),
      value('attention_mask', TP.INT64, ['batch_size', 'total_sequence_length']),
      value('position_ids', TP.INT64, ['batch_size', 'sequence_length']),
      kv('past_key_values.0.key', 'past_sequence_length'),
      kv('past_key_values.0.value', 'past_sequence_length'),
    ],
    output: [
      value('logits', TP.FLOAT, ['batch_size', 'sequence_length', VOCAB]),
      kv('present.0.key', 'total_sequence_length'),
      kv('present.0.value', 'total_sequence_length'),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'rag-context-lab scripts/make-test-lm.ts',
    modelVersion: VERSION,
    docString,
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** One generated test LM: its id, the turn it always gives, and what its README says it answers. */
interface TestLm {
  id: string;
  turn: string[];
  answer: string;
  docString: string;
}

const TEST_LMS: TestLm[] = [
  { id: TEST_GENERATOR_ID, turn: TURN, answer: TEST_GENERATOR_ANSWER, docString: 'RAG Context Lab TEST generator: always answers one fixed sentence. Not a real model.' },
  {
    id: TEST_QUESTION_WRITER_ID,
    turn: QUESTION_TURN,
    answer: TEST_QUESTION_WRITER_ANSWER,
    docString: 'RAG Context Lab TEST question writer: always answers one fixed JSON question. Not a real model.',
  },
];

export function ensureTestGenerator(force = false): string {
  return ensureTestLm(TEST_LMS[0]!, force);
}

export function ensureTestQuestionWriter(force = false): string {
  return ensureTestLm(TEST_LMS[1]!, force);
}

function ensureTestLm(lm: TestLm, force: boolean): string {
  const outDir = join(modelsDir, lm.id);
  const stamp = join(outDir, 'VERSION');
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === String(VERSION)) return outDir;
  mkdirSync(join(outDir, 'onnx'), { recursive: true });
  for (const f of ['tokenizer.json', 'special_tokens_map.json']) {
    // The sources are read-only and copies keep the mode: remove the old copy, or a rebuild fails.
    rmSync(join(outDir, f), { force: true });
    copyFileSync(join(tokenizerDir, f), join(outDir, f));
  }
  const tokenizerConfig = JSON.parse(readFileSync(join(tokenizerDir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  Object.assign(tokenizerConfig, { model_max_length: TEST_GENERATOR_CONTEXT, bos_token: '[CLS]', eos_token: '[SEP]', chat_template: CHAT_TEMPLATE });
  writeFileSync(join(outDir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2));
  const config = {
    _name_or_path: lm.id,
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    vocab_size: VOCAB,
    hidden_size: 1,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    num_key_value_heads: 1,
    head_dim: 1,
    max_position_embeddings: TEST_GENERATOR_CONTEXT,
    bos_token_id: CLS,
    eos_token_id: SEP,
    pad_token_id: PAD,
    use_cache: true,
    rag_lab_test_model: true,
  };
  writeFileSync(join(outDir, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(outDir, 'generation_config.json'), JSON.stringify({ bos_token_id: CLS, eos_token_id: SEP, pad_token_id: PAD, do_sample: false }, null, 2));
  writeFileSync(join(outDir, 'onnx', 'model.onnx'), buildModel(lm.turn, lm.docString));
  writeFileSync(
    join(outDir, 'README.md'),
    `# ${lm.id} (TEST MODEL)\n\nGenerated by \`npm run models:test\` (scripts/make-test-lm.ts). A causal-LM stand-in with a KV cache ` +
      `that always answers ${JSON.stringify(lm.answer)}. Not a trained model.\n` +
      'Tokenizer: Xenova/all-MiniLM-L6-v2 (Apache-2.0), see scripts/test-model/tokenizer/NOTICE.md.\n',
  );
  writeFileSync(stamp, String(VERSION));
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  console.log(`test generator ready: ${ensureTestGenerator(force)}`);
  console.log(`test question writer ready: ${ensureTestQuestionWriter(force)}`);
}
