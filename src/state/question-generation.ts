/**
 * Generating a question set with the generator chosen in the Generator panel: the run's plan
 * (passages from the lab worker, calls, tokens, time, and where text goes), the run itself
 * (core/questions/generate.ts, with progress, pause and cancel that keep what was made), and
 * the review (kept and rejected questions, the copy-share threshold) before the kept ones
 * join the corpus's question set.
 */
import { create } from 'zustand';
import type { ChatMessage } from '../core/generate/openai';
import { COPY_SHARE_THRESHOLD } from '../core/questions/filters';
import { DEFAULT_THRESHOLDS, generateQuestions, type CompleteFn, type GenerateProgress } from '../core/questions/generate';
import { buildMessages, checkTemplate, DEFAULT_PROMPTS, type PromptTemplate } from '../core/questions/prompts';
import type { Corpus } from '../core/structure/corpus';
import type { GenerationRun, LabelledQuestion, QuestionType, RejectedQuestion } from '../core/questions/types';
import type { QuestionPlan } from '../worker/question-generation-protocol';
import { labWorker } from './controller';
import { RunControl } from './run-control';
import { EndpointGenerator, type Generator } from './generators';
import { useGeneration } from './generation';
import { errorText } from './messages';
import { refreshQuestions, useQuestionSet } from './question-set';

export const QUESTION_TYPES: QuestionType[] = ['specific', 'abstract', 'multi-passage'];

/** Longest reply asked for: a question and a short quoted answer (thinking models may need more). */
export const REPLY_MAX_TOKENS = 256;

export interface QuestionGenSettings {
  n: number;
  seed: number;
  kinds: QuestionType[];
  /** Document ids; empty: every document. */
  documents: string[];
  prompts: Record<QuestionType, PromptTemplate>;
  /** Lowest token F1 of a fuzzy answer match. */
  fuzzy: number;
  /** Word overlap (Jaccard) above which a question is a near-duplicate. */
  duplicate: number;
  /** Share of copied content words above which a question is dropped (adjustable after the run). */
  copyShare: number;
}

export type RunState = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface QuestionRun {
  state: RunState;
  model: string;
  progress: GenerateProgress | null;
  /** Every question that passed the other filters, whatever its copy share (the threshold applies in `review`). */
  passed: LabelledQuestion[];
  rejected: RejectedQuestion[];
  info: GenerationRun | null;
  error: string | null;
  /** The last retry of an endpoint call (rate-limited, server error), for the progress line. */
  retry: string | null;
  /** Set once the kept questions were added to the set. */
  added: { count: number; skipped: string[] } | null;
  adding: boolean;
  addError: string | null;
}

interface QuestionGenStore {
  open: boolean;
  settings: QuestionGenSettings;
  plan: { state: 'none' | 'loading' | 'ready' | 'failed'; plan: QuestionPlan | null; error: string | null; key: string };
  run: QuestionRun | null;
}

export function defaultQuestionSettings(): QuestionGenSettings {
  return {
    n: 20,
    seed: 1,
    kinds: ['specific'],
    documents: [],
    prompts: structuredClone(DEFAULT_PROMPTS),
    fuzzy: DEFAULT_THRESHOLDS.fuzzy,
    duplicate: DEFAULT_THRESHOLDS.duplicate,
    copyShare: COPY_SHARE_THRESHOLD,
  };
}

export const useQuestionGen = create<QuestionGenStore>(() => ({
  open: false,
  settings: defaultQuestionSettings(),
  plan: { state: 'none', plan: null, error: null, key: '' },
  run: null,
}));

export function openQuestionGen(open: boolean): void {
  useQuestionGen.setState({ open });
  if (open) void refreshPlan();
}

export function setQuestionSettings(change: (s: QuestionGenSettings) => void): void {
  const settings = structuredClone(useQuestionGen.getState().settings);
  change(settings);
  // The plan shown is stale until the new one comes: Start waits for it.
  // A plan still being made for the old settings is ignored when it arrives (its key differs).
  useQuestionGen.setState((st) => ({ settings, plan: { ...st.plan, state: st.plan.state === 'none' ? 'none' : 'loading', key: planKey(settings) } }));
  schedulePlan();
}

