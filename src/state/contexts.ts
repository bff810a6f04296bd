/**
 * Contextual retrieval in the page: the contexts panel's state (the unit kind, the editable
 * prompt, the plan, the run) and the run itself. The run is core/context/generate-contexts.ts
 * with the generator chosen in the Generator panel; its calls come from the lab worker a batch
 * at a time (the units live there) and each context goes back to it as it is written, so the
 * columns use it at once. Pause, resume and cancel keep what was written; a later run sends
 * only the units still without a context.
 */
import { create } from 'zustand';
import { contextKey, type ContextUnitKind, type UnitContext } from '../core/context/context-store';
import { generateContexts, type ContextCall, type ContextPlan, type ContextProgress } from '../core/context/generate-contexts';
import { REPLY_EXTRA_TOKENS } from '../core/context/generate-contexts';
import { checkContextPrompt, DEFAULT_CONTEXT_PROMPT, type ContextPrompt } from '../core/context/prompt';
import { MAX_CONTEXT_TOKENS } from '../core/context/reply';
import { ApproxTokenCounter } from '../core/segment/tokens';
import type { ContextsState } from '../worker/protocol';
import { labWorker } from './controller';
import { RunControl } from './run-control';
import { EndpointGenerator, type Generator } from './generators';
import { useGeneration } from './generation';
import { errorText } from './messages';

/** The worker estimates tokens: a model's own tokenizer may count up to this much more, so windows are sized with room. */
const ESTIMATE_MARGIN = 0.8;
/** Calls fetched from the worker at a time. */
const BATCH = 8;

export type ContextRunState = 'running' | 'paused' | 'done' | 'cancelled' | 'failed';

export interface ContextRun {
  state: ContextRunState;
  source: string;
  progress: ContextProgress | null;
  error: string | null;
  /** The first failed unit's reason, when some failed. */
  firstFailure: string | null;
  retry: string | null;
}

interface ContextsStore {
  kind: ContextUnitKind;
  prompt: ContextPrompt;
  plan: { state: 'none' | 'loading' | 'ready' | 'failed'; plan: ContextPlan | null; error: string | null; first: ContextCall | null };
  state: ContextsState | null;
  run: ContextRun | null;
}

export const useContexts = create<ContextsStore>(() => ({
  kind: 'chunk',
  prompt: { ...DEFAULT_CONTEXT_PROMPT },
  plan: { state: 'none', plan: null, error: null, first: null },
  state: null,
  run: null,
}));

/** The generator's context window as the worker sizes calls with (its estimate, with room). */
function contextTokens(gen: Generator): number {
  return Math.floor(gen.contextTokens * ESTIMATE_MARGIN);
}

/** Problems that keep a run from starting. */
export function contextProblems(prompt: ContextPrompt): string[] {
  return checkContextPrompt(prompt).errors;
}

export function setContextKind(kind: ContextUnitKind): void {
  useContexts.setState({ kind });
  void refreshContexts();
}

export function setContextPrompt(change: Partial<ContextPrompt>): void {
  useContexts.setState((s) => ({ prompt: { ...s.prompt, ...change } }));
  void refreshContexts();
}

export function resetContextPrompt(): void {
  useContexts.setState({ prompt: { ...DEFAULT_CONTEXT_PROMPT } });
  void refreshContexts();
}

/** The kind's coverage and runs, and the plan for the chosen generator, from the lab worker. */
export async function refreshContexts(): Promise<void> {
  const lab = labWorker();
  if (!lab) return;
  const { kind, prompt } = useContexts.getState();
  try {
    const state = await lab.request('contextsState', { kind }).promise;
    useContexts.setState({ state });
  } catch {
    // The corpus is changing: the next status asks again.
  }
  const gen = useGeneration.getState().generator;
  if (!gen || contextProblems(prompt).length) return void useContexts.setState({ plan: { state: 'none', plan: null, error: null, first: null } });
  useContexts.setState((s) => ({ plan: { ...s.plan, state: 'loading' } }));
  try {
    const opts = { kind, prompt, contextTokens: contextTokens(gen) };
    const [plan, first] = await Promise.all([lab.request('contextsPlan', opts).promise, lab.request('contextsCalls', { ...opts, after: -1, count: 1 }).promise]);
    useContexts.setState({ plan: { state: 'ready', plan, error: null, first: first[0] ?? null } });
  } catch (e) {
    useContexts.setState({ plan: { state: 'failed', plan: null, error: errorText(e), first: null } });
  }
}

