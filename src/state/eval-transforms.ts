/**
 * Query transformations in Evaluate: before a run that measures them, the generator chosen in
 * the Generator panel writes every question's rewrites — planned first (calls = questions ×
 * transformations, less the reply cache; the page says where they go and waits for the user),
 * then asked with progress and cancel, then handed to the lab worker with the run, which
 * measures each transformation beside the question as asked.
 */
import { create } from 'zustand';
import type { ReplyPlan, ReplyProgress } from '../core/answers/run-replies';
import type { QueryTransform } from '../core/transform/rewrites';
import { PAGE_TOOL_SET, planRewrites, rewriteRequests, runRewrites, REWRITE_SETTINGS, type RewriteRequest } from '../core/transform/run-rewrites';
import type { EvalRunSpec } from '../worker/protocol';
import { labWorker, runEvaluation } from './controller';
import { useGeneration } from './generation';
import { answerGeneratorOf } from './generator-caller';
import { errorText } from './messages';
import { pageReplyCache } from './reply-cache-idb';
import { RunControl } from './run-control';

type Choice = Omit<EvalRunSpec, 'current' | 'transform'>;

interface TransformRunState {
  state: 'planning' | 'ready' | 'writing' | 'failed';
  spec: Choice;
  transforms: QueryTransform[];
  requests: RewriteRequest[];
  plan: ReplyPlan | null;
  where: string | null;
  progress: ReplyProgress | null;
  error: string | null;
}

export const useEvalTransforms = create<{ run: TransformRunState | null }>(() => ({ run: null }));

const put = (change: Partial<TransformRunState>) => useEvalTransforms.setState((s) => (s.run ? { run: { ...s.run, ...change } } : {}));

/** Plans the rewrites a run with query transformations needs; the run waits for confirmRewrites. */
export async function planEvalRewrites(spec: Choice, transforms: QueryTransform[]): Promise<void> {
  const gen = useGeneration.getState().generator;
  const lab = labWorker();
  useEvalTransforms.setState({ run: { state: 'planning', spec, transforms, requests: [], plan: null, where: null, progress: null, error: null } });
  if (!gen || !lab) return put({ state: 'failed', error: 'choose a generator in the Generator panel first: it writes the rewrites' });
  try {
    const questions = await lab.request('evalQuestionTexts', { ...(spec.questions ? { questions: spec.questions } : {}) }).promise;
    const writer = answerGeneratorOf(gen, REWRITE_SETTINGS);
    const { settings } = useGeneration.getState();
    const requests = rewriteRequests(questions, { transforms, toolSets: [{ name: PAGE_TOOL_SET, tools: settings.tools }], variants: settings.fusionVariants }, writer.model, writer.count);
    const plan = await planRewrites(requests, pageReplyCache(), { concurrency: gen.concurrency });
    put({ state: 'ready', requests, plan, where: requests[0] ? gen.describe(requests[0].messages) : null });
  } catch (e) {
    put({ state: 'failed', error: errorText(e) });
  }
}

let control: RunControl | null = null;

/** Writes the planned rewrites (the cache answers what it holds), then runs the evaluation with them. */
export async function confirmRewrites(): Promise<void> {
  const run = useEvalTransforms.getState().run;
  const gen = useGeneration.getState().generator;
  if (!run || run.state !== 'ready' || !gen || control) return;
  control = new RunControl();
  put({ state: 'writing', progress: null });
  try {
    const { settings } = useGeneration.getState();
    const out = await runRewrites(run.requests, pageReplyCache(), answerGeneratorOf(gen, REWRITE_SETTINGS).caller, { signal: control.signal, gate: control.gate, onProgress: (p) => put({ progress: p }), variants: settings.fusionVariants });
    if (out.cancelled) return put({ state: 'failed', error: 'cancelled: nothing was measured (the rewrites written are kept for next time)' });
    useEvalTransforms.setState({ run: null });
    await runEvaluation({ ...run.spec, transform: { transforms: run.transforms, tools: settings.tools, rewrites: Object.fromEntries(out.rewrites) } });
  } catch (e) {
    put({ state: 'failed', error: errorText(e) });
  } finally {
    control = null;
  }
}

export function cancelRewrites(): void {
  if (control) control.cancel();
  else useEvalTransforms.setState({ run: null });
}
