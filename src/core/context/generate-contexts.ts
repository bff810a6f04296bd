/**
 * The contextual-retrieval driver, shared by the page (a model in the browser or an endpoint)
 * and the CLI: they differ only in the generator's `complete` callback. planContexts says what
 * a run will cost before it starts (calls, tokens, the shared prefix an endpoint can cache,
 * time); generateContexts asks for one context per unit that has none, document by document
 * and in unit order (so one document's calls share their prompt prefix), stores each as it
 * arrives, honours pause and cancel, stops when the generator clearly does not answer, and
 * always keeps what was written. Units without a context are retrieved by their plain text.
 */
import type { ChatMessage } from '../generate/openai';
import { ASSUMED_RATE, STOP_AFTER_FAILURES } from '../questions/generate';
import type { UnitKind } from '../retrieve/param-types';
import type { TokenCounter } from '../segment/tokens';
import type { Corpus } from '../structure/corpus';
import type { UnitSpan } from '../structure/units';
import { contextKey, type ContextRunRecord, type ContextStore, type ContextUnitKind, type UnitContext } from './context-store';
import { documentWindow } from './document-window';
import { contextMessages, DEFAULT_CONTEXT_PROMPT, promptOverheadChars, type ContextPrompt } from './prompt';
import { cleanContext, MAX_CONTEXT_TOKENS } from './reply';

/** Failed calls in a row that stop a run that had been working (the endpoint went away). */
export const STOP_AFTER_FAILURES_IN_A_ROW = 5;
/** Assumed reply length of one context, in tokens, for estimates (Anthropic: 50–100). */
export const CONTEXT_REPLY_TOKENS = 75;
/** Tokens kept free in each call besides the reply: chat template and rounding. */
const MARGIN_TOKENS = 32;
/** Tokens a reply may run to beyond the context's limit: a label or a reasoning line the cleaner drops. */
export const REPLY_EXTRA_TOKENS = 80;

/** What the driver reads of the corpus: the engine satisfies it. */
export interface ContextUnits {
  readonly corpus: Corpus;
  unitCount(kind: UnitKind): number;
  unitSpan(kind: UnitKind, id: number): UnitSpan;
}

/** A unit to write a context for. */
export interface ContextTarget {
  key: string;
  kind: ContextUnitKind;
  id: number;
  doc: number;
  /** Its character range in the document. */
  start: number;
  end: number;
}

/** Asks the model: resolves with the reply text. Retries (429, 5xx) are the callback's business. */
export type ContextCompleteFn = (messages: ChatMessage[], options: { signal?: AbortSignal }) => Promise<string>;

export interface ContextGenerator {
  /** Recorded on each context: "model rag-lab/test-generator (test model)", "endpoint <URL> model <name>". */
  source: string;
  /** Tokens one call may hold (the model's context window); longer documents are cut to a window. */
  contextTokens: number;
  /** The generator's tokenizer, or an estimate. */
  counter: TokenCounter;
  complete: ContextCompleteFn;
}

/** A unit's identity in the context store. */
export function unitContextKey(units: ContextUnits, kind: UnitKind, id: number): string {
  const u = units.unitSpan(kind, id);
  return contextKey(units.corpus.docs[u.doc]!.id, kind, u.charStart, u.charEnd);
}

/** Units of a kind that have no context yet, in document and unit order. */
export function contextTargets(units: ContextUnits, kind: ContextUnitKind, store: ContextStore): ContextTarget[] {
  const out: ContextTarget[] = [];
  const n = units.unitCount(kind);
  for (let id = 0; id < n; id++) {
    const u = units.unitSpan(kind, id);
    const key = contextKey(units.corpus.docs[u.doc]!.id, kind, u.charStart, u.charEnd);
    if (!store.has(key)) out.push({ key, kind, id, doc: u.doc, start: u.charStart, end: u.charEnd });
  }
  return out;
}

