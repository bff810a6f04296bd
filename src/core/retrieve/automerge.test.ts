import { describe, expect, it } from 'vitest';
import { buildHierarchy } from '../structure/hierarchy';
import type { ChunkHierarchy } from '../types';
import { autoMerge, DEFAULT_MERGE, fitMerged, type MergedNode } from './automerge';
import type { Candidate } from './candidates';

// Haystack test_auto_merging_retriever.py: one document, word atoms of one token each.
const TEXT = 'The sun rose early in the morning. It cast a warm glow over the trees. Birds began to sing.';
const WORDS = TEXT.split(/\s+/);

/** A tree over the words; Haystack splits the whole document as a root, hence the leading 1000. */
function wordTree(levels: number[]): ChunkHierarchy {
  const n = WORDS.length;
  return buildHierarchy(new Array(n).fill(1), new Array(n).fill(0), new Array(n).fill(0), levels);
}

const textOf = (tree: ChunkHierarchy, node: number) => WORDS.slice(tree.nodes[node]!.start, tree.nodes[node]!.end).join(' ');
const leafTexts = (tree: ChunkHierarchy) => tree.leaves.map((id) => textOf(tree, id));
const hit = (id: number, score = 1): Candidate => ({ id, score, ranks: {}, scores: {} });
/** Candidates for the leaves at these frontier positions. */
const leafHits = (tree: ChunkHierarchy, leafIndices: number[], scores?: number[]) =>
  leafIndices.map((i, k) => hit(tree.leaves[i]!, scores?.[k] ?? 1));

describe('autoMerge: Haystack reference cases', () => {
  it('tokenises the reference text into 19 words', () => {
    expect(WORDS).toHaveLength(19);
  });

  it('case 1: blocks {10,3}, threshold 0.5, leaves 4–5 merge into their parent', () => {
    const tree = wordTree([1000, 10, 3]);
    expect(leafTexts(tree)).toEqual([
      'The sun rose',
      'early in the',
      'morning. It cast',
      'a',
      'warm glow over',
      'the trees. Birds',
      'began to sing.',
    ]);
    const out = autoMerge(tree, leafHits(tree, [4, 5]), { threshold: 0.5 });
    expect(out).toHaveLength(1);
    expect(textOf(tree, out[0]!.node)).toBe('warm glow over the trees. Birds began to sing.');
    expect(out[0]!.merged).toEqual({ children: 2, of: 3, level: 1 });
    expect(tree.nodes[out[0]!.node]!.level).toBe(1);
    expect(out[0]!.leaves.map((l) => l.id).sort((x, y) => x - y)).toEqual([tree.leaves[4], tree.leaves[5]]);
  });

  it('case 2: blocks {6,4,2,1}, threshold 0.4, leaves The/sun/rose/early → "The sun rose early in the"', () => {
    const tree = wordTree([1000, 6, 4, 2, 1]);
    expect(leafTexts(tree).slice(0, 4)).toEqual(['The', 'sun', 'rose', 'early']);
    const out = autoMerge(tree, leafHits(tree, [0, 1, 2, 3]), { threshold: 0.4 });
    expect(out).toHaveLength(1);
    expect(textOf(tree, out[0]!.node)).toBe('The sun rose early in the');
    expect(tree.nodes[out[0]!.node]!.level).toBe(1);
    // the last step merged one of two children (0.5 > 0.4)
    expect(out[0]!.merged).toEqual({ children: 1, of: 2, level: 1 });
    expect(out[0]!.leaves).toHaveLength(4);
  });

  it('case 3: blocks {6,4}, threshold 0.1, four leaves merge all the way to the root', () => {
    const tree = wordTree([1000, 6, 4]);
    const texts = leafTexts(tree);
    const picks = ['The sun rose early', 'in the', 'morning. It cast a', 'over the trees. Birds'].map((t) => texts.indexOf(t));
    expect(picks.every((i) => i >= 0)).toBe(true);
    const out = autoMerge(tree, leafHits(tree, picks), { threshold: 0.1 });
    expect(out).toHaveLength(1);
    const root = tree.nodes[out[0]!.node]!;
    expect(root.level).toBe(0);
    expect(root.parent).toBeNull();
    expect(textOf(tree, root.id)).toBe(TEXT);
    expect(out[0]!.merged).toEqual({ children: 3, of: 4, level: 0 });
    expect(out[0]!.leaves).toHaveLength(4);
  });
});

