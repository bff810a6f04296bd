/**
 * Answer runs in the page: after an evaluation run that kept its contexts (Run settings,
 * "Judge by the answer"), every point's context is assembled into the generator panel's prompt
 * with the run's instructions, planned through the reply cache in IndexedDB — the page says
 * before anything is sent how many calls, what the cache saves, the tokens, the time and where
 * the text goes — then answered with the chosen generator (pause, resume and cancel keep what
 * was made), optionally judged, and scored per point (core/answers). When every answer is in
 * the cache and no judge is asked, the scores come at once: nothing is sent.
 */
import { create } from 'zustand';
import type { AnswerRunPlan, AnswerRunPhase, AnswerRunResult, AnswerRunSpec } from '../core/answers/answer-run';
import { planAnswerRun, runAnswerRun } from '../core/answers/answer-run';
import type { BlockOrder } from '../core/answers/block-order';
import { checkJudgePrompts, DEFAULT_JUDGE_PROMPTS, type JudgePrompts } from '../core/answers/judge';
import { JUDGE_SETTINGS } from '../core/answers/judge-run';
import { DEFAULT_ANSWER_INSTRUCTIONS, DEFAULT_ANSWER_TOKENS } from '../core/answers/prompt';
import type { ReplySettings } from '../core/answers/reply-cache';
import type { ReplyProgress } from '../core/answers/run-replies';
import type { EvalRunResult } from '../worker/protocol';
import type { Generator } from './generators';
import { useGeneration } from './generation';
import { errorText } from './messages';
import { answerGeneratorOf } from './generator-caller';
import { pageReplyCache } from './reply-cache-idb';
import { RunControl } from './run-control';
import { useEval } from './stores';

export interface AnswerRunSettings {
  /** The answer prompt's instructions (the system message), editable. */
  instructions: string;
  answerTokens: number;
  /** Block orders measured; each is its own point. */
  orders: BlockOrder[];
  judge: boolean;
  judgePrompts: JudgePrompts;
}

export type AnswerRunState = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface AnswerRunView {
  state: AnswerRunState;
  phase: AnswerRunPhase;
  progress: ReplyProgress | null;
  /** The last retry of an endpoint call (rate-limited, server error), for the progress line. */
  retry: string | null;
  error: string | null;
}

interface AnswerStore {
  settings: AnswerRunSettings;
  plan: { state: 'none' | 'planning' | 'ready' | 'failed'; key: string; plan: AnswerRunPlan | null; error: string | null; where: string | null };
  run: AnswerRunView | null;
  /** The scored answers of the last run (or of the cache), for the evaluation result it was made for. */
  result: (AnswerRunResult & { for: EvalRunResult; generator: string; key: string }) | null;
}

export function defaultAnswerSettings(): AnswerRunSettings {
  return { instructions: DEFAULT_ANSWER_INSTRUCTIONS, answerTokens: DEFAULT_ANSWER_TOKENS, orders: ['score'], judge: false, judgePrompts: structuredClone(DEFAULT_JUDGE_PROMPTS) };
}

export const useAnswers = create<AnswerStore>(() => ({
  settings: defaultAnswerSettings(),
  plan: { state: 'none', key: '', plan: null, error: null, where: null },
  run: null,
  result: null,
}));

/** Problems that keep a run from starting, one line each. */
export function answerSettingsProblems(s: AnswerRunSettings): string[] {
  const out: string[] = [];
  if (!s.instructions.trim()) out.push('the answer instructions are empty');
  if (!Number.isInteger(s.answerTokens) || s.answerTokens < 1) out.push('the longest answer must be at least 1 token');
  if (!s.orders.length) out.push('choose at least one block order');
  if (s.judge) out.push(...checkJudgePrompts(s.judgePrompts));
  return out;
}

function specFor(result: EvalRunResult, gen: Generator, s: AnswerRunSettings, onRetry: (line: string) => void, signal?: AbortSignal): AnswerRunSpec {
  const answering = result.answering!;
  const settings: ReplySettings = { temperature: useGeneration.getState().settings.temperature, maxTokens: s.answerTokens };
  const headers = useGeneration.getState().settings.headers;
  return {
    questions: answering.questions,
    handed: answering.contexts,
    orders: s.orders,
    // The generator panel's own assembly: its tokenizer, its context window, its header choice.
    assemble: (question, blocks) => gen.assemble(question, blocks, { answerTokens: s.answerTokens, headers, instructions: s.instructions }),
    generator: answerGeneratorOf(gen, settings, onRetry),
    settings,
    ...(s.judge ? { judge: { generator: answerGeneratorOf(gen, JUDGE_SETTINGS, onRetry), prompts: s.judgePrompts, settings: JUDGE_SETTINGS } } : {}),
    cache: pageReplyCache(),
    ...(signal ? { signal } : {}),
  };
}

