/**
 * Messages between the page and the generation worker, which runs an in-browser language
 * model (transformers.js) apart from the indexing worker, so a long answer never holds up a
 * search. OpenAI-compatible endpoints are called from the page itself (see
 * state/generators.ts): the page's Content-Security-Policy then governs where they may go.
 */
import type { AssembledPrompt, PromptBlock } from '../core/generate/prompt';
import type { ChatMessage, StreamResult } from '../core/generate/openai';
import type { RpcMethod } from '../rpc/wire';
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

export interface LoadedGenerator {
  model: string;
  contextTokens: number;
  /** The tokenizer that counts the prompt. */
  counter: string;
  device: 'wasm' | 'webgpu';
}

export type GenerationProgress =
  | { kind: 'load'; status: string; file?: string; loaded?: number; total?: number }
  | { kind: 'token'; text: string };

/**
 * The generation worker's methods. Errors arrive as RpcError: 'generation' for a
 * GenerationError (data: its kind), 'model-unavailable' (data: a ModelFailure) when the
 * model's files could not be reached, 'no-model' before a model is loaded.
 */
export type GenerationApi = {
  load: RpcMethod<{ choice: LocalModelChoice; modelsUrl: string; ortWasm: { mjs: string; wasm: string }; threads: number }, LoadedGenerator, GenerationProgress>;
  assemble: RpcMethod<{ question: string; blocks: PromptBlock[]; options: AssembleOptions }, AssembledPrompt>;
  count: RpcMethod<{ messages: ChatMessage[] }, number>;
  /**
   * `stopFlag` (cross-origin isolated pages): the page sets it to 1 to stop. A cancel
   * *message* would wait: ONNX Runtime's WASM steps never yield to the worker's event loop
   * mid-answer.
   */
  generate: RpcMethod<{ messages: ChatMessage[]; maxTokens: number; temperature: number; stopFlag?: SharedArrayBuffer }, StreamResult, GenerationProgress>;
};
