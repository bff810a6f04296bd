/**
 * Where a block of text sits, as a reader and a prompt name it: its document's id and title,
 * the section path around it and its pages. One definition for the page's blocks
 * (worker/block-view.ts) and the answer runs' prompts (answers/contexts.ts).
 */
import { commonSection, sectionPath, type Corpus } from './corpus';

export interface BlockPlace {
  docId: string;
  docTitle: string;
  sectionPath: string[];
  pageStart?: number;
  pageEnd?: number;
}

/** The place of the sentence range [start, end) (end exclusive) of the corpus. */
export function blockPlace(corpus: Corpus, sentences: { start: number; end: number }): BlockPlace {
  const first = corpus.sentences[sentences.start]!;
  const last = corpus.sentences[sentences.end - 1]!;
  const doc = corpus.docs[first.doc]!;
  return {
    docId: doc.id,
    docTitle: doc.title,
    sectionPath: sectionPath(doc, commonSection(doc, first.section, last.section)),
    ...(first.page !== undefined ? { pageStart: first.page } : {}),
    ...(last.page !== undefined ? { pageEnd: last.page } : {}),
  };
}
