import { embeddedText } from '../structure/headers';

/**
 * The text a unit is embedded and indexed as under contextual retrieval — the same string for
 * the vectors, for BM25 and for the exported postings: the contextual header (document level,
 * when headers are on), then the unit's situating context (where one was written), then the
 * unit, each apart by a blank line; from the general to the particular, as a reader meets them.
 */
export function contextualText(header: string, context: string | undefined, text: string): string {
  return embeddedText(header, context ? `${context}\n\n${text}` : text);
}
