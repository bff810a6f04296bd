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
