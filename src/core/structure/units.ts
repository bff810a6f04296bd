import type { UnitKind } from '../retrieve/params';
import type { TokenCounter } from '../segment/tokens';
import type { ChunkHierarchy, ChunkNode, Document, NaiveChunk } from '../types';
import { appendDocument, appendSplitDocument, emptyCorpus, extendBoundaryGroups, type Corpus, type SentenceSpan } from './corpus';
import { extendHierarchy } from './hierarchy';
import { naiveChunksOfDocument, type NaiveChunkParams } from './naive-chunks';
import { packSentences, type PackedChunkParams } from './packed-chunks';

/**
 * A document as another run of this lab split it (an imported bundle): its sentence atoms
 * and its naive chunks, chunk sentence ranges counted from the document's first sentence.
 */
export interface SplitDocument {
  doc: Document;
  sentences: SentenceSpan[];
  chunks: { start: number; end: number; tokens: number; sentences: { start: number; end: number } }[];
  /**
   * Its semantic chunks as sentence ranges counted from its first sentence, when they were
   * built by an engine with the same embedding model and semantic parameters (they cost
   * embeddings to find again); absent: built anew.
   */
  semantic?: { start: number; end: number }[];
}

/**
 * Units that are runs of whole sentences (packed and semantic chunks): global sentence
 * ranges, in document order. Three plain arrays, no text: a unit's text is its span's.
 */
class SentenceRuns {
  readonly doc: number[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
  /** Documents [0, docs) whose runs are here. */
  docs = 0;

  get size(): number {
    return this.doc.length;
  }

  /** Appends document d's runs (ranges counted from its first sentence `base`). */
  push(d: number, base: number, runs: readonly { start: number; end: number }[]): void {
    for (const r of runs) {
      this.doc.push(d);
      this.start.push(base + r.start);
      this.end.push(base + r.end);
    }
    this.docs = d + 1;
  }
}

/** A unit (sentence, leaf, naive, packed or semantic chunk) as a sentence range and a character span. */
export interface UnitSpan {
  doc: number;
  start: number;
  end: number;
  charStart: number;
  charEnd: number;
}

/**
 * The corpus and the units retrieved over it: sentences, the chunk tree's leaves, the
 * naive chunks, the sentence-packed chunks and (once the engine finds them) the semantic
 * chunks, with per-sentence section bounds and token prefix sums so windows, bounds
 * and token counts are O(1). Documents are only appended; every unit keeps its id.
 */
export class CorpusUnits {
  readonly corpus: Corpus;
  readonly hierarchy: ChunkHierarchy;
  readonly chunks: NaiveChunk[] = [];
  /** Sentence-packed chunks (LlamaIndex SentenceSplitter), built with the documents. */
  private readonly packed = new SentenceRuns();
  /** Semantic chunks, built by the engine document by document once their buffered sentences are embedded. */
  private readonly semantic = new SentenceRuns();
  // Per sentence, grown by doubling as documents are appended (see indexBoundaries).
  private groups: Int32Array = new Int32Array(0);
  private groupStart = new Int32Array(0);
  private groupEnd = new Int32Array(0);
  private tokenPrefix = new Float64Array(1);
  /** Whole token counts (the counters give integers; bundles are checked for them). */
  private sentenceTokens = new Uint32Array(0);
  private sentenceDocs = new Int32Array(0);
  private readonly groupKeys = new Map<string, number>();
  private indexed = 0;
  private readonly docIds = new Set<string>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly layout: { chunkLevels: readonly number[]; sectionLevel: number; naive: NaiveChunkParams; packed: PackedChunkParams },
    maxSentenceTokens: number,
  ) {
    this.hierarchy = { levels: [...layout.chunkLevels], nodes: [], leaves: [] };
    this.corpus = emptyCorpus(counter, { maxSentenceTokens });
    this.indexBoundaries();
  }

  /** Appends documents whose id is not in the corpus yet; the others are returned as duplicates. */
  add(docs: Document[]): { added: Document[]; duplicates: Document[] } {
    const known = this.docIds;
    const added: Document[] = [];
    const duplicates: Document[] = [];
    const c = this.corpus;
    const first = c.sentences.length;
    for (const d of docs) {
      if (known.has(d.id)) {
        duplicates.push(d);
        continue;
      }
      appendDocument(c, d, this.counter);
      known.add(d.id);
      added.push(d);
      this.chunks.push(...naiveChunksOfDocument(c, c.docs.length - 1, this.counter, this.layout.naive, this.chunks.length));
      this.packDocument(c.docs.length - 1);
    }
    if (added.length) {
      this.indexBoundaries();
      extendHierarchy(this.hierarchy, this.sentenceTokens, this.groups, this.sentenceDocs, first, c.sentences.length);
    }
    return { added, duplicates };
  }

