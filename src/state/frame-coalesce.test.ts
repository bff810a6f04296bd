import { describe, expect, it } from 'vitest';
import { perFrame } from './frame-coalesce';
import { markRemoving, doneRemoving, withoutRemoving } from './pending-removals';

describe('slider moves and removals as the page shows them', () => {
  it('many calls in one frame run the work once, and a call after it runs it again', async () => {
    let runs = 0;
    const run = perFrame(() => runs++);
    for (let i = 0; i < 250; i++) run();
    expect(runs).toBe(0);
    await new Promise((r) => setTimeout(r, 40));
    expect(runs).toBe(1);
    run();
    await new Promise((r) => setTimeout(r, 40));
    expect(runs).toBe(2);
  });

  it('a document being removed is left out of every status until the worker confirms', () => {
    const status = { docs: [{ id: 'a' }, { id: 'b' }] };
    expect(withoutRemoving(status)).toBe(status);
    markRemoving('a');
    expect(withoutRemoving(status).docs).toEqual([{ id: 'b' }]);
    doneRemoving('a');
    expect(withoutRemoving(status).docs).toEqual([{ id: 'a' }, { id: 'b' }]);
  });
});
