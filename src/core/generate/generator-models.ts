/**
 * The in-browser generators the app offers. Apart from local.ts so the page can list them
 * without loading transformers.js into the main bundle.
 */
export interface LocalGeneratorInfo {
  id: string;
  label: string;
  /** Default precision: q4 → onnx/model_q4.onnx, q4f16 → onnx/model_q4f16.onnx, fp32 → onnx/model.onnx. */
  dtype: string;
  /** Download size of that ONNX file, for the "this will download N MB" notice. */
  sizeMB: number;
  /** Context offered to the prompt builder: below the model's own limit where browsers run out of memory first. */
  contextTokens: number;
  testModel?: boolean;
  webgpuOnly?: boolean;
}

export const TEST_GENERATOR_ID = 'rag-lab/test-generator';
/** A second TEST model (scripts/make-test-lm.ts) for question generation: it always writes one fixed JSON question. */
export const TEST_QUESTION_WRITER_ID = 'rag-lab/test-question-writer';

/** File sizes from the hub listings (onnx/ folders) of each repository. */
export const GENERATOR_MODELS: LocalGeneratorInfo[] = [
  { id: 'HuggingFaceTB/SmolLM2-360M-Instruct', label: 'SmolLM2 360M Instruct (English, q4)', dtype: 'q4', sizeMB: 417, contextTokens: 8192 },
  { id: 'onnx-community/Qwen2.5-0.5B-Instruct', label: 'Qwen2.5 0.5B Instruct (multilingual, q4)', dtype: 'q4', sizeMB: 786, contextTokens: 8192 },
  {
    id: 'onnx-community/Llama-3.2-1B-Instruct',
    label: 'Llama 3.2 1B Instruct (multilingual, q4f16, WebGPU)',
    dtype: 'q4f16',
    sizeMB: 1070,
    contextTokens: 8192,
    webgpuOnly: true,
  },
  { id: TEST_GENERATOR_ID, label: 'TEST MODEL (always gives one fixed answer)', dtype: 'fp32', sizeMB: 0.7, contextTokens: 2048, testModel: true },
  { id: TEST_QUESTION_WRITER_ID, label: 'Question writer, TEST MODEL (always writes one fixed JSON question)', dtype: 'fp32', sizeMB: 0.7, contextTokens: 2048, testModel: true },
];

export function generatorInfo(id: string): LocalGeneratorInfo | undefined {
  return GENERATOR_MODELS.find((m) => m.id === id);
}

/** An endpoint's context window when the user does not say (most served models take at least this). */
export const DEFAULT_ENDPOINT_CONTEXT_TOKENS = 8192;