describe('autoMerge: rules', () => {
  it('defaults to threshold 0.5', () => {
    expect(DEFAULT_MERGE).toEqual({ threshold: 0.5 });
  });

  it('is strict: exactly the threshold ratio does not merge (1 of 2 at 0.5)', () => {
    const tree = wordTree([1000, 4, 2]); // [0,4) → [0,2) [2,4)
    const out = autoMerge(tree, leafHits(tree, [0]), { threshold: 0.5 });
    expect(out).toHaveLength(1);
    expect(out[0]!.node).toBe(tree.leaves[0]);
    expect(out[0]!.merged).toBeNull();
    // just below the ratio it merges
    const merged = autoMerge(tree, leafHits(tree, [0]), { threshold: 0.49 });
    expect(merged).toHaveLength(1);
    expect(textOf(tree, merged[0]!.node)).toBe('The sun rose early');
  });

  it('scores a merged parent with the mean of its merged children', () => {
    const tree = wordTree([1000, 4, 2]);
    const out = autoMerge(tree, leafHits(tree, [0, 1], [0.9, 0.5]), { threshold: 0.5 });
    expect(out).toHaveLength(1);
    expect(out[0]!.score).toBeCloseTo(0.7, 12);
    expect(out[0]!.leaves.map((l) => l.score)).toEqual([0.9, 0.5]); // best first
  });

  it('mean over merged nodes, level by level, across several levels', () => {
    const tree = wordTree([1000, 6, 4, 2, 1]);
    // The(0.8) sun(0.4) → 0.6; rose(1.0) early(0.2) → 0.6; both → 0.6; then 1 of 2 → 0.6
    const out = autoMerge(tree, leafHits(tree, [0, 1, 2, 3], [0.8, 0.4, 1.0, 0.2]), { threshold: 0.4 });
    expect(out).toHaveLength(1);
    expect(out[0]!.score).toBeCloseTo(0.6, 12);
    expect(out[0]!.leaves.map((l) => l.score)).toEqual([1.0, 0.8, 0.4, 0.2]);
  });

  it('merges bottom-up over several levels and stops where the ratio is not exceeded', () => {
    const tree = wordTree([1000, 6, 4, 2, 1]);
    // The, sun → "The sun" (2/2); "The sun" is 1 of 2 children of "The sun rose early": 0.5 is not > 0.5
    const out = autoMerge(tree, leafHits(tree, [0, 1]), { threshold: 0.5 });
    expect(out).toHaveLength(1);
    expect(textOf(tree, out[0]!.node)).toBe('The sun');
    expect(out[0]!.merged).toEqual({ children: 2, of: 2, level: 3 });
    // a third leaf alone is 1 of 2 under its own parent: nothing more merges
    const three = autoMerge(tree, leafHits(tree, [0, 1, 2]), { threshold: 0.5 });
    expect(three.map((m) => textOf(tree, m.node)).sort()).toEqual(['The sun', 'rose']);
    // with four leaves, the second pair merges too, and then their parent (2 of 2),
    // which is 1 of 2 under "The sun rose early in the": the merging stops there
    const four = autoMerge(tree, leafHits(tree, [0, 1, 2, 3]), { threshold: 0.5 });
    expect(four).toHaveLength(1);
    expect(textOf(tree, four[0]!.node)).toBe('The sun rose early');
    expect(four[0]!.merged).toEqual({ children: 2, of: 2, level: 2 });
  });

  it('sorts the result by score, merged or not', () => {
    const tree = wordTree([1000, 10, 3]);
    const out = autoMerge(tree, leafHits(tree, [0, 4, 5], [0.95, 0.5, 0.3]), { threshold: 0.5 });
    expect(out.map((m) => m.score)).toEqual([0.95, 0.4]);
    expect(out[0]!.node).toBe(tree.leaves[0]);
    expect(out[0]!.merged).toBeNull();
    expect(textOf(tree, out[1]!.node)).toBe('warm glow over the trees. Birds began to sing.');
    const higher = autoMerge(tree, leafHits(tree, [0, 4, 5], [0.1, 0.5, 0.3]), { threshold: 0.5 });
    expect(higher.map((m) => m.node)).toEqual([out[1]!.node, tree.leaves[0]]);
  });

  it('leaves unmerged hits as they are and ignores duplicate hits', () => {
    const tree = wordTree([1000, 10, 3]);
    const out = autoMerge(tree, [hit(tree.leaves[0]!, 0.9), hit(tree.leaves[0]!, 0.1), hit(tree.leaves[6]!, 0.5)]);
    expect(out.map((m) => [m.node, m.score, m.merged])).toEqual([
      [tree.leaves[0], 0.9, null],
      [tree.leaves[6], 0.5, null],
    ]);
  });

  it('threshold 1 never merges; no hits give nothing', () => {
    const tree = wordTree([1000, 4, 2]);
    const all = tree.leaves.map((_, i) => i);
    expect(autoMerge(tree, leafHits(tree, all), { threshold: 1 })).toHaveLength(tree.leaves.length);
    expect(autoMerge(tree, [])).toEqual([]);
  });

  it('rejects a threshold outside [0, 1]', () => {
    const tree = wordTree([1000, 4, 2]);
    expect(() => autoMerge(tree, [], { threshold: -0.1 })).toThrow();
    expect(() => autoMerge(tree, [], { threshold: 1.5 })).toThrow();
    expect(() => autoMerge(tree, [], { threshold: Number.NaN })).toThrow();
  });
});

