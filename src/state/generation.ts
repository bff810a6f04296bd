/**
 * Generation: the chosen generator, the prompt assembled from a strategy's blocks (visible,
 * editable), and the streamed answers — one per compared strategy. Settings and how they are
 * kept: generation-settings.ts.
 */
import { create } from 'zustand';
import type { AssembledPrompt, PromptBlock, PromptSource } from '../core/generate/prompt';
import type { ChatMessage, GenerationErrorKind } from '../core/generate/openai';
import { GENERATOR_MODELS, TEST_GENERATOR_ID } from '../core/generate/generator-models';
import type { BlockView, ColumnId, ColumnResult, ColumnSpec } from '../worker/protocol';
import { EndpointGenerator, GenerationWorkerClient, LocalGeneratorProxy, type Generator } from './generators';
import { errorText } from './messages';
import { useResults, useView } from './stores';
import { loadSettings, saveSettings, type GenerationSettings } from './generation-settings';

export { defaultSettings, type GenerationSettings } from './generation-settings';

export type Side = 'a' | 'b';
export const SIDES: Side[] = ['a', 'b'];

export interface PromptState {
  column: ColumnSpec;
  question: string;
  assembled: AssembledPrompt | null;
  system: string;
  user: string;
  /** The user changed the text: a new retrieval no longer replaces it. */
  edited: boolean;
  /** The retrieval changed after the user's edit. */
  stale: boolean;
  tokens: number | null;
  error: string | null;
  /** The blocks the sources point to, kept so citations still open them after a new search. */
  blocks: BlockView[];
}

export interface AnswerState {
  column: ColumnSpec;
  generator: string;
  text: string;
  streaming: boolean;
  stopped: boolean;
  finishReason: string | null;
  error: { message: string; kind: GenerationErrorKind | 'other' } | null;
  sources: PromptSource[];
  blocks: BlockView[];
  ms: number;
  pieces: number;
  usage?: { promptTokens: number; completionTokens: number };
}

export interface LocalModelState {
  state: 'none' | 'loading' | 'ready' | 'failed';
  model?: string;
  error?: string;
  files: Record<string, { loaded: number; total: number }>;
}

interface GenerationStore {
  settings: GenerationSettings;
  generator: Generator | null;
  local: LocalModelState;
  prompts: Partial<Record<Side, PromptState>>;
  answers: Partial<Record<Side, AnswerState>>;
}

function endpointGenerator(s: GenerationSettings): Generator | null {
  return s.endpoint.baseUrl.trim() && s.endpoint.model.trim() ? new EndpointGenerator({ baseUrl: s.endpoint.baseUrl, model: s.endpoint.model, apiKey: s.endpoint.apiKey }, s.endpoint.contextTokens) : null;
}

const initial = loadSettings();

export const useGeneration = create<GenerationStore>(() => ({
  settings: initial,
  // An endpoint is ready at once; an in-browser model waits for the user to load it (a download).
  generator: initial.kind === 'endpoint' ? endpointGenerator(initial) : null,
  local: { state: 'none', files: {} },
  prompts: {},
  answers: {},
}));

let client: GenerationWorkerClient | null = null;

/** The generation worker's client, made on first use (its worker starts with the first request). */
function generationWorker(): GenerationWorkerClient {
  if (client) return client;
  client = new GenerationWorkerClient();
  // The model went away (stopped by unloading, a crash, out of memory): say so where it was loaded.
  client.onUnload((reason) => {
    const { local, generator } = useGeneration.getState();
    if (local.state === 'none') return;
    useGeneration.setState({ local: { state: 'failed', ...(local.model ? { model: local.model } : {}), error: reason, files: {} }, generator: generator instanceof LocalGeneratorProxy ? null : generator });
  });
  return client;
}

/** Ends the in-browser model's worker, if one was started. */
function unloadLocal(): void {
  client?.terminate();
}
const controllers = new Set<AbortController>();
/** Bumped by Stop, so a queued second answer does not start after it. */
let answerSeq = 0;

