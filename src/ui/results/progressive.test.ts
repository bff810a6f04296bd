import { describe, expect, it } from 'vitest';
import { BLOCKS_PER_FRAME, FIRST_BLOCKS, nextShown } from './progressive';

describe('a long column is painted in chunks', () => {
  it('12 blocks with the answer, then 24 a frame: 100 blocks in 5 frames', () => {
    expect([FIRST_BLOCKS, BLOCKS_PER_FRAME]).toEqual([12, 24]);
    const frames = [FIRST_BLOCKS];
    while (frames.at(-1)! < 100) frames.push(nextShown(frames.at(-1)!, 100));
    expect(frames).toEqual([12, 36, 60, 84, 100]);
  });
});
