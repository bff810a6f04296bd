/**
 * The cache that makes answer sweeps affordable: a model's reply is keyed by the model, the
 * exact messages (the prompt template, the question and the context, as sent) and the settings
 * that change a reply (temperature, longest reply). Many points of a window sweep hand over the
 * same context: each distinct one is sent once, and a repeated run sends nothing. Judge replies
 * are cached the same way. Stores: MemoryReplyCache here, a folder in the CLI
 * (node/reply-cache-folder.ts), IndexedDB in the page (state/reply-cache-idb.ts).
 * A stored entry that cannot be read is ignored (and said), never trusted.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { ChatMessage } from '../generate/endpoint-types';

/** One cached reply and what it cost when it was made. */
export interface CachedReply {
  text: string;
  /** Prompt tokens as the server reported them, or as counted before sending. */
  promptTokens: number;
  completionTokens?: number;
  /** How long the call took when it was made (ms); a cached reply costs nothing now. */
  ms: number;
  finishReason: string | null;
  /** ISO time it was made. */
  at: string;
}

export interface ReplyCache {
  get(key: string): Promise<CachedReply | undefined>;
  put(key: string, reply: CachedReply): Promise<void>;
  /** Entries that could not be read (ignored), one line each, for the run's notes. */
  readonly damaged: string[];
}

/** What besides the messages changes a reply. */
export interface ReplySettings {
  temperature: number;
  maxTokens: number;
}

const encoder = new TextEncoder();

/** SHA-256 of the key's parts, hex: the same in Node, a page and a worker. */
export function replyKey(model: string, messages: readonly ChatMessage[], settings: ReplySettings): string {
  const identity = JSON.stringify({ v: 1, model, messages: messages.map((m) => [m.role, m.content]), temperature: settings.temperature, maxTokens: settings.maxTokens });
  const digest = sha256(encoder.encode(identity));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** A stored value as a CachedReply, or null when it is not one (damaged, or written by something else). */
export function readCachedReply(raw: unknown): CachedReply | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (typeof r.text !== 'string' || !num(r.promptTokens) || !num(r.ms) || typeof r.at !== 'string') return null;
  if (r.finishReason !== null && typeof r.finishReason !== 'string') return null;
  if (r.completionTokens !== undefined && !num(r.completionTokens)) return null;
  return {
    text: r.text,
    promptTokens: r.promptTokens as number,
    ...(r.completionTokens !== undefined ? { completionTokens: r.completionTokens as number } : {}),
    ms: r.ms as number,
    finishReason: r.finishReason as string | null,
    at: r.at,
  };
}

/** A cache that lives as long as the object (tests, one CLI run without --cache). */
export class MemoryReplyCache implements ReplyCache {
  readonly damaged: string[] = [];
  private readonly entries = new Map<string, CachedReply>();

  get(key: string): Promise<CachedReply | undefined> {
    return Promise.resolve(this.entries.get(key));
  }

  put(key: string, reply: CachedReply): Promise<void> {
    this.entries.set(key, reply);
    return Promise.resolve();
  }

  get size(): number {
    return this.entries.size;
  }
}
