/**
 * The question-generation driver, shared by the page (model in the browser or an endpoint) and
 * the CLI: they differ only in the `complete` callback. Plans the passage items (planGeneration:
 * passages, calls, tokens and time, stated before starting), asks for one question per item,
 * keeps or rejects each with its reason, reports progress, honours pause and cancel, and always
 * returns what was kept.
 */
import type { ChatMessage } from '../generate/openai';
import type { Corpus } from '../structure/corpus';
import { COPY_SHARE_THRESHOLD, copyShare, DUPLICATE_THRESHOLD, findNearDuplicate, isDontKnow, type Thresholds } from './filters';
import { FUZZY_THRESHOLD, locateAnswer } from './locate';
import { buildMessages, DEFAULT_PROMPTS, RESPONSE_FORMATS, type PromptTemplate } from './prompts';
import { parseReply } from './reply';
import { passageSpan, samplePassages, type PassageItem, type SampleOptions } from './sample';
import type { GenerationRun, GoldSpan, LabelledQuestion, QuestionType, RejectedQuestion, RejectReason } from './types';

/** Asks the model: resolves with the reply text. Retries (429, 5xx) are the callback's business. */
export type CompleteFn = (messages: ChatMessage[], options: { signal?: AbortSignal; responseFormat?: Record<string, unknown> }) => Promise<string>;

export const DEFAULT_THRESHOLDS: Thresholds = { fuzzy: FUZZY_THRESHOLD, duplicate: DUPLICATE_THRESHOLD, copyShare: COPY_SHARE_THRESHOLD };

/** A run whose first this-many calls all fail stops: the endpoint is not going to answer. */
export const STOP_AFTER_FAILURES = 3;
/** Assumed reply length of one question and answer, in tokens, for estimates. */
export const REPLY_TOKENS = 60;
/** Assumed speed when none was measured (a small local model on a laptop CPU). */
export const ASSUMED_RATE = { promptTokensPerSecond: 150, replyTokensPerSecond: 15 };

export interface GenerationPlan {
  items: PassageItem[];
  /** Distinct passages. */
  passages: number;
  calls: number;
  promptTokens: number;
  replyTokens: number;
  seconds: number;
  /** Whether `seconds` comes from a measured rate or ASSUMED_RATE. */
  rate: 'measured' | 'assumed';
  notes: string[];
}

export interface PlanOptions extends SampleOptions {
  prompts?: Partial<Record<QuestionType, PromptTemplate>>;
  /** A measured speed; ASSUMED_RATE when absent. */
  rate?: { promptTokensPerSecond: number; replyTokensPerSecond: number };
}

/** Rough tokens of a template's own text (the passages are counted with the corpus's tokenizer). */
const templateTokens = (t: PromptTemplate) => Math.ceil((t.system.length + t.user.length) / 4);

/** The items of a run and what it will cost: passages, calls, tokens and time. */
export function planGeneration(corpus: Corpus, options: PlanOptions): GenerationPlan {
  const { items, notes } = samplePassages(corpus, options);
  const prompts = { ...DEFAULT_PROMPTS, ...options.prompts };
  let promptTokens = 0;
  const distinct = new Set<string>();
  for (const it of items) {
    promptTokens += templateTokens(prompts[it.type]) + it.passages.reduce((n, p) => n + p.tokens, 0);
    for (const p of it.passages) distinct.add(`${p.doc}:${p.sentences.start}`);
  }
  const replyTokens = items.length * REPLY_TOKENS;
  const rate = options.rate ?? ASSUMED_RATE;
  const seconds = promptTokens / rate.promptTokensPerSecond + replyTokens / rate.replyTokensPerSecond;
  return { items, passages: distinct.size, calls: items.length, promptTokens, replyTokens, seconds: Math.round(seconds), rate: options.rate ? 'measured' : 'assumed', notes };
}

export interface GenerateProgress {
  done: number;
  total: number;
  kept: number;
  rejected: Partial<Record<RejectReason, number>>;
  calls: number;
  elapsedMs: number;
  /** Estimated time left from the mean time per item so far (null before the first). */
  leftMs: number | null;
}

