/**
 * Query fusion's attribution: which of the fused queries found something inside a block — the
 * union of `variants` of the candidates the block was built from (its hit sentences; for a
 * chunk, the chunk itself).
 */
import type { UnitKind } from '../retrieve/param-types';
import type { FusedCandidate } from '../retrieve/query-fusion';
import type { CorpusUnits } from '../structure/units';
import type { ContextBlock } from '../types';

export function foundBy(units: CorpusUnits, kind: UnitKind, block: ContextBlock, cands: readonly FusedCandidate[]): number[] {
  const hits = new Set(block.hits);
  const found = new Set<number>();
  for (const c of cands) {
    const u = units.span(kind, c.id);
    let inside = false;
    // A chunk is retrieved whole: it found the block that is that chunk.
    if (kind === 'chunk' || kind === 'packed' || kind === 'semantic') inside = u.doc === block.doc && u.start === block.sentences.start && u.end === block.sentences.end;
    else for (let i = u.start; i < u.end && !inside; i++) inside = hits.has(i);
    if (inside) c.variants.forEach((r, q) => r !== null && found.add(q));
  }
  return [...found].sort((a, b) => a - b);
}
