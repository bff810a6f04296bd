/**
 * Which blocks of a column are drawn in full (text with its hits marked, score, provenance,
 * Mark answer) and which as light blocks (source line and plain text, skipped by layout while
 * off-screen). Pure: no React, no DOM (unit-tested in Node).
 *
 * A short column is drawn in full with its answer. A long one (top-k 100 with windows of ten
 * sentences is over 100,000 characters) draws in full only what the window can show; the rest are
 * light blocks whose text stays in the page, so find-in-page and screen readers still reach it,
 * and a light block turns full when it comes near the viewport (near-viewport.ts).
 */

/** A column with more characters than this (about four screens of a narrow column) is drawn windowed. */
export const LONG_COLUMN_CHARS = 8_000;

/** Block layout in rem (results.css): a full block's max height, a text line, and the lines around the text. */
export const BLOCK_MAX_REM = 30;
export const LINE_REM = 0.88 * 1.45;
export const BLOCK_CHROME_REM = 6.5;
/** Characters on a line of a 19rem column (its narrowest) at the blocks' font size. */
export const CHARS_PER_LINE = 40;

interface Sized {
  text: string;
  header?: string;
}

export function isLongColumn(blocks: readonly Sized[]): boolean {
  let chars = 0;
  for (const b of blocks) if ((chars += b.text.length + (b.header?.length ?? 0)) > LONG_COLUMN_CHARS) return true;
  return false;
}

/** Lines a text takes in a narrow column: each paragraph (the text keeps its line breaks) wraps on its own. */
export function estimateLines(text: string): number {
  // By index, not split: a long column's texts are counted with every answer, and split copied them all.
  let lines = 0;
  for (let at = 0; ; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    lines += Math.max(1, Math.ceil((end - at) / CHARS_PER_LINE));
    if (nl < 0) return lines;
    at = nl + 1;
  }
}

/** Heights already estimated, per block object (an answer's blocks are asked by the column, then by each light block). */
const estimated = new WeakMap<Sized, number>();

/** A block's estimated height in rem, so a light block holds the place of the full one and the scrollbar does not jump. */
export function estimateBlockRem(b: Sized): number {
  let rem = estimated.get(b);
  if (rem === undefined) {
    const lines = estimateLines(b.text) + (b.header ? estimateLines(b.header) : 0);
    rem = Math.round(Math.min(BLOCK_MAX_REM, BLOCK_CHROME_REM + lines * LINE_REM) * 100) / 100;
    estimated.set(b, rem);
  }
  return rem;
}

/** A column's title, counts and paddings in rem, above and around its blocks; the gap between two blocks. */
export const COLUMN_CHROME_REM = 5;
export const BLOCK_GAP_REM = 0.5;

/**
 * A long column's estimated height in rem, its blocks as light blocks: the place it holds while
 * it is out of sight sideways and skipped by `content-visibility` (results.css), until it has
 * been drawn once and its real height is remembered.
 */
export function estimateColumnRem(blocks: readonly Sized[]): number {
  let rem = COLUMN_CHROME_REM;
  for (const b of blocks) rem += estimateBlockRem(b) + BLOCK_GAP_REM;
  return Math.round(rem * 100) / 100;
}

/**
 * How far below the window a light block turns full (near-viewport.ts), as a fraction of the
 * window's height: half a screen, which is also how far Chromium lays out `content-visibility:
 * auto` content off-screen. Blocks the first paint lays out anyway are better drawn full at once.
 */
export const NEAR_FRACTION = 0.5;

/**
 * The height in rem, from the window's top, whose blocks are near it (the window and half a
 * screen below it). Counted from the top of a column's blocks, which start lower (the question
 * and the controls are above them): a little more than is near, never less.
 */
export function nearReachRem(viewportRem: number): number {
  return viewportRem * (1 + NEAR_FRACTION);
}

/**
 * How many leading blocks of a long column are drawn in full with the answer: none when the
 * column is scrolled out of sight sideways, else as many as the window's height can show (the
 * one crossing its bottom edge included, at least one), so the first paint already shows full
 * blocks even when the column starts at the top of the screen.
 */
export function fullWithAnswer(blocks: readonly Sized[], viewportRem: number, inSight = true): number {
  if (!inSight) return 0;
  let used = 0;
  let n = 0;
  while (n < blocks.length && (n === 0 || used < viewportRem)) used += estimateBlockRem(blocks[n++]!);
  return n;
}

/** Average width of a character of the blocks' text, in rem (0.88rem sans-serif, measured ≈ 0.45 em). */
export const CHAR_REM = 0.4;

/**
 * How many characters of a full block's text its first paint needs: what fills its visible
 * height (BLOCK_MAX_REM; the rest is under its own scroll) in a column `columnRem` wide, with a
 * quarter more for short lines. The rest of the text joins a frame later (text-head.ts): laying
 * out a window block's 12,000 characters to show 1,000 of them was most of the first paint's layout.
 */
export function headChars(columnRem: number): number {
  const lines = Math.ceil(BLOCK_MAX_REM / LINE_REM);
  return Math.ceil((lines * Math.max(1, columnRem - 1) * 1.25) / CHAR_REM);
}

/** Cuts pieces after `chars` characters (the last one split); all of them when they are shorter. */
export function headPieces<P extends { text: string }>(pieces: readonly P[], chars: number): P[] {
  const out: P[] = [];
  let left = chars;
  for (const p of pieces) {
    if (left <= 0) break;
    // Never between the two halves of a surrogate pair.
    const cut = left < p.text.length && /[\uD800-\uDBFF]/.test(p.text[left - 1]!) ? left + 1 : left;
    out.push(p.text.length <= cut ? p : { ...p, text: p.text.slice(0, cut) });
    left -= p.text.length;
  }
  return out;
}
