import type { UnitKind } from '../retrieve/params';
import type { TokenCounter } from '../segment/tokens';
import type { ChunkHierarchy, ChunkNode, Document, NaiveChunk } from '../types';
import { appendDocument, boundaryGroups, emptyCorpus, type Corpus } from './corpus';
import { extendHierarchy } from './hierarchy';
import { naiveChunksOfDocument, type NaiveChunkParams } from './naive-chunks';

/** A unit (sentence, leaf, naive chunk) as a sentence range and a character span. */
export interface UnitSpan {
  doc: number;
  start: number;
  end: number;
  charStart: number;
  charEnd: number;
}

/**
 * The corpus and the units retrieved over it: sentences, the chunk tree's leaves and the
 * naive chunks, with per-sentence section bounds and token prefix sums so windows, bounds
 * and token counts are O(1). Documents are only appended; every unit keeps its id.
 */
export class CorpusUnits {
  readonly corpus: Corpus;
  readonly hierarchy: ChunkHierarchy;
  readonly chunks: NaiveChunk[] = [];
  private groups: Int32Array = new Int32Array(0);
  private groupStart = new Int32Array(0);
  private groupEnd = new Int32Array(0);
  private tokenPrefix = new Float64Array(1);

  constructor(
    private readonly counter: TokenCounter,
    private readonly layout: { chunkLevels: readonly number[]; sectionLevel: number; naive: NaiveChunkParams },
    maxSentenceTokens: number,
  ) {
    this.hierarchy = { levels: [...layout.chunkLevels], nodes: [], leaves: [] };
    this.corpus = emptyCorpus(counter, { maxSentenceTokens });
    this.indexBoundaries();
  }

  /** Appends documents whose id is not in the corpus yet; the others are returned as duplicates. */
  add(docs: Document[]): { added: Document[]; duplicates: Document[] } {
    const known = new Set(this.corpus.docs.map((d) => d.id));
    const added: Document[] = [];
    const duplicates: Document[] = [];
    const c = this.corpus;
    const first = c.sentences.length;
    for (const d of docs) {
      if (known.has(d.id)) {
        duplicates.push(d);
        continue;
      }
      known.add(d.id);
      added.push(d);
      appendDocument(c, d, this.counter);
      this.chunks.push(...naiveChunksOfDocument(c, c.docs.length - 1, this.counter, this.layout.naive, this.chunks.length));
    }
    if (added.length) {
      this.indexBoundaries();
      const tokens = c.sentences.map((x) => x.tokens);
      const docsOf = c.sentences.map((x) => x.doc);
      extendHierarchy(this.hierarchy, tokens, this.groups, docsOf, first, c.sentences.length);
    }
    return { added, duplicates };
  }

  /** Per-sentence section bounds and token prefix sums, for O(1) windows and budgets. */
  private indexBoundaries(): void {
    const c = this.corpus;
    this.groups = boundaryGroups(c, this.layout.sectionLevel);
    const n = c.sentences.length;
    this.groupStart = new Int32Array(n);
    this.groupEnd = new Int32Array(n);
    for (let i = 0; i < n; ) {
      let j = i;
      while (j < n && this.groups[j] === this.groups[i]) j++;
      this.groupStart.fill(i, i, j);
      this.groupEnd.fill(j, i, j);
      i = j;
    }
    this.tokenPrefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) this.tokenPrefix[i + 1] = this.tokenPrefix[i]! + c.sentences[i]!.tokens;
  }

  count(kind: UnitKind): number {
    return kind === 'sentence' ? this.corpus.sentences.length : kind === 'leaf' ? this.hierarchy.leaves.length : this.chunks.length;
  }

  span(kind: UnitKind, id: number): UnitSpan {
    const c = this.corpus;
    if (kind === 'sentence') {
      const s = c.sentences[id]!;
      return { doc: s.doc, start: id, end: id + 1, charStart: s.start, charEnd: s.end };
    }
    if (kind === 'leaf') {
      const n = this.leaf(id);
      return { doc: n.doc, start: n.start, end: n.end, charStart: c.sentences[n.start]!.start, charEnd: c.sentences[n.end - 1]!.end };
    }
    const ch = this.chunks[id]!;
    return { doc: ch.doc, start: ch.sentences.start, end: ch.sentences.end, charStart: ch.start, charEnd: ch.end };
  }

  /** The chunk-tree node of leaf `id`. */
  leaf(id: number): ChunkNode {
    return this.hierarchy.nodes[this.hierarchy.leaves[id]!]!;
  }

  /** The sentences of chunk-tree nodes, in the order given (leaf-to-sentence expansion). */
  sentencesOf(nodeIds: Iterable<number>): number[] {
    const out: number[] = [];
    for (const id of nodeIds) {
      const n = this.hierarchy.nodes[id]!;
      for (let i = n.start; i < n.end; i++) out.push(i);
    }
    return out;
  }

  /** Tokens of sentences [start, end), headers not included. */
  tokens(start: number, end: number): number {
    return this.tokenPrefix[end]! - this.tokenPrefix[start]!;
  }

  /** [lo, hi) a window around sentence i may span: its section (of the structure's level) or its document. */
  bound(i: number, bySection: boolean): [number, number] {
    if (bySection) return [this.groupStart[i]!, this.groupEnd[i]!];
    const d = this.corpus.sentences[i]!.doc;
    return [this.corpus.docStarts[d]!, this.corpus.docStarts[d + 1]!];
  }

  /** Unit id ranges [start, end) of each document, per unit kind (units are in document order). */
  rangesByDoc(kind: UnitKind): [number, number][] {
    const n = this.corpus.docs.length;
    if (kind === 'sentence') return Array.from({ length: n }, (_, d) => [this.corpus.docStarts[d]!, this.corpus.docStarts[d + 1]!]);
    const docOf = kind === 'leaf' ? (i: number) => this.leaf(i).doc : (i: number) => this.chunks[i]!.doc;
    const ranges: [number, number][] = Array.from({ length: n }, () => [0, 0]);
    const total = this.count(kind);
    for (let i = 0; i < total; ) {
      const d = docOf(i);
      let j = i;
      while (j < total && docOf(j) === d) j++;
      ranges[d] = [i, j];
      i = j;
    }
    return ranges;
  }

  /**
   * The smallest chunk-tree node that strictly contains sentences [start, end): the
   * "parent chunk" the document view draws around a block. Null at the top of the tree.
   */
  enclosingNode(start: number, end: number): ChunkNode | null {
    const { leaves, nodes } = this.hierarchy;
    let lo = 0;
    let hi = leaves.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (nodes[leaves[mid]!]!.start <= start) lo = mid;
      else hi = mid - 1;
    }
    let node: ChunkNode | undefined = nodes[leaves[lo] ?? -1];
    while (node && !(node.start <= start && node.end >= end && node.end - node.start > end - start)) {
      node = node.parent === null ? undefined : nodes[node.parent];
    }
    return node ?? null;
  }
}