export interface GenerateOptions {
  corpus: Corpus;
  items: PassageItem[];
  complete: CompleteFn;
  /** The generator's name, recorded on each question and in the run. */
  model: string;
  seed?: number;
  prompts?: Partial<Record<QuestionType, PromptTemplate>>;
  thresholds?: Partial<Thresholds>;
  /** Questions already in the set: new ones must not duplicate them either. */
  existing?: readonly LabelledQuestion[];
  /** Sends `response_format` (structured outputs); default true. */
  structured?: boolean;
  signal?: AbortSignal;
  /** Awaited before each call: a paused run waits here. */
  gate?: () => Promise<void>;
  onProgress?: (p: GenerateProgress) => void;
  /** Id prefix of the new questions (default "gen-<seed>"). */
  idPrefix?: string;
  now?: () => number;
}

export interface GenerateResult {
  kept: LabelledQuestion[];
  rejected: RejectedQuestion[];
  run: GenerationRun;
  cancelled: boolean;
  /** Set when the run stopped because every call failed: one line for the user. */
  error?: string;
  progress: GenerateProgress;
}

const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Runs the plan's items in order (one call each); see the module comment. */
export async function generateQuestions(o: GenerateOptions): Promise<GenerateResult> {
  const now = o.now ?? (() => performance.now());
  const t = { ...DEFAULT_THRESHOLDS, ...o.thresholds };
  const prompts = { ...DEFAULT_PROMPTS, ...o.prompts };
  const started = now();
  const kept: LabelledQuestion[] = [];
  const rejected: RejectedQuestion[] = [];
  const byReason: Partial<Record<RejectReason, number>> = {};
  const keptTexts = (o.existing ?? []).map((q) => q.question);
  const prefix = o.idPrefix ?? `gen-${o.seed ?? 0}`;
  const usedIds = new Set((o.existing ?? []).map((q) => q.id));
  let calls = 0;
  let done = 0;
  let succeeded = 0;
  let failuresInARow = 0;
  let error: string | undefined;
  const progress = (): GenerateProgress => {
    const elapsedMs = now() - started;
    return { done, total: o.items.length, kept: kept.length, rejected: { ...byReason }, calls, elapsedMs, leftMs: done ? Math.round((elapsedMs / done) * (o.items.length - done)) : null };
  };
  const reject = (item: PassageItem, reason: RejectReason, detail: string, question?: string, answer?: string) => {
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    rejected.push({ reason, detail, ...(question !== undefined ? { question } : {}), ...(answer !== undefined ? { answer } : {}), passage: item.passages.map(passageSpan), type: item.type });
  };

  for (const item of o.items) {
    if (o.signal?.aborted) break;
    await o.gate?.();
    if (o.signal?.aborted) break;
    const doc = o.corpus.docs[item.passages[0]!.doc]!;
    const messages = buildMessages(prompts[item.type], { passages: item.passages.map((p) => p.text), title: doc.context?.title ?? doc.title, language: doc.language });
    let reply: string;
    calls++;
    try {
      reply = await o.complete(messages, { signal: o.signal, ...(o.structured === false ? {} : { responseFormat: RESPONSE_FORMATS[item.type] as unknown as Record<string, unknown> }) });
    } catch (e) {
      if (o.signal?.aborted) break;
      const message = (e as Error).message ?? String(e);
      reject(item, 'error', message);
      done++;
      failuresInARow++;
      o.onProgress?.(progress());
      if (succeeded === 0 && failuresInARow >= STOP_AFTER_FAILURES) {
        error = `the first ${failuresInARow} calls all failed, so the run stopped: ${message}`;
        break;
      }
      continue;
    }
    if (o.signal?.aborted) break;
    succeeded++;
    failuresInARow = 0;
    judge(item, reply, doc.language);
    done++;
    o.onProgress?.(progress());
  }

  function judge(item: PassageItem, reply: string, language: string): void {
    const parsed = parseReply(reply);
    if (!parsed.ok) return reject(item, 'not-json', parsed.reason);
    const { question, answer } = parsed;
    // A multi-passage reply quotes one fact from each passage: every one is a gold span, all needed.
    const parts = item.passages.length > 1 ? parsed.parts : undefined;
    const dontKnow = parts ? parts.find(isDontKnow) : isDontKnow(answer) ? answer : undefined;
    if (dontKnow !== undefined) return reject(item, 'dont-know', `the model said the passage has no answer ("${clip(dontKnow || '(empty)')}")`, question, answer);
    if (!question) return reject(item, 'no-question', 'the reply has an answer but no question', question, answer);
    const spans: GoldSpan[] = [];
    for (const [i, part] of (parts ?? [answer]).entries()) {
      // The best match gives the gold span; each quoted fact is looked for in its own passage first.
      const own = parts ? item.passages[i] : undefined;
      let found = locateIn(own ? [own] : item.passages, part, language);
      if (!found.span && own) {
        const rest = locateIn(item.passages.filter((p) => p !== own), part, language);
        found = { span: rest.span, bestScore: Math.max(found.bestScore, rest.bestScore) };
      }
      const from = parts ? `the answer from passage ${String.fromCharCode(65 + i)} ` : 'the answer ';
      if (!found.span) return reject(item, 'answer-not-found', `${from}"${clip(part)}" is not in the passage${parts ? 's' : ''} (best match ${found.bestScore.toFixed(2)} < ${t.fuzzy.toFixed(2)})`, question, answer);
      if (!spans.some((x) => x.doc === found.span!.doc && x.start === found.span!.start && x.end === found.span!.end)) spans.push(found.span);
    }
    const passageText = item.passages.map((p) => p.text).join('\n');
    const share = copyShare(question, passageText, language);
    const dup = findNearDuplicate(question, keptTexts, language, t.duplicate);
    if (dup) return reject(item, 'duplicate', `near-duplicate of "${clip(keptTexts[dup.index]!)}" (word overlap ${dup.similarity.toFixed(2)} > ${t.duplicate.toFixed(2)})`, question, answer);
    if (share > t.copyShare) return reject(item, 'copies-passage', `${Math.round(share * 100)} % of its content words are copied from the passage (> ${Math.round(t.copyShare * 100)} %)`, question, answer);
    let id = `${prefix}-${item.index + 1}`;
    for (let k = 2; usedIds.has(id); k++) id = `${prefix}-${item.index + 1}-${k}`;
    usedIds.add(id);
    keptTexts.push(question);
    kept.push({
      id,
      question,
      answers: spans,
      ...(spans.length > 1 ? { needs: 'all' as const } : {}),
      source: { kind: 'generated', model: o.model, passage: item.passages.map(passageSpan) },
      type: item.type,
      copyShare: share,
      updated: new Date().toISOString(),
    });
  }

  /** The best match of `text` among `passages` as a gold span (null under the threshold), and the best score seen. */
  function locateIn(passages: readonly PassageItem['passages'][number][], text: string, language: string): { span: GoldSpan | null; bestScore: number } {
    let best: { span: GoldSpan; score: number } | null = null;
    let bestScore = 0;
    for (const p of passages) {
      const r = locateAnswer(p.text, text, { threshold: t.fuzzy, language });
      bestScore = Math.max(bestScore, r.bestScore);
      if (r.match && (!best || r.match.score > best.score)) best = { span: { doc: p.docId, start: p.start + r.match.start, end: p.start + r.match.end, text: r.match.text }, score: r.match.score };
    }
    return { span: best?.span ?? null, bestScore };
  }

  const cancelled = Boolean(o.signal?.aborted) && done < o.items.length;
  if (!error && calls > 0 && succeeded === 0 && done === o.items.length) error = `every call failed: ${rejected[rejected.length - 1]?.detail ?? 'no reply'}`;
  const run: GenerationRun = { model: o.model, asked: done, kept: kept.length, rejected: { ...byReason }, ...(o.seed !== undefined ? { seed: o.seed } : {}), finished: new Date().toISOString(), ...(cancelled ? { cancelled } : {}) };
  return { kept, rejected, run, cancelled, ...(error ? { error } : {}), progress: progress() };
}

/** Counts of rejected questions by reason, in a stable order, for messages. */
export const REJECT_REASONS: RejectReason[] = ['not-json', 'no-question', 'answer-not-found', 'dont-know', 'duplicate', 'copies-passage', 'error'];
