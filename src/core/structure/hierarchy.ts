import type { ChunkHierarchy, ChunkNode, SentenceRange } from '../types';
import { boundaryGroups, type Corpus } from './corpus';

export const DEFAULT_CHUNK_LEVELS = [2048, 512, 128];

/**
 * Greedy packing of atoms [start, end) into consecutive ranges of at most `size` tokens.
 * An atom larger than `size` gets a range of its own (the corpus already splits atoms
 * above the leaf size, so this only happens when a caller asks for smaller chunks).
 */
export function packRange(tokens: ArrayLike<number>, start: number, end: number, size: number): SentenceRange[] {
  const out: SentenceRange[] = [];
  let s = start;
  let n = 0;
  for (let i = start; i < end; i++) {
    const t = tokens[i]!;
    if (i > s && n + t > size) {
      out.push({ start: s, end: i });
      s = i;
      n = 0;
    }
    n += t;
  }
  if (end > s) out.push({ start: s, end });
  return out;
}

/**
 * Builds a chunk tree over atoms (LlamaIndex HierarchicalNodeParser semantics, but as
 * ranges): level 0 packs each boundary group into chunks of levels[0] tokens, each
 * following level packs every chunk of the level above into children of levels[i]
 * tokens. Groups are maximal runs of atoms with the same group id (a document or a
 * section), so no chunk crosses them.
 */
export function buildHierarchy(tokens: ArrayLike<number>, groups: ArrayLike<number>, docs: ArrayLike<number>, levels: number[]): ChunkHierarchy {
  validateLevels(levels);
  const h: ChunkHierarchy = { levels: [...levels], nodes: [], leaves: [] };
  extendHierarchy(h, tokens, groups, docs, 0, tokens.length);
  return h;
}

export function validateLevels(levels: number[]): void {
  if (levels.length === 0) throw new Error('at least one chunk level is needed');
  for (const l of levels) if (!Number.isInteger(l) || l < 1) throw new Error(`chunk levels must be whole numbers of tokens ≥ 1, got ${l}`);
  for (let i = 1; i < levels.length; i++) {
    if (!(levels[i]! < levels[i - 1]!)) throw new Error(`chunk levels must shrink: ${levels.join(' > ')}`);
  }
}

/**
 * The children of every leaf: one frozen empty array instead of an array per leaf (32 bytes
 * each in 64-bit V8, ~10 bytes a sentence); nothing is ever added below the smallest level.
 */
const NO_CHILDREN = Object.freeze([]) as unknown as number[];

/**
 * Appends the tree of atoms [start, end) (new documents) to `h`: existing node ids and
 * leaf indices stay as they were, so vectors already computed for leaves stay valid.
 */
export function extendHierarchy(h: ChunkHierarchy, tokens: ArrayLike<number>, groups: ArrayLike<number>, docs: ArrayLike<number>, start: number, end: number): void {
  const { nodes, levels } = h;
  const add = (r: SentenceRange, level: number, parent: number | null): number => {
    let t = 0;
    for (let i = r.start; i < r.end; i++) t += tokens[i]!;
    const id = nodes.length;
    nodes.push({ id, start: r.start, end: r.end, level, parent, children: level === levels.length - 1 ? NO_CHILDREN : [], tokens: t, doc: docs[r.start]! });
    if (parent !== null) nodes[parent]!.children.push(id);
    return id;
  };
  let frontier: number[] = [];
  let g = start;
  for (let i = start + 1; i <= end; i++) {
    if (i === end || groups[i] !== groups[g]) {
      for (const r of packRange(tokens, g, i, levels[0]!)) frontier.push(add(r, 0, null));
      g = i;
    }
  }
  for (let level = 1; level < levels.length; level++) {
    const next: number[] = [];
    for (const p of frontier) {
      const parent = nodes[p]!;
      for (const r of packRange(tokens, parent.start, parent.end, levels[level]!)) next.push(add(r, level, p));
    }
    frontier = next;
  }
  // A loop, not push(...frontier): a bundle's million sentences arrive in one call, and
  // ~340k leaves as arguments overflow the stack.
  for (const leaf of frontier) h.leaves.push(leaf);
}

/** The chunk tree of a corpus: atoms are sentences, groups are sections at ≤ sectionLevel. */
export function corpusHierarchy(corpus: Corpus, levels = DEFAULT_CHUNK_LEVELS, sectionLevel = 3): ChunkHierarchy {
  const tokens = corpus.sentences.map((s) => s.tokens);
  const docs = corpus.sentences.map((s) => s.doc);
  return buildHierarchy(tokens, boundaryGroups(corpus, sectionLevel), docs, levels);
}

/** Index from sentence to the leaf that holds it. */
export function leafOfSentence(h: ChunkHierarchy, sentenceCount: number): Int32Array {
  const out = new Int32Array(sentenceCount).fill(-1);
  h.leaves.forEach((id, leafIndex) => {
    const n = h.nodes[id]!;
    for (let i = n.start; i < n.end; i++) out[i] = leafIndex;
  });
  return out;
}
