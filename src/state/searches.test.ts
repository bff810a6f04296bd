import { describe, expect, it } from 'vitest';
import { setLabClient } from './lab-client';
import { search } from './searches';
import { useResults, useView } from './stores';
import type { WorkerClient } from './worker-client';

/** A worker whose searches answer when the test says, recording what each asked for. */
function fakeWorker() {
  const asked: { topK: number; answer: () => void }[] = [];
  const client = {
    request: (_method: string, params: { params: { topK: number } }) => {
      let answer!: () => void;
      const promise = new Promise((resolve) => {
        answer = () => resolve({ columns: [], ms: params.params.topK });
      });
      asked.push({ topK: params.params.topK, answer });
      return { promise };
    },
  };
  setLabClient(client as unknown as WorkerClient);
  return asked;
}

const setTopK = (k: number) => useView.setState((s) => ({ view: { ...s.view, query: 'tea', retrieval: { ...s.view.retrieval, topK: k } } }));
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('one search in flight', () => {
  it('asks made meanwhile become one more search, with the values of when it starts; the page says searching until the last answers', async () => {
    const asked = fakeWorker();
    setTopK(1);
    const first = search();
    // A slider drag: three more values while the first search runs.
    setTopK(2);
    const second = search();
    setTopK(3);
    expect(search()).toBe(second);
    setTopK(4);
    void search();
    expect(asked.map((a) => a.topK)).toEqual([1]);
    asked[0]!.answer();
    await first;
    expect(useResults.getState()).toMatchObject({ ms: 1, searching: true });
    await tick();
    // The waiting search went with the last value only.
    expect(asked.map((a) => a.topK)).toEqual([1, 4]);
    asked[1]!.answer();
    await second;
    expect(useResults.getState()).toMatchObject({ ms: 4, searching: false });
    expect(asked).toHaveLength(2);
  });

  it('a waiting search that finds the question cleared leaves the page not searching', async () => {
    const asked = fakeWorker();
    setTopK(1);
    const first = search();
    setTopK(2);
    const second = search();
    useView.setState((s) => ({ view: { ...s.view, query: '  ' } }));
    asked[0]!.answer();
    await first;
    await second;
    expect(asked).toHaveLength(1);
    expect(useResults.getState().searching).toBe(false);
  });

  it('a search asked when none runs goes at once', async () => {
    const asked = fakeWorker();
    setTopK(7);
    const s = search();
    expect(asked.map((a) => a.topK)).toEqual([7]);
    asked[0]!.answer();
    await s;
    expect(useResults.getState()).toMatchObject({ ms: 7, searching: false });
  });
});

describe('columns that answer as before', () => {
  /** A worker that answers each search with what the test hands it, recording each request. */
  function scriptedWorker() {
    const requests: { held?: Record<string, number> }[] = [];
    const answers: unknown[] = [];
    const client = {
      request: (_method: string, params: { held?: Record<string, number> }) => {
        requests.push(params);
        return { promise: Promise.resolve(answers.shift()) };
      },
    };
    setLabClient(client as unknown as WorkerClient);
    return { requests, answers };
  }
  const column = (id: 'sentence' | 'window', answer: number, text: string) => ({
    column: { id, label: id, strategy: id, retriever: 'bm25', rerank: false },
    answer,
    result: { strategy: id, retriever: 'bm25', blocks: [{ id: `${id}:${text}`, text }], totalTokens: 1, candidates: 1, notes: [] },
  });
  const shown = () => useResults.getState().columns;

  it('the page names the answers it shows; a column the worker calls `same` keeps the very object it showed', async () => {
    useView.setState((s) => ({ view: { ...s.view, query: 'tea', columns: ['sentence', 'window'] } }));
    const w = scriptedWorker();
    w.answers.push({ columns: [column('sentence', 1, 'a'), column('window', 2, 'b')], ms: 1 });
    await search();
    // A new client has sent nothing yet: the first request names nothing.
    expect(w.requests[0]!.held).toBeUndefined();
    const [sentence, window] = shown();
    expect([sentence!.answer, window!.result.blocks[0]!.text]).toEqual([1, 'b']);

    w.answers.push({ columns: [column('window', 3, 'c')], same: ['sentence'], ms: 1 });
    await search();
    expect(w.requests[1]!.held).toEqual({ sentence: 1, window: 2 });
    // React sees the same object and leaves the column as it is; the other column is the new answer.
    expect(shown()[0]).toBe(sentence);
    expect(shown().map((c) => c.result.blocks[0]!.text)).toEqual(['a', 'c']);

    w.answers.push({ columns: [], same: ['sentence', 'window'], ms: 1 });
    await search();
    expect(w.requests[2]!.held).toEqual({ sentence: 1, window: 3 });
    expect(shown().map((c) => c.result.blocks[0]!.text)).toEqual(['a', 'c']);

    // A restarted worker numbers its answers anew: nothing is named to it.
    const next = scriptedWorker();
    next.answers.push({ columns: [column('sentence', 1, 'x'), column('window', 2, 'y')], ms: 1 });
    await search();
    expect(next.requests[0]!.held).toBeUndefined();
    expect(shown().map((c) => c.result.blocks[0]!.text)).toEqual(['x', 'y']);
  });
});
