/**
 * How much two strategies hand over in common, by sentence: sentences are the corpus's
 * atoms, so two blocks of different shapes (a window, a chunk) overlap exactly where they
 * share sentence indices. Pure, so it is tested with hand-made blocks.
 */
import type { SentenceRange } from '../../core/types';

/** What the overlap needs of a block: the sentence range [start, end) it covers. */
export interface RangeBlock {
  sentences: SentenceRange;
}

/** The distinct sentences (global indices) a column's blocks hand over, ascending. */
export function sentenceIds(blocks: readonly RangeBlock[]): number[] {
  // The ranges merged in order of their start (a column of 100 windows of 21 sentences: ~2,000
  // ids, where a set of every id and a sort cost ~100× as much).
  const ranges = blocks.map((b) => b.sentences).filter((r) => r.end > r.start).sort((x, y) => x.start - y.start);
  const ids: number[] = [];
  let next = -Infinity;
  for (const r of ranges) {
    for (let i = Math.max(r.start, next); i < r.end; i++) ids.push(i);
    next = Math.max(next, r.end);
  }
  return ids;
}

/** How many ids two ascending lists of distinct ids share. */
export function sharedCount(a: readonly number[], b: readonly number[]): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return shared;
}

export interface Counts {
  shared: number;
  onlyA: number;
  onlyB: number;
}

export interface PairOverlap extends Counts {
  /** shared ÷ (shared + only A + only B); null when neither hands over a sentence. */
  jaccard: number | null;
  /** shared ÷ the smaller column's sentences (1 when one holds the other); null when either is empty. */
  ofSmaller: number | null;
  /** The same three sets summed in tokens, when each sentence's token count is known. */
  tokens: Counts | null;
}

/**
 * The sentences two columns share and those only one of them hands over. `tokensOf` gives a
 * sentence's tokens; when it returns undefined for any sentence the token sums are null.
 */
export function pairOverlap(a: readonly RangeBlock[], b: readonly RangeBlock[], tokensOf?: (sentence: number) => number | undefined): PairOverlap {
  const sa = new Set(sentenceIds(a));
  const sb = new Set(sentenceIds(b));
  const counts: Counts = { shared: 0, onlyA: 0, onlyB: 0 };
  let tokens: Counts | null = tokensOf ? { shared: 0, onlyA: 0, onlyB: 0 } : null;
  const add = (key: keyof Counts, i: number) => {
    counts[key]++;
    if (!tokens) return;
    const t = tokensOf!(i);
    if (t === undefined) tokens = null;
    else tokens[key] += t;
  };
  for (const i of sa) add(sb.has(i) ? 'shared' : 'onlyA', i);
  for (const i of sb) if (!sa.has(i)) add('onlyB', i);
  const union = counts.shared + counts.onlyA + counts.onlyB;
  const smaller = Math.min(sa.size, sb.size);
  return { ...counts, jaccard: union ? counts.shared / union : null, ofSmaller: smaller ? counts.shared / smaller : null, tokens };
}

export interface OverlapMatrix {
  ids: string[];
  /** Distinct sentences per column. */
  sentences: number[];
  /** cells[i][j]: column i against column j (symmetric; the diagonal is a column against itself). */
  cells: PairOverlap[][];
}

/** The cell of two columns with `a` and `b` distinct sentences, `shared` of them in both (as pairOverlap says it, without tokens). */
function cell(a: number, b: number, shared: number): PairOverlap {
  const union = a + b - shared;
  const smaller = Math.min(a, b);
  return { shared, onlyA: a - shared, onlyB: b - shared, jaccard: union ? shared / union : null, ofSmaller: smaller ? shared / smaller : null, tokens: null };
}

/**
 * Every pair of columns, for the overlap strip: the same cells as pairOverlap, with each
 * column's sentences listed once (through `idsOf`, which may remember them per column) and
 * each pair counted once, by merging the two ascending lists.
 */
export function overlapMatrix(columns: readonly { id: string; blocks: readonly RangeBlock[] }[], idsOf: (blocks: readonly RangeBlock[]) => readonly number[] = sentenceIds): OverlapMatrix {
  const ids = columns.map((c) => idsOf(c.blocks));
  const n = ids.map((x) => x.length);
  const cells: PairOverlap[][] = ids.map(() => []);
  for (let i = 0; i < ids.length; i++) {
    cells[i]![i] = cell(n[i]!, n[i]!, n[i]!);
    for (let j = i + 1; j < ids.length; j++) {
      const shared = sharedCount(ids[i]!, ids[j]!);
      cells[i]![j] = cell(n[i]!, n[j]!, shared);
      cells[j]![i] = cell(n[j]!, n[i]!, shared);
    }
  }
  return { ids: columns.map((c) => c.id), sentences: n, cells };
}

/** A piece of a block's text: one sentence marked shared or only-this-column, or the text between sentences. */
export interface MarkedPiece {
  text: string;
  mark: 'shared' | 'only' | null;
  /** The sentence's global index (marked pieces only). */
  sentence?: number;
  /** The first sentence of a run of the same mark (where a screen reader hears which it is). */
  runStart?: boolean;
}

/**
 * Splits a block's text by its sentences: each sentence is 'shared' when `other` (the other
 * column's sentences) holds it, else 'only'. `spans` are the sentences' character spans in
 * the document; a block that starts or ends inside a sentence (a naive chunk) gets the
 * part it holds. Sentences without a known span stay unmarked text.
 */
export function markSentences(
  block: RangeBlock & { start: number; end: number; text: string },
  spans: ReadonlyMap<number, { start: number; end: number }>,
  other: ReadonlySet<number>,
): MarkedPiece[] {
  const pieces: MarkedPiece[] = [];
  const length = block.text.length;
  let pos = 0;
  let lastMark: MarkedPiece['mark'] = null;
  for (let i = block.sentences.start; i < block.sentences.end; i++) {
    const span = spans.get(i);
    if (!span) continue;
    const from = Math.max(pos, Math.min(length, span.start - block.start));
    const to = Math.max(from, Math.min(length, span.end - block.start));
    if (to <= from) continue;
    if (from > pos) pieces.push({ text: block.text.slice(pos, from), mark: null });
    const mark = other.has(i) ? 'shared' : 'only';
    pieces.push({ text: block.text.slice(from, to), mark, sentence: i, runStart: mark !== lastMark });
    lastMark = mark;
    pos = to;
  }
  if (pos < length) pieces.push({ text: block.text.slice(pos), mark: null });
  return pieces;
}
