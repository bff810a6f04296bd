import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeLabClient, type FakeRequest } from '../../state/fake-lab-client';
import { search } from '../../state/searches';
import { useResults, useView } from '../../state/stores';
import { afterNextPaint } from './text-head';

// Node has no frames: a frame is the next macrotask here.
const raf = globalThis.requestAnimationFrame;
beforeAll(() => {
  globalThis.requestAnimationFrame = ((cb: FrameRequestCallback) => setTimeout(() => cb(0), 0)) as unknown as typeof requestAnimationFrame;
});
afterAll(() => {
  globalThis.requestAnimationFrame = raf;
});
const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 1));
};

/** A fake lab worker (answering when the test says) and a question to search. */
function heldWorker(): FakeRequest[] {
  const asked = fakeLabClient();
  useView.setState((s) => ({ view: { ...s.view, query: 'tea' } }));
  return asked;
}

describe('the rests of long block texts', () => {
  it('join after the next paint, all in one task, also while a search runs that nothing waits for', async () => {
    const answers = heldWorker();
    // A new question: its first columns are shown while the worker searches the others.
    const running = search();
    expect(useResults.getState().searching).toBe(true);
    const ran: string[] = [];
    afterNextPaint(() => ran.push('a'));
    afterNextPaint(() => ran.push('b'));
    expect(ran).toEqual([]);
    await frames(3);
    expect(ran).toEqual(['a', 'b']);
    answers[0]!.answer();
    await running;
  });

  it('wait while a search waits for the one running (a drag: the next answer replaces them), and join after the last', async () => {
    const answers = heldWorker();
    const first = search();
    const next = search();
    const ran: string[] = [];
    afterNextPaint(() => ran.push('kept'));
    const cancel = afterNextPaint(() => ran.push('replaced'));
    await frames(5);
    expect(ran).toEqual([]);
    // The next answer replaced that block: its rest is not drawn.
    cancel();
    answers[0]!.answer();
    await first;
    await frames(5);
    // The waiting search runs now; nothing waits for it, but until it answers the rests still wait.
    expect(ran).toEqual([]);
    expect(answers).toHaveLength(2);
    // The last answer changed nothing else (its columns were the same): what still waits joins after the next paint.
    answers[1]!.answer();
    await next;
    expect(useResults.getState().searching).toBe(false);
    await frames(3);
    expect(ran).toEqual(['kept']);
    afterNextPaint(() => ran.push('later'));
    await frames(3);
    expect(ran).toEqual(['kept', 'later']);
  });
});