function groupByDoc(targets: readonly ContextTarget[]): Map<number, ContextTarget[]> {
  const byDoc = new Map<number, ContextTarget[]>();
  for (const t of targets) {
    const list = byDoc.get(t.doc);
    if (list) list.push(t);
    else byDoc.set(t.doc, [t]);
  }
  return byDoc;
}

/** Tokens left for the document in one call of a document whose longest unit has `unitTokens`. */
function documentBudget(g: Pick<ContextGenerator, 'contextTokens'>, prompt: ContextPrompt, unitTokens: number, maxContextTokens: number): number {
  return g.contextTokens - Math.ceil(promptOverheadChars(prompt) / 4) - unitTokens - maxContextTokens - REPLY_EXTRA_TOKENS - MARGIN_TOKENS;
}

export interface ContextPlan {
  kind: ContextUnitKind;
  /** Units of the kind, and how many already have a context (nothing is re-sent for those). */
  units: number;
  have: number;
  calls: number;
  /** Documents with units to do, and how many of them are longer than the model's context (cut to windows). */
  documents: number;
  windowed: number;
  /** Prompt tokens of all calls (document or window, unit and prompt), and the part an endpoint that caches prompt prefixes reuses. */
  promptTokens: number;
  cachedPrefixTokens: number;
  replyTokens: number;
  seconds: number;
  rate: 'measured' | 'assumed';
  notes: string[];
}

export interface PlanContextOptions {
  prompt?: ContextPrompt;
  generator: Pick<ContextGenerator, 'contextTokens' | 'counter'>;
  /** A measured speed; the question generator's assumed rate when absent. */
  rate?: { promptTokensPerSecond: number; replyTokensPerSecond: number };
  maxContextTokens?: number;
}

/** What a run for the units of `kind` without a context will cost. Windowed documents' tokens are estimated from the budget. */
export function planContexts(units: ContextUnits, kind: ContextUnitKind, store: ContextStore, o: PlanContextOptions): ContextPlan {
  const prompt = o.prompt ?? DEFAULT_CONTEXT_PROMPT;
  const maxReply = o.maxContextTokens ?? MAX_CONTEXT_TOKENS;
  const counter = o.generator.counter;
  const targets = contextTargets(units, kind, store);
  const byDoc = groupByDoc(targets);
  const overhead = Math.ceil(promptOverheadChars(prompt) / 4);
  let promptTokens = 0;
  let cached = 0;
  let windowed = 0;
  const notes: string[] = [];
  for (const [d, ts] of byDoc) {
    const doc = units.corpus.docs[d]!;
    const unitTokens = ts.map((t) => counter.count(doc.text.slice(t.start, t.end)));
    const docTokens = counter.count(doc.text);
    const budget = documentBudget(o.generator, prompt, Math.max(...unitTokens), maxReply);
    const fits = docTokens <= budget;
    if (!fits) windowed++;
    const shown = fits ? docTokens : Math.max(0, budget);
    promptTokens += ts.length * (overhead + shown) + unitTokens.reduce((a, b) => a + b, 0);
    // Calls that reuse the previous call's document text: all but the first when it fits, else all but one per window step.
    const windows = fits ? 1 : Math.min(ts.length, Math.ceil((2 * docTokens) / Math.max(1, shown)));
    cached += (ts.length - windows) * shown;
  }
  if (windowed) notes.push(`${windowed} document${windowed === 1 ? ' is' : 's are'} longer than the model's context (${o.generator.contextTokens} tokens): each unit of ${windowed === 1 ? 'it' : 'them'} sees a window of the document around it, marked […] where text is left out`);
  const rate = o.rate ?? ASSUMED_RATE;
  const replyTokens = targets.length * CONTEXT_REPLY_TOKENS;
  const seconds = Math.round(promptTokens / rate.promptTokensPerSecond + replyTokens / rate.replyTokensPerSecond);
  return { kind, units: units.unitCount(kind), have: units.unitCount(kind) - targets.length, calls: targets.length, documents: byDoc.size, windowed, promptTokens, cachedPrefixTokens: cached, replyTokens, seconds, rate: o.rate ? 'measured' : 'assumed', notes };
}