describe('fitMerged', () => {
  const tree = wordTree([1000, 10, 3]);
  const cost = (start: number, end: number) => end - start; // one token per word

  it('returns everything without a budget', () => {
    const merged = autoMerge(tree, leafHits(tree, [4, 5]));
    expect(fitMerged(tree, merged, cost, null)).toBe(merged);
  });

  it('keeps a parent that fits', () => {
    const merged = autoMerge(tree, leafHits(tree, [4, 5]));
    const out = fitMerged(tree, merged, cost, 9);
    expect(out).toHaveLength(1);
    expect(out[0]!.merged).not.toBeNull();
  });

  it('a parent too big for the budget falls back to its retrieved leaves', () => {
    const merged = autoMerge(tree, leafHits(tree, [4, 5], [0.6, 0.8]));
    expect(merged).toHaveLength(1);
    const out = fitMerged(tree, merged, cost, 6); // parent costs 9; each leaf 3
    expect(out.map((m) => m.node)).toEqual([tree.leaves[5], tree.leaves[4]]); // best leaf first
    expect(out.map((m) => m.score)).toEqual([0.8, 0.6]);
    expect(out.every((m) => m.merged === null && m.leaves.length === 1)).toBe(true);
  });

  it('falls back leaf by leaf: only the leaves that still fit are added', () => {
    const merged = autoMerge(tree, leafHits(tree, [4, 5], [0.6, 0.8]));
    const out = fitMerged(tree, merged, cost, 5);
    expect(out.map((m) => m.node)).toEqual([tree.leaves[5]]);
  });

  it('fills in score order and skips what does not fit, still trying later ones', () => {
    const merged: MergedNode[] = [
      ...autoMerge(tree, leafHits(tree, [0], [0.9])), // 3 tokens
      ...autoMerge(tree, leafHits(tree, [3], [0.8])), // "a": 1 token
    ];
    const parent = tree.nodes[tree.leaves[0]!]!.parent!; // 10 tokens, not a merge: no fallback
    const withBig: MergedNode[] = [{ node: parent, score: 0.95, leaves: [], merged: null }, ...merged];
    const out = fitMerged(tree, withBig, cost, 4);
    expect(out.map((m) => m.node)).toEqual([tree.leaves[0], tree.leaves[3]]);
  });
});
