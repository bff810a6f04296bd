import type { ChunkHierarchy } from '../types';
import type { BlockCost, Candidate } from './candidates';

export interface MergeParams {
  /** Merge when retrieved children / all children is strictly greater than this. Default 0.5. */
  threshold: number;
}

export const DEFAULT_MERGE: MergeParams = { threshold: 0.5 };

/** A node after merging: a leaf as retrieved, or a parent that replaced its children. */
export interface MergedNode {
  node: number;
  score: number;
  /** The retrieved leaves it stands for, best first. */
  leaves: Candidate[];
  /** Set when the node replaced children: how many were retrieved, of how many. */
  merged: { children: number; of: number; level: number } | null;
}

/**
 * The merge's starting list: one node per retrieved leaf (first occurrence kept), after
 * checking the threshold. Shared by auto-merge and its gap-filling variant.
 */
export function leafNodes(hits: Candidate[], threshold: number): MergedNode[] {
  if (!(threshold >= 0 && threshold <= 1)) throw new Error(`merge threshold must be in [0, 1], got ${threshold}`);
  const seen = new Set<number>();
  const nodes: MergedNode[] = [];
  for (const h of hits) {
    if (seen.has(h.id)) continue;
    seen.add(h.id);
    nodes.push({ node: h.id, score: h.score, leaves: [h], merged: null });
  }
  return nodes;
}

/**
 * Auto-merging (LlamaIndex AutoMergingRetriever, Haystack AutoMergingRetriever): when
 * the retrieved children of a parent are strictly more than `threshold` of all its
 * children, they are replaced by the parent, scored with the mean of the merged
 * children's scores; repeated up the levels until nothing changes; sorted by score.
 * `hits` are leaf candidates whose ids are node ids of `tree`.
 */
export function autoMerge(tree: ChunkHierarchy, hits: Candidate[], params: MergeParams = DEFAULT_MERGE): MergedNode[] {
  let current = leafNodes(hits, params.threshold);
  for (let changed = true; changed; ) ({ nodes: current, changed } = mergeOnce(tree, current, params.threshold));
  return current.sort((a, b) => b.score - a.score);
}

/**
 * One merging pass over every level at once: each parent whose present children are
 * strictly more than `threshold` of all its children replaces them, scored with their
 * mean. The survivors keep their order and the new parents follow, in the order their
 * first child appeared (as LlamaIndex's _get_parents_and_merge builds its list).
 */
export function mergeOnce(tree: ChunkHierarchy, nodes: readonly MergedNode[], threshold: number): { nodes: MergedNode[]; changed: boolean } {
  const byParent = new Map<number, MergedNode[]>();
  for (const m of nodes) {
    const p = tree.nodes[m.node]!.parent;
    if (p === null) continue;
    const list = byParent.get(p);
    if (list) list.push(m);
    else byParent.set(p, [m]);
  }
  const gone = new Set<number>();
  const parents: MergedNode[] = [];
  for (const [p, kids] of byParent) {
    const all = tree.nodes[p]!.children.length;
    if (kids.length / all <= threshold) continue;
    for (const k of kids) gone.add(k.node);
    parents.push({
      node: p,
      score: kids.reduce((s, k) => s + k.score, 0) / kids.length,
      leaves: kids.flatMap((k) => k.leaves).sort((a, b) => b.score - a.score),
      merged: { children: kids.length, of: all, level: tree.nodes[p]!.level },
    });
  }
  if (!parents.length) return { nodes: [...nodes], changed: false };
  return { nodes: [...nodes.filter((m) => !gone.has(m.node)), ...parents], changed: true };
}

/**
 * Fits merged nodes into a token budget in score order. A parent that does not fit
 * falls back to its retrieved leaves, each added if it still fits.
 */
export function fitMerged(tree: ChunkHierarchy, merged: MergedNode[], cost: BlockCost, budget: number | null): MergedNode[] {
  if (budget === null) return merged;
  const out: MergedNode[] = [];
  let used = 0;
  const tryAdd = (m: MergedNode): boolean => {
    const n = tree.nodes[m.node]!;
    const c = cost(n.start, n.end);
    if (used + c > budget) return false;
    used += c;
    out.push(m);
    return true;
  };
  for (const m of merged) {
    if (tryAdd(m) || !m.merged) continue;
    for (const leaf of m.leaves) tryAdd({ node: leaf.id, score: leaf.score, leaves: [leaf], merged: null });
  }
  return out;
}
