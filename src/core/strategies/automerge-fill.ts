/**
 * LlamaIndex's auto-merging with its fill-in step (AutoMergingRetriever._fill_in_nodes).
 * Haystack's auto-merge (the `automerge` strategy) only merges; LlamaIndex first walks the
 * retrieved list in its order and, wherever two neighbours in the list are siblings with
 * exactly one sibling between them (the first's next node is the second's previous node),
 * inserts that middle node right after the first, scored with the mean of the two. Then
 * one merging pass over all levels; fill-in and merging repeat until neither changes
 * anything; the result is sorted by score. So two retrieved leaves one apart can tip a
 * parent over the threshold that Haystack would leave unmerged.
 *
 * Two deliberate departures, both where LlamaIndex would hand over the same text twice:
 * a middle node already in the list is not added again (LlamaIndex adds a second copy and
 * counts it twice toward its parent), and nodes in the list that lie inside a filled-in
 * node are taken into it (their retrieved leaves become its hits) instead of staying
 * beside it. Siblings are the children of one parent, or consecutive top-level nodes of
 * one document (LlamaIndex links next/previous only between nodes with the same source).
 */
import { fitMerged, leafNodes, mergeOnce, type MergedNode } from '../retrieve/automerge';
import type { Candidate } from '../retrieve/candidates';
import type { ChunkHierarchy } from '../types';
import { leavesWithinBudget, MERGE_PARAMS, mergedBlocks, mergeReport, mergeWords, THRESHOLDS_AXIS } from './automerge';
import { defineStrategy } from './types';

/** Ordered siblings of chunk-tree nodes: a parent's children, or a document's top-level nodes. */
const rootsByTree = new WeakMap<ChunkHierarchy, { nodes: number; roots: Map<number, number[]> }>();

class Siblings {
  private roots: Map<number, number[]> | null = null;

  constructor(private readonly tree: ChunkHierarchy) {}

  /** The node one place after `id` among its siblings, when `other` is the node one place after that. */
  between(id: number, other: number): number | null {
    const a = this.tree.nodes[id]!;
    const c = this.tree.nodes[other]!;
    if (a.parent !== c.parent || a.doc !== c.doc) return null;
    const list = a.parent !== null ? this.tree.nodes[a.parent]!.children : this.rootsOf(a.doc);
    const i = list.indexOf(id);
    return i >= 0 && list[i + 2] === other ? list[i + 1]! : null;
  }

  private rootsOf(doc: number): number[] {
    if (!this.roots) {
      // Every node of the tree is walked: at 1M sentences that is ms, so the map is kept per tree
      // until nodes are appended (documents are only ever added).
      const kept = rootsByTree.get(this.tree);
      if (kept && kept.nodes === this.tree.nodes.length) this.roots = kept.roots;
      else {
        this.roots = new Map();
        for (const n of this.tree.nodes) {
          if (n.parent !== null) continue;
          const list = this.roots.get(n.doc);
          if (list) list.push(n.id);
          else this.roots.set(n.doc, [n.id]);
        }
        rootsByTree.set(this.tree, { nodes: this.tree.nodes.length, roots: this.roots });
      }
    }
    return this.roots.get(doc) ?? [];
  }
}

/** Is `node` inside `ancestor` (or the same node)? */
function within(tree: ChunkHierarchy, node: number, ancestor: number): boolean {
  for (let n: number | null = node; n !== null; n = tree.nodes[n]!.parent) if (n === ancestor) return true;
  return false;
}

/**
 * One fill-in pass (LlamaIndex's _fill_in_nodes) over the list in its order. Returns the
 * new list, whether anything was filled in, and adds the filled-in node ids to `filled`.
 */
export function fillIn(tree: ChunkHierarchy, nodes: readonly MergedNode[], filled: Set<number>, siblings = new Siblings(tree)): { nodes: MergedNode[]; changed: boolean } {
  let list = [...nodes];
  const out: MergedNode[] = [];
  let changed = false;
  for (let idx = 0; idx < list.length; idx++) {
    const cur = list[idx]!;
    out.push(cur);
    const next = list[idx + 1];
    if (!next) continue;
    const middle = siblings.between(cur.node, next.node);
    if (middle === null || list.some((m) => m.node === middle)) continue;
    // Nodes already in the list inside the middle one join it rather than repeat its text.
    const inside = list.filter((m) => within(tree, m.node, middle));
    if (inside.length) {
      list = list.filter((m) => !inside.includes(m));
      out.splice(0, out.length, ...out.filter((m) => !inside.includes(m)));
      idx = list.indexOf(cur);
    }
    out.push({ node: middle, score: (cur.score + next.score) / 2, leaves: inside.flatMap((m) => m.leaves).sort((a, b) => b.score - a.score), merged: null });
    filled.add(middle);
    changed = true;
  }
  return { nodes: out, changed };
}

/**
 * LlamaIndex's loop: fill in, then one merging pass, while either changes the list; then
 * sorted by score (stable, as Python's sort). `hits` are leaf candidates whose ids are
 * node ids of `tree`, in retrieval order. `filled` receives every node that was filled in.
 */
export function fillInAndMerge(tree: ChunkHierarchy, hits: Candidate[], threshold: number, filled = new Set<number>()): MergedNode[] {
  let nodes = leafNodes(hits, threshold);
  const siblings = new Siblings(tree);
  for (let changed = true; changed; ) {
    const f = fillIn(tree, nodes, filled, siblings);
    const m = mergeOnce(tree, f.nodes, threshold);
    nodes = m.nodes;
    changed = f.changed || m.changed;
  }
  return nodes.sort((a, b) => b.score - a.score);
}

export const automergeFill = defineStrategy({
  name: 'automerge-fill',
  label: 'Gap-filled auto-merge',
  unit: 'leaf',
  blockWords: 'the leaf chunk, a sibling filled in between two, or the parent they were merged into',
  colour: '#DDCC77',
  groups: [MERGE_PARAMS],
  axes: [THRESHOLDS_AXIS],
  report: mergeReport,
  words: mergeWords,
  blocks(ctx, candidates, p) {
    const tree = ctx.hierarchy;
    const filled = new Set<number>();
    const merged = fillInAndMerge(tree, leavesWithinBudget(ctx, candidates, p.budgetTokens), p.merge.threshold, filled);
    // A filled-in node that was not retrieved has no rank in any list.
    const unranked = Object.fromEntries(Object.keys(candidates[0]?.ranks ?? {}).map((k) => [k, null]));
    return mergedBlocks(ctx, 'automerge-fill', fitMerged(tree, merged, ctx.blockCost, p.budgetTokens), (m) => {
      const inside = [...filled].filter((f) => within(tree, f, m.node)).length;
      if (!inside) return {};
      const note = filled.has(m.node) ? 'filled in between two retrieved neighbours' : `${inside} filled in between retrieved neighbours`;
      return { ...(m.leaves.length ? {} : { ranks: unranked }), notes: [note] };
    });
  },
});
