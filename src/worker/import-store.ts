/**
 * An imported bundle's corpus, stored: in one transaction (all or nothing), marked as under way
 * until it commits, so a page closed meanwhile keeps what was stored before and the next start
 * says so. The question set then learns of the new corpus. Returns where the time went (the
 * import benchmark reads it).
 */
import type { UnitKind } from '../core/retrieve/params';
import type { CorpusSession } from './corpus-session';
import type { Persistence, SavedCorpus } from './persistence';
import type { QuestionBook } from './question-set';
import type { VectorKeeper } from './vector-keeper';

export interface ImportStorage {
  session: CorpusSession;
  keeper: VectorKeeper;
  persistence: Persistence;
  questions: QuestionBook;
  corpus: () => SavedCorpus;
}

export async function storeImport(name: string, lexicalKinds: readonly UnitKind[], to: ImportStorage, crashFault: boolean): Promise<{ mark: number; pack: number; save: number }> {
  const tMark = performance.now();
  await to.persistence.markImport(name);
  if (crashFault) {
    // Simulated tab closed while the import is being stored: it never gets stored (the test reloads the page).
    await new Promise(() => undefined);
  }
  // The embedding job starts only for vectors the bundle lacks (when it ends it stores them all again).
  const tPack = performance.now();
  const splits = to.session.splitsForStorage();
  // Views into the engine's rows, not copies: the import's packs are Blobs made from them at once.
  const { vectors, semantic } = to.keeper.pending(to.session.engine, true, true);
  // The BM25 indexes taken from the bundle's postings are kept as postings: a reload need not analyse the text.
  const lexical = to.session.lexicalForStorage(lexicalKinds);
  const tSave = performance.now();
  if (await to.persistence.saveImport(to.corpus(), to.session.docs, splits, vectors, lexical, semantic)) to.keeper.written(vectors, semantic);
  await to.questions.corpusChanged();
  return { mark: tPack - tMark, pack: tSave - tPack, save: performance.now() - tSave };
}