/** Problems that keep a run from starting, one line each. */
export function settingsProblems(s: QuestionGenSettings): string[] {
  const out: string[] = [];
  if (!Number.isInteger(s.n) || s.n < 1) out.push('ask for at least one question');
  if (!s.kinds.length) out.push('choose at least one kind of question');
  for (const k of s.kinds) out.push(...checkTemplate(k, s.prompts[k]));
  return out;
}

const planKey = (s: QuestionGenSettings) => JSON.stringify([s.n, s.seed, s.kinds, s.documents, s.kinds.map((k) => s.prompts[k])]);
let planTimer: ReturnType<typeof setTimeout> | null = null;

function schedulePlan(): void {
  if (planTimer) clearTimeout(planTimer);
  planTimer = setTimeout(() => void refreshPlan(), 250);
}

/** Asks the lab worker for the run's passages and what the run will cost. */
export async function refreshPlan(): Promise<void> {
  const { settings } = useQuestionGen.getState();
  const lab = labWorker();
  const key = planKey(settings);
  if (!lab || settingsProblems(settings).length) {
    useQuestionGen.setState({ plan: { state: 'none', plan: null, error: null, key } });
    return;
  }
  useQuestionGen.setState((st) => ({ plan: { ...st.plan, state: 'loading', key } }));
  try {
    const plan = await lab.request('questionPassages', {
      options: { n: settings.n, seed: settings.seed, types: settings.kinds, documents: settings.documents, prompts: pick(settings) },
    }).promise;
    if (useQuestionGen.getState().plan.key === key) useQuestionGen.setState({ plan: { state: 'ready', plan, error: null, key } });
  } catch (e) {
    if (useQuestionGen.getState().plan.key === key) useQuestionGen.setState({ plan: { state: 'failed', plan: null, error: errorText(e), key } });
  }
}

/** The prompts of the chosen kinds (all the driver reads). */
function pick(s: QuestionGenSettings): Partial<Record<QuestionType, PromptTemplate>> {
  return Object.fromEntries(s.kinds.map((k) => [k, s.prompts[k]]));
}

/** The first request of the plan, exactly as it will be sent (for the "where text goes" sentence). */
export function firstMessages(plan: QuestionPlan, s: QuestionGenSettings): ChatMessage[] | null {
  const item = plan.items[0];
  if (!item) return null;
  const doc = plan.docs[item.passages[0]!.doc];
  return buildMessages(s.prompts[item.type], { passages: item.passages.map((p) => p.text), title: doc?.title ?? '', language: doc?.language ?? 'en' });
}

/**
 * The driver reads only the title and language of a passage's document (corpus.docs[p.doc]),
 * which the plan carries: the page holds no corpus, so it gets a sparse stand-in.
 */
function corpusStandIn(plan: QuestionPlan): Corpus {
  const docs: { title: string; language: string }[] = [];
  for (const [i, d] of Object.entries(plan.docs)) docs[Number(i)] = d;
  return { docs } as unknown as Corpus;
}

/** The run in progress, if any. */
let current: RunControl | null = null;

const putRun = (change: Partial<QuestionRun>) => useQuestionGen.setState((st) => (st.run ? { run: { ...st.run, ...change } } : {}));

/**
 * Runs the plan with the chosen generator; the kept questions wait in the review until added.
 * New questions must not near-duplicate those already in the set either.
 */
