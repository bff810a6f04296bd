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
 * Auto-merging (LlamaIndex AutoMergingRetriever, Haystack AutoMergingRetriever): when
 * the retrieved children of a parent are strictly more than `threshold` of all its
 * children, they are replaced by the parent, scored with the mean of the merged
 * children's scores; repeated up the levels until nothing changes; sorted by score.
 * `hits` are leaf candidates whose ids are node ids of `tree`.
 */
export function autoMerge(tree: ChunkHierarchy, hits: Candidate[], params: MergeParams = DEFAULT_MERGE): MergedNode[] {
  if (!(params.threshold >= 0 && params.threshold <= 1)) throw new Error(`merge threshold must be in [0, 1], got ${params.threshold}`);
  let current = new Map<number, MergedNode>();
  for (const h of hits) if (!current.has(h.id)) current.set(h.id, { node: h.id, score: h.score, leaves: [h], merged: null });
  for (let changed = true; changed; ) {
    changed = false;
    const byParent = new Map<number, MergedNode[]>();
    for (const m of current.values()) {
      const p = tree.nodes[m.node]!.parent;
      if (p === null) continue;
      const list = byParent.get(p);
      if (list) list.push(m);
      else byParent.set(p, [m]);
    }
    const next = new Map(current);
    for (const [p, kids] of byParent) {
      const all = tree.nodes[p]!.children.length;
      if (kids.length / all > params.threshold) {
        for (const k of kids) next.delete(k.node);
        next.set(p, {
          node: p,
          score: kids.reduce((s, k) => s + k.score, 0) / kids.length,
          leaves: kids.flatMap((k) => k.leaves).sort((a, b) => b.score - a.score),
          merged: { children: kids.length, of: all, level: tree.nodes[p]!.level },
        });
        changed = true;
      }
    }
    current = next;
  }
  return [...current.values()].sort((a, b) => b.score - a.score);
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
