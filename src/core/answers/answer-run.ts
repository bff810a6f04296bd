/**
 * An answer run, shared by the page and the CLI: the contexts a measured run handed over are
 * assembled into prompts (answer-prompts.ts), planned through the reply cache (what is sent,
 * what the cache saves, what it costs), answered, optionally judged, and scored per point
 * (answer-metrics.ts). The page and the CLI differ only in their generator's `caller`, their
 * cache and how they show progress.
 */
import type { ChatMessage } from '../generate/endpoint-types';
import { buildAnswerPrompts, distinctRequests, type AnswerPrompt, type AnswerQuestion, type AnswerTable, type Assemble } from './answer-prompts';
import { answerPointResults, scoreOutcomes, type AnswerOutcome, type AnswerPointResult } from './answer-metrics';
import type { BlockOrder } from './block-order';
import type { HandedContexts } from './contexts';
import { firstJudgeRound, judgeOutcomes, secondJudgeRound, type JudgeSpec } from './judge-run';
import type { JudgePrompts } from './judge';
import type { ReplyCache, ReplySettings } from './reply-cache';
import { planReplies, runReplies, type ReplyCaller, type ReplyPlan, type ReplyProgress, type ReplyRate, type ReplyRunResult, type StoredReply } from './run-replies';

export interface AnswerGenerator {
  /** Its identity in cache keys: a different model, endpoint or precision never shares a reply. */
  model: string;
  /** For people ("llama3.2 at localhost:11434"). */
  label: string;
  caller: ReplyCaller;
  /** Counts a chat's tokens (estimate for endpoints), for the judge's plan. */
  count: (messages: ChatMessage[]) => number;
}

export interface AnswerRunSpec {
  questions: readonly AnswerQuestion[];
  handed: HandedContexts;
  /** Which measured points to answer; default all. */
  points?: readonly number[];
  orders: readonly BlockOrder[];
  /** The generator panel's assembly with the run's instructions (tokenizer and context of the generator). */
  assemble: Assemble;
  generator: AnswerGenerator;
  settings: ReplySettings;
  judge?: { generator: AnswerGenerator; prompts: JudgePrompts; settings: ReplySettings };
  cache: ReplyCache;
  rate?: ReplyRate;
  signal?: AbortSignal;
}

export interface AnswerRunPlan {
  table: AnswerTable;
  /** Distinct answer requests. */
  requests: AnswerPrompt[];
  answers: ReplyPlan;
  /** Slots (point × order × question) the run scores, and how many share a prompt with another. */
  slots: number;
  /** Judge calls at most (two per distinct answer, one more per answer with statements); the answers decide the rest. */
  judgeCallsAtMost: number;
}

/** Expected reply length of a short answer, for the plan's time. */
export const ANSWER_REPLY_TOKENS = 24;

/** Assembles and plans; nothing is sent. */
export async function planAnswerRun(spec: AnswerRunSpec): Promise<AnswerRunPlan> {
  const table = await buildAnswerPrompts({
    questions: spec.questions,
    handed: spec.handed,
    ...(spec.points ? { points: spec.points } : {}),
    orders: spec.orders,
    assemble: spec.assemble,
    model: spec.generator.model,
    settings: spec.settings,
    ...(spec.signal ? { signal: spec.signal } : {}),
  });
  const requests = distinctRequests(table.prompts);
  const answers = await planReplies(requests, spec.cache, { replyTokens: ANSWER_REPLY_TOKENS, ...(spec.rate ? { rate: spec.rate } : {}), concurrency: spec.generator.caller.concurrency });
  let slots = 0;
  for (const row of table.slots) for (const x of row) if (x >= 0) slots++;
  return { table, requests, answers, slots, judgeCallsAtMost: spec.judge ? 3 * requests.length : 0 };
}

export type AnswerRunPhase = 'answers' | 'judge';

export interface AnswerRunResult {
  plan: AnswerRunPlan;
  outcomes: AnswerOutcome[];
  results: AnswerPointResult[];
  answerRun: ReplyRunResult;
  judgeRuns: ReplyRunResult[];
  cancelled: boolean;
  /** One line each: stopped runs, damaged cache entries. */
  notes: string[];
}

export interface AnswerRunOptions {
  gate?: () => Promise<void>;
  onProgress?: (phase: AnswerRunPhase, p: ReplyProgress) => void;
}

function merged(runs: readonly ReplyRunResult[]): { replies: Map<string, StoredReply>; failures: Map<string, string> } {
  const replies = new Map<string, StoredReply>();
  const failures = new Map<string, string>();
  for (const r of runs) {
    for (const [k, v] of r.replies) replies.set(k, v);
    for (const [k, v] of r.failures) failures.set(k, v);
  }
  return { replies, failures };
}

/** Answers (and judges) a plan; a cancelled or stopped run still scores every answer made. */
export async function runAnswerRun(spec: AnswerRunSpec, plan: AnswerRunPlan, o: AnswerRunOptions = {}): Promise<AnswerRunResult> {
  const common = { cache: spec.cache, ...(spec.signal ? { signal: spec.signal } : {}), ...(o.gate ? { gate: o.gate } : {}) };
  const answerRun = await runReplies({ ...common, requests: plan.requests, caller: spec.generator.caller, onProgress: (p) => o.onProgress?.('answers', p) });
  const notes: string[] = [];
  if (answerRun.stopped) notes.push(`answers: ${answerRun.stopped}`);
  let outcomes = scoreOutcomes(plan.table, spec.questions, answerRun.replies, answerRun.failures);
  const judgeRuns: ReplyRunResult[] = [];
  if (spec.judge && !spec.signal?.aborted) {
    const judge: JudgeSpec = { prompts: spec.judge.prompts, model: spec.judge.generator.model, settings: spec.judge.settings };
    const count = spec.judge.generator.count;
    const first = firstJudgeRound(plan.table, spec.questions, outcomes, judge, count);
    const run1 = await runReplies({ ...common, requests: first.requests, caller: spec.judge.generator.caller, onProgress: (p) => o.onProgress?.('judge', p) });
    judgeRuns.push(run1);
    let second = secondJudgeRound(plan.table, first, run1.replies, run1.failures, judge, count);
    if (!spec.signal?.aborted && !run1.stopped) {
      const run2 = await runReplies({ ...common, requests: second.requests, caller: spec.judge.generator.caller, onProgress: (p) => o.onProgress?.('judge', p) });
      judgeRuns.push(run2);
    } else second = { ...second, requests: [] };
    for (const r of judgeRuns) if (r.stopped) notes.push(`judge: ${r.stopped}`);
    const { replies, failures } = merged(judgeRuns);
    outcomes = scoreOutcomes(plan.table, spec.questions, answerRun.replies, answerRun.failures, judgeOutcomes(plan.table, spec.questions, outcomes, first, second, replies, failures));
  }
  for (const d of spec.cache.damaged) notes.push(`cache: ${d}`);
  return { plan, outcomes, results: answerPointResults(plan.table, outcomes, spec.questions), answerRun, judgeRuns, cancelled: Boolean(spec.signal?.aborted), notes };
}
