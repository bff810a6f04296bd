import { describe, expect, it } from 'vitest';
import { fakeLabClient, type FakeRequest } from './fake-lab-client';
import { search } from './searches';
import { useResults, useView } from './stores';

/** Answers a search as the worker would, its time being the top-k it asked for (to tell the answers apart). */
const answerTopK = (r: FakeRequest) => r.answer({ columns: [], ms: r.params.params.topK });

const setTopK = (k: number) => useView.setState((s) => ({ view: { ...s.view, query: 'tea', retrieval: { ...s.view.retrieval, topK: k } } }));
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('one search in flight', () => {
  it('asks made meanwhile become one more search, with the values of when it starts; the page says searching until the last answers', async () => {
    const asked = fakeLabClient();
    setTopK(1);
    const first = search();
    // A slider drag: three more values while the first search runs.
    setTopK(2);
    const second = search();
    setTopK(3);
    expect(search()).toBe(second);
    setTopK(4);
    void search();
    expect(asked.map((a) => a.params.params.topK)).toEqual([1]);
    answerTopK(asked[0]!);
    await first;
    expect(useResults.getState()).toMatchObject({ ms: 1, searching: true });
    await tick();
    // The waiting search went with the last value only.
    expect(asked.map((a) => a.params.params.topK)).toEqual([1, 4]);
    answerTopK(asked[1]!);
    await second;
    expect(useResults.getState()).toMatchObject({ ms: 4, searching: false });
    expect(asked).toHaveLength(2);
  });

  it('a waiting search that finds the question cleared leaves the page not searching', async () => {
    const asked = fakeLabClient();
    setTopK(1);
    const first = search();
    setTopK(2);
    const second = search();
    useView.setState((s) => ({ view: { ...s.view, query: '  ' } }));
    answerTopK(asked[0]!);
    await first;
    await second;
    expect(asked).toHaveLength(1);
    expect(useResults.getState().searching).toBe(false);
  });

  it('a search asked when none runs goes at once', async () => {
    const asked = fakeLabClient();
    setTopK(7);
    const s = search();
    expect(asked.map((a) => a.params.params.topK)).toEqual([7]);
    answerTopK(asked[0]!);
    await s;
    expect(useResults.getState()).toMatchObject({ ms: 7, searching: false });
  });
});

describe('columns that answer as before', () => {
  const column = (id: 'sentence' | 'window', answer: number, text: string) => ({
    column: { id, label: id, strategy: id, retriever: 'bm25', rerank: false },
    answer,
    result: { strategy: id, retriever: 'bm25', blocks: [{ id: `${id}:${text}`, text }], totalTokens: 1, candidates: 1, notes: [] },
  });
  const shown = () => useResults.getState().columns;

  it('the page names the answers it shows; a column the worker calls `same` keeps the very object it showed', async () => {
    useView.setState((s) => ({ view: { ...s.view, query: 'tea', columns: ['sentence', 'window'] } }));
    const asked = fakeLabClient();
    /** One search, answered with `result`. */
    const searched = async (result: unknown) => {
      const s = search();
      asked.at(-1)!.answer(result);
      await s;
    };
    await searched({ columns: [column('sentence', 1, 'a'), column('window', 2, 'b')], ms: 1 });
    // A new client has sent nothing yet: the first request names nothing.
    expect(asked[0]!.params.held).toBeUndefined();
    const [sentence, window] = shown();
    expect([sentence!.answer, window!.result.blocks[0]!.text]).toEqual([1, 'b']);

    await searched({ columns: [column('window', 3, 'c')], same: ['sentence'], ms: 1 });
    expect(asked[1]!.params.held).toEqual({ sentence: 1, window: 2 });
    // React sees the same object and leaves the column as it is; the other column is the new answer.
    expect(shown()[0]).toBe(sentence);
    expect(shown().map((c) => c.result.blocks[0]!.text)).toEqual(['a', 'c']);

    await searched({ columns: [], same: ['sentence', 'window'], ms: 1 });
    expect(asked[2]!.params.held).toEqual({ sentence: 1, window: 3 });
    expect(shown().map((c) => c.result.blocks[0]!.text)).toEqual(['a', 'c']);

    // A restarted worker numbers its answers anew: nothing is named to it.
    const next = fakeLabClient();
    const s = search();
    next[0]!.answer({ columns: [column('sentence', 1, 'x'), column('window', 2, 'y')], ms: 1 });
    await s;
    expect(next[0]!.params.held).toBeUndefined();
    expect(shown().map((c) => c.result.blocks[0]!.text)).toEqual(['x', 'y']);
  });
});
