import { describe, expect, it } from 'vitest';
import { perFrame } from './frame-coalesce';

describe('slider moves as the page runs them', () => {
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
});
