import { describe, expect, it } from 'vitest';
import { BLOCK_CHROME_REM, BLOCK_GAP_REM, BLOCK_MAX_REM, COLUMN_CHROME_REM, estimateBlockRem, estimateColumnRem, estimateLines, fullWithAnswer, headChars, headPieces, isLongColumn, LINE_REM, LONG_COLUMN_CHARS, NEAR_FRACTION, nearReachRem } from './windowing';
import { NEAR_MARGIN } from './near-viewport';
import { spanInSight } from './strip-sight';

const block = (chars: number, header?: string) => ({ text: 'x'.repeat(chars), ...(header ? { header } : {}) });

describe('which columns are windowed', () => {
  it('those past 8,000 characters, headers counted, however many blocks they have', () => {
    expect(LONG_COLUMN_CHARS).toBe(8_000);
    // 40 one-sentence hits: drawn whole.
    expect(isLongColumn(Array.from({ length: 40 }, () => block(100)))).toBe(false);
    expect(isLongColumn(Array.from({ length: 8 }, () => block(1_000)))).toBe(false);
    expect(isLongColumn([...Array.from({ length: 7 }, () => block(1_000)), block(1_000, 'h')])).toBe(true);
    expect(isLongColumn([block(8_001)])).toBe(true);
    expect(isLongColumn([])).toBe(false);
  });
});

describe('a light block holds the place of the full one', () => {
  it('counts each paragraph on its own lines of 40 characters', () => {
    expect(estimateLines('')).toBe(1);
    expect(estimateLines('x'.repeat(40))).toBe(1);
    expect(estimateLines('x'.repeat(41))).toBe(2);
    expect(estimateLines(`${'x'.repeat(80)}\n\n${'y'.repeat(3)}`)).toBe(4);
  });
  it('is the lines around the text plus its lines, at most a full block’s max height', () => {
    expect(estimateBlockRem(block(40))).toBe(Math.round((BLOCK_CHROME_REM + LINE_REM) * 100) / 100);
    expect(estimateBlockRem(block(120))).toBe(10.33); // 6.5 + 3 × 1.276
    expect(estimateBlockRem(block(120, 'Doc › Section'))).toBe(11.6); // 6.5 + 4 × 1.276: the header's line too
    expect(estimateBlockRem(block(5_000))).toBe(BLOCK_MAX_REM);
  });
});

describe('a long column out of sight holds its place', () => {
  it('its chrome plus each block’s estimate and the gap after it', () => {
    expect([COLUMN_CHROME_REM, BLOCK_GAP_REM]).toEqual([5, 0.5]);
    expect(estimateColumnRem([])).toBe(5);
    // 5 + (10.33 + 0.5) + (30 + 0.5)
    expect(estimateColumnRem([block(120), block(5_000)])).toBe(46.33);
    expect(estimateColumnRem(Array.from({ length: 100 }, () => block(5_000)))).toBe(3055);
  });
});

describe('blocks drawn in full with the answer', () => {
  it('as many as the window’s height shows, the one crossing its bottom edge included', () => {
    // 30rem blocks in a 62.5rem (1000 px) window: 30, 60, then the third crosses the edge.
    expect(fullWithAnswer(Array.from({ length: 100 }, () => block(5_000)), 62.5)).toBe(3);
    // 10.33rem blocks: 6 make 61.98rem, the 7th crosses.
    expect(fullWithAnswer(Array.from({ length: 100 }, () => block(120)), 62.5)).toBe(7);
  });
  it('those near the window too (half a screen below it), which the first paint lays out anyway', () => {
    expect(NEAR_FRACTION).toBe(0.5);
    expect(NEAR_MARGIN).toBe('50% 0px');
    expect(nearReachRem(62.5)).toBe(93.75);
    // 30rem blocks: 30, 60, 90, then the fourth crosses 93.75rem.
    expect(fullWithAnswer(Array.from({ length: 100 }, () => block(5_000)), nearReachRem(62.5))).toBe(4);
  });
  it('none in a column scrolled out of sight sideways: it turns full when scrolled to', () => {
    expect(fullWithAnswer(Array.from({ length: 100 }, () => block(5_000)), 62.5, false)).toBe(0);
  });
  it('at least one, and never more than the column has', () => {
    expect(fullWithAnswer([block(5_000)], 0)).toBe(1);
    expect(fullWithAnswer([block(10), block(10)], 500)).toBe(2);
    expect(fullWithAnswer([], 500)).toBe(0);
  });
});

describe('a column in sight sideways', () => {
  it('overlaps the strip’s visible width, edges excluded; unmeasured counts as in sight', () => {
    expect(spanInSight([0, 300], 0, 1000)).toBe(true);
    expect(spanInSight([1000, 1300], 0, 1000)).toBe(false);
    expect(spanInSight([990, 1300], 0, 1000)).toBe(true);
    expect(spanInSight([0, 300], 300, 1000)).toBe(false);
    expect(spanInSight([1000, 1300], 400, 1000)).toBe(true);
    expect(spanInSight(undefined, 0, 1000)).toBe(true);
    expect(spanInSight([5000, 5300], 0, 0)).toBe(true);
  });
});

describe('the head of a full block drawn with the first paint', () => {
  it('holds the characters a column of that width shows in a full block, with a quarter more', () => {
    // 30rem of lines of 1.276rem: 24 lines; a 19rem column has 18rem of text line: 24 × 18 × 1.25 / 0.4 = 1,350.
    expect(headChars(19)).toBe(1350);
    expect(headChars(41)).toBe(3000);
    // Never nothing, however narrow the measure.
    expect(headChars(0)).toBe(75);
  });

  it('cuts pieces after that many characters, the last one split, hits kept as they are', () => {
    const pieces = [
      { text: 'abc', hit: false },
      { text: 'defg', hit: true },
      { text: 'hij', hit: false },
    ];
    expect(headPieces(pieces, 5)).toEqual([
      { text: 'abc', hit: false },
      { text: 'de', hit: true },
    ]);
    expect(headPieces(pieces, 7)).toEqual(pieces.slice(0, 2));
    expect(headPieces(pieces, 99)).toEqual(pieces);
    // An emoji (two UTF-16 units) is never cut in half.
    expect(headPieces([{ text: 'a😀b', hit: false }], 2)).toEqual([{ text: 'a😀', hit: false }]);
  });

  it('a block is measured once per answer: the same object gives the same height without counting its text again', () => {
    const b = { text: 'x'.repeat(400) };
    expect(estimateBlockRem(b)).toBe(Math.round((BLOCK_CHROME_REM + 10 * LINE_REM) * 100) / 100);
    b.text = '';
    expect(estimateBlockRem(b)).toBe(Math.round((BLOCK_CHROME_REM + 10 * LINE_REM) * 100) / 100);
  });
});