  /**
   * Appends documents already split (see SplitDocument) without splitting them again: no
   * sentence segmentation, token counting or word segmentation for naive chunks — most of
   * add()'s time. The chunk tree is built from the token counts as add() builds it. Every
   * document is checked first (spans in order and inside the text, chunks in order inside
   * the document); a fault throws an Error naming it, and nothing is appended.
   */
  addSplit(docs: SplitDocument[]): { added: Document[]; duplicates: Document[] } {
    // A scratch set: nothing is known to be taken until every document passed its checks.
    const known = new Set(this.docIds);
    const take: SplitDocument[] = [];
    const duplicates: Document[] = [];
    for (const s of docs) {
      if (known.has(s.doc.id)) duplicates.push(s.doc);
      else {
        known.add(s.doc.id);
        take.push(s);
      }
    }
    // Checked on a scratch corpus first, so a fault in the last document leaves this one as it was.
    const scratch = emptyCorpus(this.counter, { maxSentenceTokens: this.corpus.maxSentenceTokens });
    for (const s of take) {
      appendSplitDocument(scratch, s.doc, s.sentences);
      const n = s.sentences.length;
      let prev = { start: 0, end: 0 };
      s.chunks.forEach((ch, i) => {
        const r = ch.sentences;
        const ok = Number.isInteger(ch.start) && Number.isInteger(ch.end) && ch.start >= prev.start && ch.end > ch.start && ch.end <= s.doc.text.length && Number.isInteger(r.start) && Number.isInteger(r.end) && r.start >= 0 && r.end > r.start && r.end <= n && Number.isInteger(ch.tokens) && ch.tokens >= 0;
        if (!ok) throw new Error(`naive chunk ${i} of document "${s.doc.title}" has the span [${ch.start}, ${ch.end}) over sentences [${r.start}, ${r.end}), not in order inside the document`);
        prev = ch;
      });
    }
    const c = this.corpus;
    const first = c.sentences.length;
    take.forEach((s, k) => {
      const base = c.sentences.length;
      const d = c.docs.length;
      for (let i = scratch.docStarts[k]!; i < scratch.docStarts[k + 1]!; i++) {
        const x = scratch.sentences[i]!;
        x.doc = d;
        c.sentences.push(x);
      }
      c.docs.push(s.doc);
      c.docStarts.push(c.sentences.length);
      for (const ch of s.chunks) {
        this.chunks.push({ id: this.chunks.length, doc: d, start: ch.start, end: ch.end, text: s.doc.text.slice(ch.start, ch.end), tokens: ch.tokens, sentences: { start: base + ch.sentences.start, end: base + ch.sentences.end } });
      }
      // From the split sentences' token counts: nothing is split again.
      this.packDocument(d);
      // Semantic chunks stay in document order: taken only while every earlier document has its own.
      if (s.semantic && this.semantic.docs === d && validRuns(s.semantic, s.sentences.length)) this.semantic.push(d, base, s.semantic);
    });
    for (const s of take) this.docIds.add(s.doc.id);
    if (take.length) {
      this.indexBoundaries();
      extendHierarchy(this.hierarchy, this.sentenceTokens, this.groups, this.sentenceDocs, first, c.sentences.length);
    }
    return { added: take.map((s) => s.doc), duplicates };
  }

  /** The corpus as split documents (addSplit's input): another CorpusUnits of the same layout takes them without splitting again. */
  splitDocuments(): SplitDocument[] {
    const c = this.corpus;
    const chunksOf: SplitDocument['chunks'][] = c.docs.map(() => []);
    for (const ch of this.chunks) {
      const first = c.docStarts[ch.doc]!;
      chunksOf[ch.doc]!.push({ start: ch.start, end: ch.end, tokens: ch.tokens, sentences: { start: ch.sentences.start - first, end: ch.sentences.end - first } });
    }
    const semanticOf = this.runsByDoc(this.semantic);
    return c.docs.map((doc, d) => ({
      doc,
      sentences: c.sentences.slice(c.docStarts[d], c.docStarts[d + 1]).map(({ doc: _doc, text: _text, ...s }) => s),
      chunks: chunksOf[d]!,
      ...(d < this.semantic.docs ? { semantic: semanticOf[d]!.map((r) => ({ start: r.start - c.docStarts[d]!, end: r.end - c.docStarts[d]! })) } : {}),
    }));
  }

  private runsByDoc(runs: SentenceRuns): { start: number; end: number }[][] {
    const out: { start: number; end: number }[][] = this.corpus.docs.map(() => []);
    for (let i = 0; i < runs.size; i++) out[runs.doc[i]!]!.push({ start: runs.start[i]!, end: runs.end[i]! });
    return out;
  }

