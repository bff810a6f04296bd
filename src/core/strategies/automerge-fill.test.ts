import { describe, expect, it } from 'vitest';
import { documentFromText } from '../documents/load';
import { RetrievalEngine } from '../engine';
import { autoMerge } from '../retrieve/automerge';
import type { Candidate } from '../retrieve/candidates';
import { retrievalParams } from '../retrieve/params';
import { buildHierarchy } from '../structure/hierarchy';
import type { ChunkHierarchy } from '../types';
import { fillInAndMerge } from './automerge-fill';

/** A chunk tree over `n` one-token atoms of one document; levels in tokens, largest first. */
function tree(n: number, levels: number[]): ChunkHierarchy {
  return buildHierarchy(new Array(n).fill(1), new Array(n).fill(0), new Array(n).fill(0), levels);
}

/** Leaf candidates, in retrieval order: [leaf index, score]. Scores are dyadic so means are exact. */
const hits = (t: ChunkHierarchy, list: [number, number][]): Candidate[] => list.map(([i, score]) => ({ id: t.leaves[i]!, score, ranks: {}, scores: {} }));

/** The result as [node id, score, retrieved leaf indices, merged] for exact comparison. */
function shape(t: ChunkHierarchy, nodes: ReturnType<typeof fillInAndMerge>) {
  return nodes.map((m) => [m.node, m.score, m.leaves.map((l) => t.leaves.indexOf(l.id)), m.merged]);
}

// 16 atoms, levels {8, 2}: roots R0 = node 0 and R1 = node 1; leaves L0–L3 under R0, L4–L7 under R1.
const two = tree(16, [8, 2]);
const R0 = 0;

describe('fillInAndMerge (LlamaIndex AutoMergingRetriever with _fill_in_nodes)', () => {
  it('builds the expected test tree', () => {
    expect(two.nodes[R0]!.children).toEqual(two.leaves.slice(0, 4));
    expect(two.nodes[1]!.children).toEqual(two.leaves.slice(4, 8));
  });

  it('fills the one sibling between two list neighbours (mean score), which tips the parent over the threshold', () => {
    const filled = new Set<number>();
    const out = fillInAndMerge(two, hits(two, [[0, 0.75], [2, 0.25]]), 0.5, filled);
    // L1 filled in at (0.75 + 0.25) / 2 = 0.5; R0 then has 3 of 4 children: mean (0.75 + 0.5 + 0.25) / 3.
    expect(shape(two, out)).toEqual([[R0, 0.5, [0, 2], { children: 3, of: 4, level: 0 }]]);
    expect([...filled]).toEqual([two.leaves[1]]);
    // Haystack's auto-merge (no fill-in) leaves 2 of 4 children unmerged: 0.5 is not above 0.5.
    expect(autoMerge(two, hits(two, [[0, 0.75], [2, 0.25]]), { threshold: 0.5 }).map((m) => m.node)).toEqual([two.leaves[0], two.leaves[2]]);
  });

  it('keeps a filled-in sibling as its own node when the parent does not merge', () => {
    const out = fillInAndMerge(two, hits(two, [[0, 0.75], [2, 0.25]]), 0.75);
    expect(shape(two, out)).toEqual([
      [two.leaves[0], 0.75, [0], null],
      [two.leaves[1], 0.5, [], null],
      [two.leaves[2], 0.25, [2], null],
    ]);
  });

  it('looks only at neighbours in the list order, with the earlier one first in the document', () => {
    // L2 ranked above L0: L2's next node is L3, not L0's previous (none).
    expect(shape(two, fillInAndMerge(two, hits(two, [[2, 0.75], [0, 0.25]]), 0.5))).toEqual([
      [two.leaves[2], 0.75, [2], null],
      [two.leaves[0], 0.25, [0], null],
    ]);
    // Not neighbours in the list: L3 between them breaks the pair.
    expect(fillInAndMerge(two, hits(two, [[0, 0.75], [3, 0.5], [2, 0.25]]), 0.9).map((m) => m.node)).toEqual([two.leaves[0], two.leaves[3], two.leaves[2]]);
  });

  it('fills one gap only: two siblings between, or a gap across parents, stay unfilled', () => {
    expect(fillInAndMerge(two, hits(two, [[0, 0.75], [3, 0.25]]), 0.5).map((m) => m.node)).toEqual([two.leaves[0], two.leaves[3]]);
    // L3 is R0's last child and L5 is under R1: L4 lies between them in the text, but they are not siblings.
    expect(fillInAndMerge(two, hits(two, [[3, 0.75], [5, 0.25]]), 0.5).map((m) => m.node)).toEqual([two.leaves[3], two.leaves[5]]);
  });

  it('does not add a sibling that is already in the list (LlamaIndex would add a second copy)', () => {
    const filled = new Set<number>();
    const out = fillInAndMerge(two, hits(two, [[0, 0.75], [2, 0.5], [1, 0.25]]), 0.5, filled);
    expect(shape(two, out)).toEqual([[R0, 0.5, [0, 2, 1], { children: 3, of: 4, level: 0 }]]);
    expect(filled.size).toBe(0);
  });

  it('fills between merged parents, then merges again: fill-in and merging alternate until nothing changes', () => {
    // 12 atoms, levels {12, 4, 2}: root R = 0; P0 = 1, P1 = 2, P2 = 3; leaves L0, L1 under P0, L2, L3 under P1, L4, L5 under P2.
    const t = tree(12, [12, 4, 2]);
    expect(t.nodes[0]!.children).toEqual([1, 2, 3]);
    const filled = new Set<number>();
    const out = fillInAndMerge(t, hits(t, [[0, 0.75], [1, 0.75], [4, 0.25], [5, 0.25]]), 0.7, filled);
    // Pass 1 merges P0 (0.75) and P2 (0.25); pass 2 fills P1 at 0.5 between them, and R has 3 of 3 children.
    expect(shape(t, out)).toEqual([[0, 0.5, [0, 1, 4, 5], { children: 3, of: 3, level: 0 }]]);
    expect([...filled]).toEqual([2]);
    // Without fill-in R has 2 of 3 children, not above 0.7.
    expect(autoMerge(t, hits(t, [[0, 0.75], [1, 0.75], [4, 0.25], [5, 0.25]]), { threshold: 0.7 }).map((m) => [m.node, m.score])).toEqual([
      [1, 0.75],
      [3, 0.25],
    ]);
  });

  it('a filled-in node takes in the retrieved nodes inside it instead of handing their text over twice', () => {
    const t = tree(12, [12, 4, 2]);
    const out = fillInAndMerge(t, hits(t, [[0, 0.75], [1, 0.75], [4, 0.25], [5, 0.25], [2, 0.125]]), 0.7);
    // L2 alone does not merge P1 (1 of 2); P1 filled in between P0 and P2 takes L2 in; R merges all three.
    expect(shape(t, out)).toEqual([[0, 0.5, [0, 1, 4, 5, 2], { children: 3, of: 3, level: 0 }]]);
  });

  it('fills between consecutive top-level nodes of one document', () => {
    // 24 atoms, levels {8, 2}: roots 0, 1, 2; leaves L0–L3 under 0, L4–L7 under 1, L8–L11 under 2.
    const t = tree(24, [8, 2]);
    const out = fillInAndMerge(t, hits(t, [[0, 0.75], [1, 0.5], [8, 0.5], [2, 0.25], [9, 0.25], [10, 0]]), 0.5);
    // Roots 0 (mean 0.5) and 2 (mean 0.25) merge; root 1 is filled in between them at 0.375.
    expect(out.map((m) => [m.node, m.score, m.leaves.length])).toEqual([
      [0, 0.5, 3],
      [1, 0.375, 0],
      [2, 0.25, 3],
    ]);
  });

  it('refuses a threshold outside [0, 1]', () => {
    expect(() => fillInAndMerge(two, [], 1.5)).toThrow(/threshold/);
  });
});

