/**
 * MiniSearch filled from a lexical index's postings: the BM25+ reference its own search is
 * tested against (same scores, same ties), built only when asked.
 */
import MiniSearch, { type Options } from 'minisearch';
import type { PostingsView } from './bm25-scoring';
import { BM25_PARAMS } from './lexical-params';

/** MiniSearch over one text field. */
export type Reference = MiniSearch<{ id: number; text: string; lang: string }>;

/** A MiniSearch filled from the postings: its document table through loadJS, its term index directly. */
export function referenceIndex(postings: PostingsView, termList: readonly string[], tokenize: (text: string) => string[]): Reference {
  const options: Options<{ id: number; text: string; lang: string }> = {
    fields: ['text'],
    idField: 'id',
    storeFields: [],
    tokenize,
    processTerm: (term: string) => term,
    searchOptions: { bm25: { ...BM25_PARAMS }, prefix: false, fuzzy: false, combineWith: 'OR' },
  };
  const units = postings.count;
  const documentIds: Record<number, number> = {};
  const fieldLength: Record<number, number[]> = {};
  for (let u = 0; u < units; u++) {
    documentIds[u] = u;
    fieldLength[u] = [postings.distinct[u]!];
  }
  const mini = MiniSearch.loadJS(
    { documentCount: units, nextId: units, documentIds, fieldIds: { text: 0 }, fieldLength, averageFieldLength: [postings.avgDistinct], storedFields: {}, dirtCount: 0, index: [], serializationVersion: 2 },
    options,
  ) as Reference;
  const index = (mini as unknown as { _index?: { set(term: string, data: Map<number, Map<number, number>>): void } })._index;
  if (!index?.set) throw new Error('MiniSearch internals changed: postings cannot be loaded');
  for (let t = 0; t < postings.offsets.length - 1; t++) {
    const docs = new Map<number, number>();
    for (let i = postings.offsets[t]!; i < postings.offsets[t + 1]!; i++) docs.set(postings.table.unit(i), postings.table.tf(i));
    if (docs.size) index.set(termList[t]!, new Map([[0, docs]]));
  }
  return mini;
}
