/**
 * Messages between the page and the generation worker, which runs an in-browser language
 * model (transformers.js) apart from the indexing worker, so a long answer never holds up a
 * search. OpenAI-compatible endpoints are called from the page itself (see
 * state/generators.ts): the page's Content-Security-Policy then governs where they may go.
 */
import type { AssembledPrompt, PromptBlock } from '../core/generate/prompt';
import type { ChatMessage, GenerationErrorKind, StreamResult } from '../core/generate/openai';
import type { Device } from './protocol';

export const GENERATION_TAG = 'rag-lab-generation';

export interface LocalModelChoice {
  model: string;
  dtype: string;
  device: Device;
  source: 'local' | 'hub';
}

export interface AssembleOptions {
  answerTokens: number;
  headers: boolean;
  instructions?: string;
  /** Overrides the model's own context limit (never above it). */
  contextTokens?: number;
}

export type GenerationRequest =
  | { id: number; type: 'load'; choice: LocalModelChoice; modelsUrl: string; ortWasm: { mjs: string; wasm: string }; threads: number }
  | { id: number; type: 'assemble'; question: string; blocks: PromptBlock[]; options: AssembleOptions }
  | { id: number; type: 'count'; messages: ChatMessage[] }
  /**
   * `stopFlag` (cross-origin isolated pages): the page sets it to 1 to stop. A stop *message*
   * would wait: ONNX Runtime's WASM steps never yield to the worker's event loop mid-answer.
   */
  | { id: number; type: 'generate'; messages: ChatMessage[]; maxTokens: number; temperature: number; stopFlag?: SharedArrayBuffer }
  | { id: number; type: 'stop'; target: number };

export interface LoadedGenerator {
  model: string;
  contextTokens: number;
  /** The tokenizer that counts the prompt. */
  counter: string;
  device: 'wasm' | 'webgpu';
}

export interface GenerationResults {
  load: LoadedGenerator;
  assemble: AssembledPrompt;
  count: number;
  generate: StreamResult;
  stop: boolean;
}

export type GenerationProgress =
  | { kind: 'load'; status: string; file?: string; loaded?: number; total?: number }
  | { kind: 'token'; text: string };

export type GenerationResponse =
  | { id: number; type: 'progress'; progress: GenerationProgress }
  | { id: number; type: 'result'; result: unknown }
  | { id: number; type: 'error'; message: string; kind?: GenerationErrorKind };