/** Changes settings; switching generators drops the other one (an in-browser model is unloaded). */
export function setGenerationSettings(change: (s: GenerationSettings) => void): void {
  const before = useGeneration.getState().settings;
  const settings = structuredClone(before);
  change(settings);
  saveSettings(settings);
  const st = useGeneration.getState();
  let generator = st.generator;
  let local = st.local;
  if (settings.kind === 'endpoint') {
    if (st.local.state !== 'none') unloadLocal();
    local = { state: 'none', files: {} };
    generator = endpointGenerator(settings);
  } else if (settings.kind === 'local') {
    const same = JSON.stringify(settings.local) === JSON.stringify(before.local) && before.kind === 'local';
    if (!same) {
      if (st.local.state !== 'none') unloadLocal();
      local = { state: 'none', files: {} };
      generator = null;
    }
  } else {
    if (st.local.state !== 'none') unloadLocal();
    local = { state: 'none', files: {} };
    generator = null;
  }
  useGeneration.setState({ settings, generator, local });
  void assemblePrompts();
}

/** Downloads (or reads from the browser cache) and starts the chosen in-browser model. */
export async function loadLocalModel(threads = Math.min(4, navigator.hardwareConcurrency || 1)): Promise<void> {
  const { settings } = useGeneration.getState();
  const choice = settings.local;
  useGeneration.setState({ generator: null, local: { state: 'loading', model: choice.model, files: {} } });
  try {
    const gen = await LocalGeneratorProxy.load(generationWorker(), choice, threads, (p) => {
      if (p.kind !== 'load' || !p.file || p.total === undefined) return;
      const cur = useGeneration.getState().local;
      useGeneration.setState({ local: { ...cur, files: { ...cur.files, [p.file]: { loaded: p.loaded ?? 0, total: p.total } } } });
    });
    // Another choice was made meanwhile: this one is no longer wanted.
    if (JSON.stringify(useGeneration.getState().settings.local) !== JSON.stringify(choice)) return;
    useGeneration.setState({ generator: gen, local: { ...useGeneration.getState().local, state: 'ready' } });
    void assemblePrompts();
  } catch (e) {
    useGeneration.setState({ local: { ...useGeneration.getState().local, state: 'failed', error: errorText(e) } });
  }
}

export function isTestGenerator(id: string): boolean {
  return id === TEST_GENERATOR_ID || GENERATOR_MODELS.some((m) => m.id === id && m.testModel);
}

// ---- prompts ----------------------------------------------------------------------------

function promptBlock(b: BlockView): PromptBlock {
  return {
    id: b.id,
    text: b.text,
    docTitle: b.docTitle,
    sectionPath: b.sectionPath,
    ...(b.header ? { header: b.header } : {}),
    ...(b.pageStart !== undefined ? { pageStart: b.pageStart } : {}),
    ...(b.pageEnd !== undefined ? { pageEnd: b.pageEnd } : {}),
  };
}

function activeSides(s: GenerationSettings): [Side, ColumnId][] {
  return s.columnB && s.columnB !== s.columnA ? [['a', s.columnA], ['b', s.columnB]] : [['a', s.columnA]];
}

let assembleSeq = 0;

/**
 * Builds each compared strategy's prompt from the current results. A prompt the user edited
 * is kept (and marked stale when the retrieval changed under it).
 */
export async function assemblePrompts(): Promise<void> {
  const seq = ++assembleSeq;
  const { settings, generator, prompts } = useGeneration.getState();
  const { columns } = useResults.getState();
  const question = useView.getState().view.query.trim();
  const next: Partial<Record<Side, PromptState>> = {};
  for (const [side, id] of activeSides(settings)) {
    const col: ColumnResult | undefined = columns.find((c) => c.column.id === id);
    const prev = prompts[side];
    if (!col) continue;
    const blocks = col.result.blocks;
    const sameRetrieval = prev && prev.column.id === id && prev.question === question && prev.blocks.map((b) => b.id).join() === blocks.map((b) => b.id).join();
    if (prev?.edited && prev.column.id === id) {
      next[side] = { ...prev, stale: prev.stale || !sameRetrieval };
      continue;
    }
    const base: PromptState = { column: col.column, question, assembled: null, system: '', user: '', edited: false, stale: false, tokens: null, error: null, blocks };
    if (!generator) {
      const need = settings.kind === 'local' ? 'Load the in-browser model' : settings.kind === 'endpoint' ? 'Set the endpoint’s base URL and model' : 'Choose a generator';
      next[side] = { ...base, error: `${need} to see the exact prompt: the model’s context limit and tokenizer decide which blocks fit.` };
      continue;
    }
    try {
      const assembled = await generator.assemble(question, blocks.map(promptBlock), { answerTokens: settings.answerTokens, headers: settings.headers });
      next[side] = { ...base, assembled, system: assembled.system, user: assembled.user, tokens: await generator.count(messages(assembled.system, assembled.user)) };
    } catch (e) {
      next[side] = { ...base, error: (e as Error).message };
    }
  }
  if (seq === assembleSeq) useGeneration.setState({ prompts: next });
}