export async function startQuestionRun(): Promise<void> {
  const existing: readonly LabelledQuestion[] = useQuestionSet.getState().set?.questions ?? [];
  const { settings, plan } = useQuestionGen.getState();
  const generator = useGeneration.getState().generator;
  if (!generator || !plan.plan || current) return;
  const gen: Generator = generator;
  const temperature = useGeneration.getState().settings.temperature;
  current = new RunControl();
  const run = current;
  useQuestionGen.setState({ run: { state: 'running', model: gen.label, progress: null, passed: [], rejected: [], info: null, error: null, retry: null, added: null, adding: false, addError: null } });
  // Structured outputs go to an endpoint; the in-browser model gets the same prompt without them.
  const endpoint = gen instanceof EndpointGenerator;
  const complete: CompleteFn = async (messages, { signal, responseFormat }) => {
    const r = await gen.stream(messages, {
      maxTokens: REPLY_MAX_TOKENS,
      temperature,
      ...(signal ? { signal } : {}),
      ...(endpoint && responseFormat ? { responseFormat } : {}),
      // 429 (after its Retry-After), 5xx and unreachable calls are retried, bounded; the wait is shown.
      ...(endpoint ? { retry: { onRetry: (i) => putRun({ retry: `retry ${i.attempt}: ${i.reason}${i.waitMs ? `; waiting ${Math.round(i.waitMs / 1000)} s` : ''}` }) } } : {}),
    });
    return r.text;
  };
  try {
    const result = await generateQuestions({
      corpus: corpusStandIn(plan.plan),
      items: plan.plan.items,
      complete,
      model: gen.label,
      seed: settings.seed,
      prompts: pick(settings),
      // The copy-share threshold is applied in the review, so it can be moved both ways afterwards.
      thresholds: { fuzzy: settings.fuzzy, duplicate: settings.duplicate, copyShare: 1 },
      existing,
      structured: endpoint,
      signal: run.signal,
      gate: run.gate,
      onProgress: (progress) => putRun({ progress }),
      idPrefix: `gen-${settings.seed}-${Date.now().toString(36)}`,
    });
    putRun({
      state: result.error ? 'failed' : result.cancelled ? 'cancelled' : 'done',
      progress: result.progress,
      passed: result.kept,
      rejected: result.rejected,
      info: result.run,
      error: result.error ?? null,
    });
  } catch (e) {
    putRun({ state: 'failed', error: errorText(e) });
  } finally {
    current = null;
  }
}

export function pauseQuestionRun(pause: boolean): void {
  if (current?.setPaused(pause)) putRun({ state: pause ? 'paused' : 'running' });
}

/** Stops the run after the call in flight (which is stopped too); what was made is kept. */
export function cancelQuestionRun(): void {
  current?.cancel();
}

/** The run's questions split by the copy-share threshold: kept, and dropped for copying the passage. */
export interface Review {
  kept: LabelledQuestion[];
  copied: LabelledQuestion[];
  /** Rejections by reason, the copy-share ones counted at the current threshold. */
  counts: Partial<Record<RejectedQuestion['reason'], number>>;
}

export function reviewRun(run: QuestionRun, threshold: number): Review {
  const kept = run.passed.filter((q) => (q.copyShare ?? 0) <= threshold);
  const copied = run.passed.filter((q) => (q.copyShare ?? 0) > threshold);
  const counts: Review['counts'] = {};
  for (const r of run.rejected) counts[r.reason] = (counts[r.reason] ?? 0) + 1;
  if (copied.length) counts['copies-passage'] = (counts['copies-passage'] ?? 0) + copied.length;
  return { kept, copied, counts };
}

/** The kept questions join the corpus's question set (the lab worker's `questionsAdd`), with the run's counts. */
export async function addKeptQuestions(): Promise<void> {
  const { run, settings } = useQuestionGen.getState();
  const lab = labWorker();
  if (!run || !lab || run.adding || run.added) return;
  const review = reviewRun(run, settings.copyShare);
  putRun({ adding: true, addError: null });
  try {
    const info: GenerationRun = { ...(run.info ?? { model: run.model, asked: run.progress?.done ?? 0, kept: 0, rejected: {} }), kept: review.kept.length, rejected: review.counts };
    const r = await lab.request('questionsAdd', { questions: review.kept, run: info }).promise;
    putRun({ adding: false, added: { count: r.added.length, skipped: r.skipped } });
    await refreshQuestions();
  } catch (e) {
    putRun({ adding: false, addError: errorText(e) });
  }
}

/** Forgets the finished run (its questions were added, or the user does not want them). */
export function clearQuestionRun(): void {
  if (current) return;
  useQuestionGen.setState({ run: null });
}