const planKey = (result: EvalRunResult | null, gen: Generator | null, s: AnswerRunSettings) => JSON.stringify([result?.ms, result?.points.length, gen?.identity ?? null, useGeneration.getState().settings.temperature, useGeneration.getState().settings.headers, s]);

let planSeq = 0;

/** Assembles and plans the answers of the current evaluation result (nothing is sent). */
export async function planAnswers(): Promise<void> {
  const result = useEval.getState().result;
  const gen = useGeneration.getState().generator;
  const { settings, run } = useAnswers.getState();
  const key = planKey(result, gen, settings);
  if (!result?.answering || !gen || answerSettingsProblems(settings).length) {
    useAnswers.setState({ plan: { state: 'none', key, plan: null, error: null, where: null } });
    return;
  }
  if (run?.state === 'running' || run?.state === 'paused') return;
  const seq = ++planSeq;
  useAnswers.setState((st) => ({ plan: { ...st.plan, state: 'planning', key } }));
  try {
    const plan = await planAnswerRun(specFor(result, gen, settings, () => undefined));
    if (seq !== planSeq) return;
    const first = plan.requests[0];
    useAnswers.setState({ plan: { state: 'ready', key, plan, error: null, where: first ? gen.describe(first.messages) : null } });
    // Everything is in the cache and no judge is asked: score it at once, nothing is sent.
    if (plan.answers.calls === 0 && plan.requests.length && !settings.judge && useAnswers.getState().result?.key !== key) await startAnswerRun();
  } catch (e) {
    if (seq === planSeq) useAnswers.setState({ plan: { state: 'failed', key, plan: null, error: errorText(e), where: null } });
  }
}

let planTimer: ReturnType<typeof setTimeout> | null = null;
function schedulePlan(): void {
  if (planTimer) clearTimeout(planTimer);
  planTimer = setTimeout(() => void planAnswers(), 250);
}

export function setAnswerSettings(change: (s: AnswerRunSettings) => void): void {
  const settings = structuredClone(useAnswers.getState().settings);
  change(settings);
  useAnswers.setState({ settings });
  schedulePlan();
}

let current: RunControl | null = null;

const putRun = (change: Partial<AnswerRunView>) => useAnswers.setState((st) => (st.run ? { run: { ...st.run, ...change } } : {}));

/** Answers (and judges) the plan; every answer is stored as it comes, so a cancelled run keeps what was made. */
export async function startAnswerRun(): Promise<void> {
  const result = useEval.getState().result;
  const gen = useGeneration.getState().generator;
  const { plan, settings } = useAnswers.getState();
  if (!result?.answering || !gen || !plan.plan || current) return;
  current = new RunControl();
  const control = current;
  useAnswers.setState({ run: { state: 'running', phase: 'answers', progress: null, retry: null, error: null } });
  try {
    const spec = specFor(result, gen, settings, (line) => putRun({ retry: line }), control.signal);
    const out = await runAnswerRun(spec, plan.plan, { gate: control.gate, onProgress: (phase, p) => putRun({ phase, progress: p }) });
    useAnswers.setState({ result: { ...out, for: result, generator: gen.label, key: plan.key } });
    putRun({ state: out.cancelled ? 'cancelled' : 'done', error: out.notes.find((n) => n.includes('stopped after')) ?? null });
  } catch (e) {
    putRun({ state: 'failed', error: errorText(e) });
  } finally {
    current = null;
    // What the cache holds now: a later plan counts it.
    void planAnswers();
  }
}

export function pauseAnswerRun(pause: boolean): void {
  if (current?.setPaused(pause)) putRun({ state: pause ? 'paused' : 'running' });
}

export function cancelAnswerRun(): void {
  current?.cancel();
}

// A new evaluation result, another generator or its settings: plan again.
useEval.subscribe((s, prev) => {
  if (s.result !== prev.result) {
    useAnswers.setState({ result: null, run: null });
    schedulePlan();
  }
});
useGeneration.subscribe((s, prev) => {
  if (s.generator !== prev.generator || s.settings.temperature !== prev.settings.temperature || s.settings.headers !== prev.settings.headers) schedulePlan();
});
