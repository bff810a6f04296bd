/**
 * Whether a load fits beside what the tab holds (the current engine, estimated the same way
 * as the load): the refusal the page words, or null when it fits. An import into an open
 * corpus builds a copy of it first, so that copy counts too.
 */
import type { RetrievalEngine } from '../core/engine';
import { checkLoad, engineCounts, type Budget, type LoadCheck, type LoadNeed } from '../core/memory/load-estimate';
import type { UnitKind } from '../core/retrieve/params';
import type { IndexBackend, LoadRefusal } from './protocol';

/** What the tab holds now and may hold. */
export interface HeldCorpus {
  engine: RetrievalEngine;
  backend: IndexBackend;
  budget: Budget;
}

export function loadRefusal(
  held: HeldCorpus,
  file: string,
  source: LoadRefusal['source'],
  fileBytes: number,
  need: LoadNeed,
  vectorKinds: readonly UnitKind[] = Object.keys(need.counts.vectors) as UnitKind[],
): LoadRefusal | null {
  const counts = engineCounts(held.engine);
  const check: LoadCheck = checkLoad(counts, need, held.budget, { copiesHeld: source === 'bundle' && counts.sentences > 0, backend: held.backend });
  if (check.fits) return null;
  return {
    file,
    source,
    fileBytes,
    sentences: need.counts.sentences,
    vectorKinds: need.counts.dims ? [...vectorKinds] : [],
    needBytes: check.needBytes,
    loadedBytes: check.loadedBytes,
    heldBytes: check.heldBytes,
    budget: check.budget,
    limit: check.limit ?? 'budget',
    heapNeedBytes: check.heapNeedBytes,
  };
}
