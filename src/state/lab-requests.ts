/**
 * Requests to the worker that need nothing of the controller but the worker itself: where
 * sentences lie (compare mode) and the evaluation lab's import, run and drill-down. Moved out
 * of controller.ts to keep it small; the controller re-exports them.
 */
import { RpcError } from '../rpc/wire';
import type { EvalPointQuery, EvalRunSpec } from '../worker/protocol';
import { errorText } from './messages';
import { useCorpus, useEval, useView } from './stores';
import type { Pending, WorkerClient } from './worker-client';

export interface SentenceSpan {
  /** Character span in its document. */
  start: number;
  end: number;
  tokens: number;
}

/** The requests, bound to the lab's worker (`worker` throws before the lab has started). */
export function labRequests(worker: () => WorkerClient) {
  let spanCache = new Map<number, SentenceSpan>();
  let spanCorpus = '';

  /**
   * Where sentences lie in their documents and their token counts, by global index (compare
   * mode marks them inside blocks). Asked of the worker once per sentence and corpus state.
   */
  async function sentenceSpans(indices: readonly number[]): Promise<Map<number, SentenceSpan>> {
    const status = useCorpus.getState().status;
    const corpus = JSON.stringify([status?.docs.map((d) => [d.id, d.sentences]), status?.structure]);
    if (corpus !== spanCorpus) {
      spanCorpus = corpus;
      spanCache = new Map();
    }
    const cache = spanCache;
    const missing = [...new Set(indices)].filter((i) => !cache.has(i));
    await Promise.all(
      missing.map(async (index) => {
        // An empty query: no query embedding, just the sentence.
        const p = await worker().request('mapPoint', { index, query: '' }).promise;
        cache.set(index, { start: p.start, end: p.end, tokens: p.tokens });
      }),
    );
    return new Map(indices.filter((i) => cache.has(i)).map((i) => [i, cache.get(i)!]));
  }

  let evalRun: Pending<unknown> | null = null;

  /** Imports a labelled set (SQuAD .json, BEIR files, or JSONL/CSV); sets with documents replace the corpus. */
  async function importEvalSet(files: File[]): Promise<void> {
    if (!files.length) return;
    const payload = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: await f.arrayBuffer() })));
    useEval.setState({ importError: null });
    try {
      const set = await worker().request('evalImport', { files: payload }, { transfer: payload.map((p) => p.bytes) }).promise;
      useEval.setState({ set, result: null, question: null });
    } catch (e) {
      useEval.setState({ importError: errorText(e) });
    }
  }

  /** Runs the chosen sweep with progress; cancellable. */
  async function runEvaluation(spec: Omit<EvalRunSpec, 'current'>): Promise<void> {
    const current = useView.getState().view.retrieval;
    useEval.setState({ running: true, progress: null, runError: null, question: null });
    const pending = worker().request('evalRun', { spec: { ...spec, current } }, { onProgress: (p) => useEval.setState({ progress: p }) });
    evalRun = pending;
    try {
      const result = await pending.promise;
      useEval.setState({ result });
    } catch (e) {
      useEval.setState({ runError: e instanceof RpcError && e.cancelled ? 'The run was cancelled.' : errorText(e) });
    } finally {
      evalRun = null;
      useEval.setState({ running: false, progress: null });
    }
  }

  function cancelEvaluation(): void {
    void evalRun?.cancel();
  }

  /** Replays one question at the given points (the drill-down). */
  async function openEvalQuestion(questionId: string, points: EvalPointQuery[]): Promise<void> {
    const question = await worker().request('evalQuestion', { questionId, points }).promise;
    useEval.setState({ question });
  }

  function closeEvalQuestion(): void {
    useEval.setState({ question: null });
  }

  return { sentenceSpans, importEvalSet, runEvaluation, cancelEvaluation, openEvalQuestion, closeEvalQuestion };
}
