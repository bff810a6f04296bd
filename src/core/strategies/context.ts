import type { Candidate } from '../retrieve/candidates';
import type { UnitKind } from '../retrieve/param-types';
import type { TokenCounter } from '../segment/tokens';
import { chunkHeader, type HeaderParams } from '../structure/headers';
import type { CorpusUnits } from '../structure/units';
import type { ChunkNode, ContextBlock, Provenance } from '../types';
import type { BlockSpec, StrategyContext } from './types';

/**
 * Blocks as every strategy hands them over: a sentence range with its text, its
 * contextual header (counted in its tokens) and its provenance. Header token counts are
 * cached by header text, so a budget loop stays cheap.
 */
export class BlockMaker {
  private readonly headerTokens = new Map<string, number>();
  /** rangesByDoc per kind, kept until the kind's unit count or the document count changes (units are only appended). */
  private readonly ranges = new Map<UnitKind, { units: number; docs: number; ranges: [number, number][] }>();

  constructor(
    readonly units: CorpusUnits,
    private readonly counter: TokenCounter,
    private readonly headers: () => HeaderParams,
  ) {}

  /** The contextual header of sentences [start, end), or '' when headers are off. */
  header(start: number, end: number): string {
    const p = this.headers();
    if (!p.enabled) return '';
    const s = this.units.corpus.sentences;
    const first = s[start]!;
    return chunkHeader(this.units.corpus.docs[first.doc]!, first, s[end - 1]!, p);
  }

  headerCost(header: string): number {
    if (!header) return 0;
    let n = this.headerTokens.get(header);
    if (n === undefined) this.headerTokens.set(header, (n = this.counter.count(header)));
    return n;
  }

  /**
   * Unit id ranges [start, end) of each document: walking every unit of a kind takes ms at 1M
   * sentences (RSE reads them on every query and slider move), so they are made once per corpus.
   */
  rangesByDoc(kind: UnitKind): [number, number][] {
    const units = this.units.count(kind);
    const docs = this.units.corpus.docs.length;
    let r = this.ranges.get(kind);
    if (!r || r.units !== units || r.docs !== docs) this.ranges.set(kind, (r = { units, docs, ranges: this.units.rangesByDoc(kind) }));
    return r.ranges;
  }

  /** Tokens a block over sentences [start, end) costs in the context, header included. */
  readonly blockCost = (start: number, end: number): number => this.units.tokens(start, end) + (this.headers().enabled ? this.headerCost(this.header(start, end)) : 0);

  provenance(unit: Provenance['unit'], hits: readonly Candidate[], extra: Partial<Provenance>): Provenance {
    const best = hits[0];
    return {
      unit,
      ranks: { ...best?.ranks },
      scores: { ...best?.scores },
      ...(best?.fused !== undefined ? { fused: best.fused } : {}),
      ...(best?.rerank ? { rerank: { ...best.rerank } } : {}),
      ...(best?.lexical ? { lexical: best.lexical } : {}),
      ...extra,
    };
  }

  block({ strategy, unit, start, end, hits, score, extra = {}, hitSentences }: BlockSpec): ContextBlock {
    const c = this.units.corpus;
    const s = c.sentences;
    const doc = s[start]!.doc;
    const charStart = s[start]!.start;
    const charEnd = s[end - 1]!.end;
    const header = this.header(start, end);
    const ordered = [...hits].sort((a, b) => b.score - a.score);
    return {
      id: `${strategy}:${doc}:${start}-${end}`,
      doc,
      sentences: { start, end },
      start: charStart,
      end: charEnd,
      text: c.docs[doc]!.text.slice(charStart, charEnd),
      ...(header ? { header } : {}),
      hits: hitSentences ?? ordered.map((h) => h.id).sort((a, b) => a - b),
      score,
      tokens: this.blockCost(start, end),
      provenance: this.provenance(unit, ordered, extra),
    };
  }
}

/** The context one query's strategies run in: the engine's units and blocks, and the query's similarities. */
export class QueryContext implements StrategyContext {
  readonly corpus;
  readonly hierarchy;
  readonly chunks;
  readonly blockCost;

  constructor(
    private readonly maker: BlockMaker,
    readonly structure: StrategyContext['structure'],
    readonly query: string,
    readonly similarity: StrategyContext['similarity'],
    private readonly contextOf: StrategyContext['unitContext'] = () => undefined,
  ) {
    this.corpus = maker.units.corpus;
    this.hierarchy = maker.units.hierarchy;
    this.chunks = maker.units.chunks;
    this.blockCost = maker.blockCost;
  }

  header(start: number, end: number): string {
    return this.maker.header(start, end);
  }

  headerCost(header: string): number {
    return this.maker.headerCost(header);
  }

  bound(i: number, bySection: boolean): [number, number] {
    return this.maker.units.bound(i, bySection);
  }

  leaf(id: number): ChunkNode {
    return this.maker.units.leaf(id);
  }

  sentencesOf(nodeIds: Iterable<number>): number[] {
    return this.maker.units.sentencesOf(nodeIds);
  }

  unitRangesByDoc(kind: UnitKind): [number, number][] {
    return this.maker.rangesByDoc(kind);
  }

  unitSpan(kind: UnitKind, id: number): { doc: number; start: number; end: number } {
    return this.maker.units.span(kind, id);
  }

  provenance(unit: Provenance['unit'], hits: readonly Candidate[], extra: Partial<Provenance>): Provenance {
    return this.maker.provenance(unit, hits, extra);
  }

  unitContext(kind: UnitKind, id: number): ReturnType<StrategyContext['unitContext']> {
    return this.contextOf(kind, id);
  }

  block(spec: BlockSpec): ContextBlock {
    return this.maker.block(spec);
  }
}
