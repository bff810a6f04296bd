import type { Corpus } from '../structure/corpus';
import { sectionPath } from '../structure/corpus';

/** Metadata filters; every field present must match. Applied before ranking. */
export interface MetadataFilter {
  /** Document ids to keep. */
  docs?: string[];
  /** Case-insensitive text that some section title on the sentence's path must contain. */
  section?: string;
  languages?: string[];
  /** ISO dates (inclusive) compared with the document's created (else modified) date. */
  dateFrom?: string;
  dateTo?: string;
  /** The document must carry every one of these tags. */
  tags?: string[];
}

export function isEmptyFilter(f: MetadataFilter | undefined): boolean {
  return !f || (!f.docs?.length && !f.section?.trim() && !f.languages?.length && !f.dateFrom && !f.dateTo && !f.tags?.length);
}

/** A mask over sentences: 1 where the sentence passes the filter. Null when no filter is set. */
export function sentenceMask(corpus: Corpus, filter: MetadataFilter | undefined): Uint8Array | null {
  if (!filter || isEmptyFilter(filter)) return null;
  const docOk = corpus.docs.map((d) => {
    if (filter.docs?.length && !filter.docs.includes(d.id)) return false;
    if (filter.languages?.length && !filter.languages.includes(d.language)) return false;
    if (filter.tags?.length && !filter.tags.every((t) => d.tags?.includes(t))) return false;
    const date = d.meta.created ?? d.meta.modified;
    if ((filter.dateFrom || filter.dateTo) && !date) return false;
    if (filter.dateFrom && date! < filter.dateFrom) return false;
    if (filter.dateTo && date!.slice(0, filter.dateTo.length) > filter.dateTo) return false;
    return true;
  });
  const needle = filter.section?.trim().toLowerCase();
  const sectionOk = new Map<string, boolean>();
  const mask = new Uint8Array(corpus.sentences.length);
  corpus.sentences.forEach((s, i) => {
    if (!docOk[s.doc]) return;
    if (needle) {
      const key = `${s.doc}:${s.section}`;
      let ok = sectionOk.get(key);
      if (ok === undefined) {
        const doc = corpus.docs[s.doc]!;
        ok = [doc.title, ...sectionPath(doc, s.section)].some((t) => t.toLowerCase().includes(needle));
        sectionOk.set(key, ok);
      }
      if (!ok) return;
    }
    mask[i] = 1;
  });
  return mask;
}

/** Units covering sentence ranges pass when any of their sentences passes. */
export function rangeMask(mask: Uint8Array | null, ranges: { start: number; end: number }[]): Uint8Array | null {
  if (!mask) return null;
  const out = new Uint8Array(ranges.length);
  ranges.forEach((r, i) => {
    for (let s = r.start; s < r.end; s++) {
      if (mask[s]) {
        out[i] = 1;
        break;
      }
    }
  });
  return out;
}