export interface ContextProgress {
  done: number;
  total: number;
  written: number;
  failed: number;
  /** Contexts cut to the limit. */
  cut: number;
  calls: number;
  elapsedMs: number;
  /** From the mean time per unit so far (null before the first). */
  leftMs: number | null;
}

/** One call of a run: the unit and the messages asked (its document or a window of it first). */
export interface ContextCall {
  target: ContextTarget;
  messages: ChatMessage[];
  /** The document was cut to a window around the unit. */
  window: boolean;
}

/** Where a run's calls come from: in order, null when there are no more. */
export interface ContextCalls {
  total: number;
  next(): Promise<ContextCall | null> | ContextCall | null;
}

/**
 * The calls for the units of a kind without a context, in document and unit order, their
 * documents cut to windows in the generator's tokens. The lab worker hands them to the page in
 * batches (`after`: only units after this id).
 */
export function contextCalls(units: ContextUnits, kind: ContextUnitKind, store: ContextStore, o: { prompt?: ContextPrompt; generator: Pick<ContextGenerator, 'contextTokens' | 'counter'>; maxContextTokens?: number; after?: number }): ContextCalls {
  const prompt = o.prompt ?? DEFAULT_CONTEXT_PROMPT;
  const maxReply = o.maxContextTokens ?? MAX_CONTEXT_TOKENS;
  const g = o.generator;
  const targets = contextTargets(units, kind, store).filter((t) => o.after === undefined || t.id > o.after);
  // Per document: its token count and the budget its windows get (the same for all its units, so windows repeat).
  const docInfo = new Map<number, { tokens: number; budget: number }>();
  const byDoc = groupByDoc(targets);
  const infoOf = (d: number) => {
    let info = docInfo.get(d);
    if (!info) {
      const text = units.corpus.docs[d]!.text;
      const longest = Math.max(...byDoc.get(d)!.map((t) => g.counter.count(text.slice(t.start, t.end))));
      docInfo.set(d, (info = { tokens: g.counter.count(text), budget: documentBudget(g, prompt, longest, maxReply) }));
    }
    return info;
  };
  let i = 0;
  return {
    total: targets.length,
    next(): ContextCall | null {
      const t = targets[i++];
      if (!t) return null;
      const doc = units.corpus.docs[t.doc]!;
      const info = infoOf(t.doc);
      const w = documentWindow(doc.text, t.start, t.end, info.budget, g.counter, info.tokens);
      return { target: t, window: w.cut, messages: contextMessages(prompt, { document: w.text, chunk: doc.text.slice(t.start, t.end), title: doc.context?.title ?? doc.title, language: doc.language }) };
    },
  };
}

export interface ContextRunOptions {
  kind: ContextUnitKind;
  generator: ContextGenerator;
  /** The corpus and the store the contexts go to (the CLI, tests); or `calls`, `has` and `put` (the page, whose units live in the worker). */
  units?: ContextUnits;
  store?: ContextStore;
  calls?: ContextCalls;
  /** Whether a unit got a context meanwhile (default: the store's). */
  has?: (key: string) => boolean;
  /** Keeps a context (default: into the store). */
  put?: (t: ContextTarget, c: UnitContext) => void | Promise<void>;
  prompt?: ContextPrompt;
  maxContextTokens?: number;
  signal?: AbortSignal;
  /** Awaited before each call: a paused run waits here. */
  gate?: () => Promise<void>;
  onProgress?: (p: ContextProgress) => void;
  /** Each context as it is stored (the engine embeds it, the page shows it). */
  onContext?: (t: ContextTarget, c: UnitContext) => void;
  now?: () => number;
}

export interface ContextRunResult {
  /** Units whose call failed, with why: they keep their plain text. */
  failed: { key: string; reason: string }[];
  cancelled: boolean;
  /** Set when the run stopped because the generator does not answer: one line for the user. */
  error?: string;
  progress: ContextProgress;
  run: ContextRunRecord;
}

