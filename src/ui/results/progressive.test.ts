import { describe, expect, it } from 'vitest';
import { BLOCKS_PER_FRAME, FIRST_BLOCKS, keptTail, nextShown } from './progressive';

describe('a long column is painted in chunks', () => {
  it('12 blocks with the answer, then 24 a frame: 100 blocks in 5 frames', () => {
    expect([FIRST_BLOCKS, BLOCKS_PER_FRAME]).toEqual([12, 24]);
    const frames = [FIRST_BLOCKS];
    while (frames.at(-1)! < 100) frames.push(nextShown(frames.at(-1)!, 100));
    expect(frames).toEqual([12, 36, 60, 84, 100]);
  });

  it('keeps the last answer’s articles past those drawn, never more than the new answer has', () => {
    // 100 articles held, a new answer of 100 draws 6: all 100 stay (94 of them the last answer's for now).
    expect(keptTail(6, 100, 100)).toBe(100);
    // A shorter answer: its 40 places only.
    expect(keptTail(6, 40, 100)).toBe(40);
    // Nothing held before (the first answer): only what is drawn.
    expect(keptTail(6, 100, 0)).toBe(6);
    // Drawn past what was held.
    expect(keptTail(30, 100, 12)).toBe(30);
  });
});
