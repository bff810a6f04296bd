import { describe, expect, it } from 'vitest';
import { RunControl } from './run-control';

/** Settles within a few ticks? (the gate is a promise the driver awaits) */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('RunControl', () => {
  it('the gate is open until paused, holds while paused and opens on resume', async () => {
    const run = new RunControl();
    expect(await settled(run.gate())).toBe(true);
    expect(run.setPaused(true)).toBe(true);
    expect(run.setPaused(true)).toBe(false);
    const held = run.gate();
    expect(await settled(held)).toBe(false);
    expect(run.setPaused(false)).toBe(true);
    expect(await settled(held)).toBe(true);
    expect(run.setPaused(false)).toBe(false);
  });

  it('cancel aborts the signal and opens a paused gate; a cancelled run cannot be paused again', async () => {
    const run = new RunControl();
    run.setPaused(true);
    const held = run.gate();
    run.cancel();
    expect(run.signal.aborted).toBe(true);
    expect(await settled(held)).toBe(true);
    expect(run.isPaused).toBe(false);
    expect(run.setPaused(true)).toBe(false);
  });
});