/** Writes the missing contexts of one unit kind; see the module comment. The run is recorded in the store (when there is one). */
export async function generateContexts(o: ContextRunOptions): Promise<ContextRunResult> {
  const now = o.now ?? (() => performance.now());
  const prompt = o.prompt ?? DEFAULT_CONTEXT_PROMPT;
  const maxReply = o.maxContextTokens ?? MAX_CONTEXT_TOKENS;
  const { generator: g, store } = o;
  if (!o.calls && !(o.units && store)) throw new Error('generateContexts needs the units and a store, or calls');
  const source = o.calls ?? contextCalls(o.units!, o.kind, store!, { prompt, generator: g, maxContextTokens: maxReply });
  const has = o.has ?? ((key: string) => store?.has(key) ?? false);
  const put = o.put ?? ((t: ContextTarget, c: UnitContext) => store!.set(t.key, c));
  const total = source.total;
  const started = now();
  const failed: { key: string; reason: string }[] = [];
  let done = 0;
  let written = 0;
  let cut = 0;
  let calls = 0;
  let inARow = 0;
  let error: string | undefined;
  const progress = (): ContextProgress => {
    const elapsedMs = now() - started;
    return { done, total, written, failed: failed.length, cut, calls, elapsedMs, leftMs: done ? Math.round((elapsedMs / done) * (total - done)) : null };
  };
  const fail = (t: ContextTarget, reason: string) => {
    failed.push({ key: t.key, reason });
    inARow++;
    done++;
    o.onProgress?.(progress());
  };

  for (;;) {
    if (o.signal?.aborted) break;
    await o.gate?.();
    if (o.signal?.aborted) break;
    const call = await source.next();
    if (!call) break;
    const t = call.target;
    // Written meanwhile (edited by hand, or another run): nothing is re-sent.
    if (has(t.key)) {
      done++;
      continue;
    }
    calls++;
    let reply: string;
    try {
      reply = await g.complete(call.messages, { ...(o.signal ? { signal: o.signal } : {}) });
    } catch (e) {
      if (o.signal?.aborted) break;
      fail(t, (e as Error).message ?? String(e));
      if (written === 0 && failed.length >= STOP_AFTER_FAILURES && failed.length === calls) {
        error = `the first ${failed.length} calls all failed, so the run stopped: ${failed[failed.length - 1]!.reason}`;
        break;
      }
      if (inARow >= STOP_AFTER_FAILURES_IN_A_ROW) {
        error = `${inARow} calls in a row failed, so the run stopped (the ${written} contexts written are kept): ${failed[failed.length - 1]!.reason}`;
        break;
      }
      continue;
    }
    // A reply cut short by cancelling is not a context.
    if (o.signal?.aborted) break;
    const cleaned = cleanContext(reply, g.counter, maxReply);
    if (!cleaned.ok) {
      fail(t, cleaned.reason);
      if (inARow >= STOP_AFTER_FAILURES_IN_A_ROW) {
        error = `${inARow} replies in a row held no context, so the run stopped (the ${written} contexts written are kept): ${cleaned.reason}`;
        break;
      }
      continue;
    }
    const context: UnitContext = { text: cleaned.text, source: g.source, ...(cleaned.cut ? { cut: true } : {}), ...(call.window ? { window: true } : {}) };
    await put(t, context);
    written++;
    if (cleaned.cut) cut++;
    inARow = 0;
    done++;
    o.onContext?.(t, context);
    o.onProgress?.(progress());
  }

  const cancelled = Boolean(o.signal?.aborted) && done < total;
  if (!error && !cancelled && calls > 0 && written === 0 && failed.length >= calls) error = `every call failed: ${failed[failed.length - 1]!.reason}`;
  const run: ContextRunRecord = { kind: o.kind, source: g.source, prompt: prompt.user, written, failed: failed.length, cut, cancelled, ...(error ? { error } : {}), finished: new Date().toISOString() };
  store?.recordRun(run);
  return { failed, cancelled, ...(error ? { error } : {}), progress: progress(), run };
}