describe('the automerge-fill strategy in the engine', () => {
  // Eight two-word sentences; with levels {8, 2} words each sentence is a leaf and each four make a parent.
  const text = 'Alpha one. Bravo two. Charlie three. Delta four. Echo five. Foxtrot six. Golf seven. Hotel eight.';
  const engine = new RetrievalEngine({ counter: { name: 'words', count: (t) => t.split(/\s+/).filter(Boolean).length }, structure: { chunkLevels: [8, 2] } });
  engine.addDocuments([documentFromText(text, 'nato.txt', 'txt')]);
  const cand = (leaf: number, score: number, rank: number): Candidate => ({ id: leaf, score, ranks: { bm25: rank }, scores: { bm25: score } });

  it('has the test corpus shape', () => {
    expect(engine.corpus.sentences.map((s) => s.tokens)).toEqual(new Array(8).fill(2));
    expect(engine.hierarchy.leaves).toHaveLength(8);
  });

  it('hands over the parent with the retrieved leaves highlighted and says a sibling was filled in', () => {
    const [b, ...rest] = engine.blocks('automerge-fill', [cand(0, 0.75, 1), cand(2, 0.25, 2)], retrievalParams({ merge: { threshold: 0.5 } }));
    expect(rest).toEqual([]);
    expect(b).toMatchObject({ id: 'automerge-fill:0:0-4', text: 'Alpha one. Bravo two. Charlie three. Delta four.', hits: [0, 2], score: 0.5, tokens: 8 });
    expect(b!.provenance).toEqual({ unit: 'leaf', ranks: { bm25: 1 }, scores: { bm25: 0.75 }, merged: { children: 3, of: 4, level: 0 }, notes: ['1 filled in between retrieved neighbours'] });
  });

  it('a filled-in leaf that stays alone has no hits and no rank, and says why it is there', () => {
    const blocks = engine.blocks('automerge-fill', [cand(0, 0.75, 1), cand(2, 0.25, 2)], retrievalParams({ merge: { threshold: 0.75 } }));
    expect(blocks.map((b) => [b.text, b.score, b.hits])).toEqual([
      ['Alpha one.', 0.75, [0]],
      ['Bravo two.', 0.5, []],
      ['Charlie three.', 0.25, [2]],
    ]);
    expect(blocks[1]!.provenance).toEqual({ unit: 'leaf', ranks: { bm25: null }, scores: {}, notes: ['filled in between two retrieved neighbours'] });
  });

  it('fits the budget as auto-merge does: a parent that does not fit falls back to its retrieved leaves', () => {
    const blocks = engine.blocks('automerge-fill', [cand(0, 0.75, 1), cand(2, 0.25, 2)], retrievalParams({ merge: { threshold: 0.5 }, budgetTokens: 6 }));
    expect(blocks.map((b) => [b.text, b.score])).toEqual([
      ['Alpha one.', 0.75],
      ['Charlie three.', 0.25],
    ]);
  });
});
