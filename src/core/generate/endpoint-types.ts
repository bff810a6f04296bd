/** The shapes of a chat completion request to an OpenAI-compatible endpoint, its result, and its one error type. */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface EndpointConfig {
  /** "http://localhost:11434", "https://api.openai.com/v1", ".../v1/", or the full ".../chat/completions". */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set (and non-empty). */
  apiKey?: string;
}

export interface StreamOptions {
  /** Aborting it stops the reply: the promise resolves with `stopped: true` and the text so far. */
  signal?: AbortSignal;
  /** Called with each non-empty piece of the reply, in order. */
  onToken?: (text: string) => void;
  temperature?: number;
  maxTokens?: number;
  /** Sent as `response_format` (OpenAI structured outputs, e.g. {type: 'json_schema', json_schema: {…}}). */
  responseFormat?: Record<string, unknown>;
  /** Replaces the global fetch (tests, proxies). It is called unbound, as a plain function. */
  fetch?: typeof fetch;
}

export interface StreamResult {
  /** The whole reply (all pieces concatenated). */
  text: string;
  /** choices[0].finish_reason as the server sent it ("stop", "length", …), or null. */
  finishReason: string | null;
  /** True when the caller's signal stopped the reply. */
  stopped: boolean;
  /** Present only when the server reported usage. */
  usage?: { promptTokens: number; completionTokens: number };
}

export type GenerationErrorKind = 'unreachable' | 'auth' | 'not-found' | 'context-length' | 'rate-limit' | 'server' | 'bad-response' | 'config' | 'model-load' | 'out-of-memory';

/** A failed generation: `message` is one sentence for the user, `kind` is for the program. */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly kind: GenerationErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GenerationError';
  }
}
