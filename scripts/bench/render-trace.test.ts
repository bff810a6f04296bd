import { describe, expect, it } from 'vitest';
import { firstPaints } from './render-trace';

const MAIN = { pid: 1, tid: 1 };
const slice = (name: string, ts: number, dur: number, args?: object) => ({ name, ph: 'X', ts: ts * 1000, dur: dur * 1000, ...MAIN, ...(args ? { args } : {}) });

describe('the first paint of each answer, read from a Chromium trace', () => {
  it('times the answer message, its handling, the end of the next paint and the layout between, from each Enter', () => {
    const events = [
      { name: 'thread_name', ph: 'M', ts: 0, ...MAIN, args: { name: 'CrRendererMain' } },
      { name: 'thread_name', ph: 'M', ts: 0, pid: 1, tid: 2, args: { name: 'DedicatedWorker thread' } },
      slice('EventDispatch', 100, 5, { data: { type: 'keydown' } }),
      slice('Paint', 120, 3), // the "searching" frame, before the answer: not it
      slice('HandlePostMessage', 130, 2), // a progress status: too short to be the answer
      slice('HandlePostMessage', 160, 40),
      slice('Layout', 205, 20),
      slice('Layout', 240, 4),
      slice('Paint', 250, 10),
      slice('Layout', 300, 50), // after the first paint: not counted
      // The worker's slices are not the page's.
      { name: 'HandlePostMessage', ph: 'X', ts: 110_000, dur: 60_000, pid: 1, tid: 2 },
      // An Enter whose answer never came is left out.
      slice('EventDispatch', 900, 5, { data: { type: 'keydown' } }),
    ];
    expect(firstPaints(events)).toEqual([{ answerAt: 60, handleMs: 40, paintedAt: 160, layoutMs: 24 }]);
  });
});