function messages(system: string, user: string): ChatMessage[] {
  return system.trim() ? [{ role: 'system', content: system }, { role: 'user', content: user }] : [{ role: 'user', content: user }];
}

let countTimer: ReturnType<typeof setTimeout> | null = null;

/** The user edits the prompt: it is kept as typed, and recounted shortly after. */
export function editPrompt(side: Side, change: { system?: string; user?: string }): void {
  const p = useGeneration.getState().prompts[side];
  if (!p) return;
  useGeneration.setState((st) => ({ prompts: { ...st.prompts, [side]: { ...p, ...change, edited: true } } }));
  if (countTimer) clearTimeout(countTimer);
  countTimer = setTimeout(() => {
    const { generator, prompts } = useGeneration.getState();
    const cur = prompts[side];
    if (!generator || !cur) return;
    void generator.count(messages(cur.system, cur.user)).then((tokens) => {
      const now = useGeneration.getState().prompts[side];
      if (now && now.system === cur.system && now.user === cur.user) useGeneration.setState((st) => ({ prompts: { ...st.prompts, [side]: { ...now, tokens } } }));
    });
  }, 250);
}

/** Drops the user's edit and assembles again from the current retrieval. */
export function resetPrompt(side: Side): void {
  const p = useGeneration.getState().prompts[side];
  if (!p) return;
  useGeneration.setState((st) => ({ prompts: { ...st.prompts, [side]: { ...p, edited: false } } }));
  void assemblePrompts();
}

export function promptMessages(p: PromptState): ChatMessage[] {
  return messages(p.system, p.user);
}

// ---- answers ------------------------------------------------------------------------------

/** Answers from each compared strategy's prompt, streamed; an in-browser model answers one at a time. */
export async function generateAnswers(): Promise<void> {
  const { generator, prompts, settings } = useGeneration.getState();
  if (!generator) return;
  stopAnswers();
  const seq = answerSeq;
  const jobs = activeSides(settings)
    .map(([side]) => [side, prompts[side]] as const)
    .filter((x): x is readonly [Side, PromptState] => !!x[1] && !x[1].error);
  const run = async (side: Side, p: PromptState) => {
    const controller = new AbortController();
    controllers.add(controller);
    const t0 = performance.now();
    const answer: AnswerState = {
      column: p.column,
      generator: generator.label,
      text: '',
      streaming: true,
      stopped: false,
      finishReason: null,
      error: null,
      sources: p.assembled?.sources ?? [],
      blocks: p.blocks,
      ms: 0,
      pieces: 0,
    };
    const put = (a: Partial<AnswerState>) => useGeneration.setState((st) => ({ answers: { ...st.answers, [side]: { ...st.answers[side]!, ...a } } }));
    useGeneration.setState((st) => ({ answers: { ...st.answers, [side]: answer } }));
    try {
      const r = await generator.stream(promptMessages(p), {
        signal: controller.signal,
        maxTokens: settings.answerTokens,
        temperature: settings.temperature,
        onToken: (t) => {
          const cur = useGeneration.getState().answers[side]!;
          put({ text: cur.text + t, pieces: cur.pieces + 1, ms: performance.now() - t0 });
        },
      });
      put({ text: r.text, streaming: false, stopped: r.stopped, finishReason: r.finishReason, ms: performance.now() - t0, ...(r.usage ? { usage: r.usage } : {}) });
    } catch (e) {
      const err = e as { message?: string; kind?: GenerationErrorKind };
      put({ streaming: false, error: { message: err.message ?? String(e), kind: err.kind ?? 'other' }, ms: performance.now() - t0 });
    } finally {
      controllers.delete(controller);
    }
  };
  if (generator instanceof LocalGeneratorProxy) {
    for (const [side, p] of jobs) if (seq === answerSeq) await run(side, p);
  }
  else await Promise.all(jobs.map(([side, p]) => run(side, p)));
}

export function stopAnswers(): void {
  answerSeq++;
  for (const c of controllers) c.abort();
  controllers.clear();
}

export function clearAnswers(): void {
  useGeneration.setState({ answers: {} });
}

// Prompts follow the retrieval: a new search re-assembles them.
useResults.subscribe((s, prev) => {
  if (s.columns !== prev.columns) void assemblePrompts();
});