  /** Packs document d's sentences into sentence-packed chunks. */
  private packDocument(d: number): void {
    const c = this.corpus;
    const first = c.docStarts[d]!;
    const tokens = c.sentences.slice(first, c.docStarts[d + 1]).map((x) => x.tokens);
    this.packed.push(d, first, packSentences(tokens, this.layout.packed));
  }

  /** Document d's semantic chunks counted from its first sentence, or null when not built. */
  semanticRuns(d: number): { start: number; end: number }[] | null {
    if (d >= this.semantic.docs) return null;
    const first = this.corpus.docStarts[d]!;
    const { doc, start, end } = this.semantic;
    // Runs are in document order: find d's first by bisection.
    let lo = 0;
    let hi = doc.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (doc[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    const out: { start: number; end: number }[] = [];
    for (let i = lo; i < doc.length && doc[i] === d; i++) out.push({ start: start[i]! - first, end: end[i]! - first });
    return out;
  }

  /** Documents whose semantic chunks are built: [0, n), always a prefix. */
  get semanticDocs(): number {
    return this.semantic.docs;
  }

  /**
   * Appends the semantic chunks of the next document without them (ranges counted from its
   * first sentence, tiling its sentences): ids stay in document order.
   */
  addSemantic(d: number, runs: readonly { start: number; end: number }[]): void {
    if (d !== this.semantic.docs) throw new Error(`semantic chunks are built in document order: expected document ${this.semantic.docs}, got ${d}`);
    const n = this.corpus.docStarts[d + 1]! - this.corpus.docStarts[d]!;
    if (!validRuns(runs, n)) throw new Error(`semantic chunks of document ${d} must tile its ${n} sentences`);
    this.semantic.push(d, this.corpus.docStarts[d]!, runs);
  }

  /**
   * Per-sentence section bounds, token prefix sums, tokens and documents, for O(1) windows and
   * budgets — extended over the sentences appended since the last call only (documents are only
   * appended and each starts new groups, so earlier entries never change), so adding documents
   * one at a time stays linear in the corpus.
   */
  private indexBoundaries(): void {
    const c = this.corpus;
    const n = c.sentences.length;
    const from = this.indexed;
    if (n > this.groups.length) {
      const cap = Math.max(n, 2 * this.groups.length, 1024);
      const grow = <T extends Int32Array | Uint32Array | Float64Array>(a: T, size: number): T => {
        const b = new (a.constructor as new (n: number) => T)(size);
        b.set(a);
        return b;
      };
      this.groups = grow(this.groups, cap);
      this.groupStart = grow(this.groupStart, cap);
      this.groupEnd = grow(this.groupEnd, cap);
      this.sentenceTokens = grow(this.sentenceTokens, cap);
      this.sentenceDocs = grow(this.sentenceDocs, cap);
      this.tokenPrefix = grow(this.tokenPrefix, cap + 1);
    }
    extendBoundaryGroups(c, this.layout.sectionLevel, this.groups, from, this.groupKeys);
    for (let i = from; i < n; ) {
      let j = i;
      while (j < n && this.groups[j] === this.groups[i]) j++;
      this.groupStart.fill(i, i, j);
      this.groupEnd.fill(j, i, j);
      i = j;
    }
    for (let i = from; i < n; i++) {
      const s = c.sentences[i]!;
      this.sentenceTokens[i] = s.tokens;
      this.sentenceDocs[i] = s.doc;
      this.tokenPrefix[i + 1] = this.tokenPrefix[i]! + s.tokens;
    }
    this.indexed = n;
  }

  count(kind: UnitKind): number {
    if (kind === 'packed') return this.packed.size;
    if (kind === 'semantic') return this.semantic.size;
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
    if (kind === 'packed' || kind === 'semantic') {
      const r = kind === 'packed' ? this.packed : this.semantic;
      const start = r.start[id]!;
      const end = r.end[id]!;
      return { doc: r.doc[id]!, start, end, charStart: c.sentences[start]!.start, charEnd: c.sentences[end - 1]!.end };
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
    const docOf =
      kind === 'leaf' ? (i: number) => this.leaf(i).doc : kind === 'packed' ? (i: number) => this.packed.doc[i]! : kind === 'semantic' ? (i: number) => this.semantic.doc[i]! : (i: number) => this.chunks[i]!.doc;
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

/** Runs in order that tile [0, n) exactly. */
export function validRuns(runs: readonly { start: number; end: number }[], n: number): boolean {
  let at = 0;
  for (const r of runs) {
    if (!Number.isInteger(r.start) || !Number.isInteger(r.end) || r.start !== at || r.end <= r.start) return false;
    at = r.end;
  }
  return at === n;
}