/** The run in progress, if any. */
let current: RunControl | null = null;

const putRun = (change: Partial<ContextRun>) => useContexts.setState((s) => (s.run ? { run: { ...s.run, ...change } } : {}));

/** Writes the contexts the plan counts with the chosen generator; see the module comment. */
export async function startContextRun(): Promise<void> {
  const lab = labWorker();
  const gen = useGeneration.getState().generator;
  const { kind, prompt, plan } = useContexts.getState();
  if (!lab || !gen || !plan.plan || current || contextProblems(prompt).length) return;
  const g: Generator = gen;
  const endpoint = g instanceof EndpointGenerator;
  current = new RunControl();
  const run = current;
  const source = endpoint ? `endpoint ${g.label}` : `model ${g.label}`;
  useContexts.setState({ run: { state: 'running', source, progress: null, error: null, firstFailure: null, retry: null } });
  // The worker hands over the calls a batch at a time, after the last unit asked for.
  let after = -1;
  let batch: ContextCall[] = [];
  const opts = { kind, prompt, contextTokens: contextTokens(g) };
  const calls = {
    total: plan.plan.calls,
    async next(): Promise<ContextCall | null> {
      if (!batch.length) batch = await lab.request('contextsCalls', { ...opts, after, count: BATCH }).promise;
      const c = batch.shift() ?? null;
      if (c) after = c.target.id;
      return c;
    },
  };
  const temperature = 0;
  try {
    const result = await generateContexts({
      kind,
      prompt,
      generator: {
        source,
        contextTokens: g.contextTokens,
        counter: new ApproxTokenCounter(),
        complete: async (messages, { signal }) => {
          const r = await g.stream(messages, {
            maxTokens: MAX_CONTEXT_TOKENS + REPLY_EXTRA_TOKENS,
            temperature,
            ...(signal ? { signal } : {}),
            ...(endpoint ? { retry: { onRetry: (i) => putRun({ retry: `retry ${i.attempt}: ${i.reason}${i.waitMs ? `; waiting ${Math.round(i.waitMs / 1000)} s` : ''}` }) } } : {}),
          });
          if (r.stopped) throw new Error('the reply was stopped');
          return r.text;
        },
      },
      calls,
      // The worker keeps each context; a unit that got one meanwhile is skipped by the worker's next batch.
      has: () => false,
      put: async (t, c) => void (await lab.request('contextsPut', { key: t.key, context: c }).promise),
      signal: run.signal,
      gate: run.gate,
      onProgress: (progress) => putRun({ progress }),
    });
    await lab.request('contextsRecordRun', { run: result.run }).promise;
    putRun({
      state: result.error ? 'failed' : result.cancelled ? 'cancelled' : 'done',
      progress: result.progress,
      error: result.error ?? null,
      firstFailure: result.failed[0]?.reason ?? null,
    });
  } catch (e) {
    putRun({ state: 'failed', error: errorText(e) });
  } finally {
    current = null;
    void refreshContexts();
  }
}

export function pauseContextRun(pause: boolean): void {
  if (current?.setPaused(pause)) putRun({ state: pause ? 'paused' : 'running' });
}

/** Stops after the call in flight (stopped too); what was written is kept. */
export function cancelContextRun(): void {
  current?.cancel();
}

/** A block's context key: its document, the unit kind retrieved, its character range. */
export function blockContextKey(block: { docId: string; provenance: { unit: string }; start: number; end: number }): string {
  return contextKey(block.docId, block.provenance.unit as ContextUnitKind, block.start, block.end);
}

/** The user's own context for a unit (blank: removed). The columns search again when the worker says it changed. */
export async function editContext(key: string, text: string): Promise<UnitContext | null> {
  const lab = labWorker();
  if (!lab) return null;
  const c = await lab.request('contextsEdit', { key, text }).promise;
  void refreshContexts();
  return c;
}
