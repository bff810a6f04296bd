/**
 * An imported bundle's corpus, stored: in one transaction (all or nothing), marked as under way
 * until it commits, so a page closed meanwhile keeps what was stored before and the next start
 * says so. The question set then learns of the new corpus. Returns where the time went (the
 * import benchmark reads it).
 */
import type { UnitKind } from '../core/retrieve/params';
import type { Document } from '../core/types';
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

export async function storeImport(name: string, added: readonly Document[], lexicalKinds: readonly UnitKind[], to: ImportStorage, crashFault: boolean): Promise<{ mark: number; pack: number; save: number }> {
  const tMark = performance.now();
  await to.persistence.markImport(name);
  if (crashFault) {
    // Simulated tab closed while the import is being stored: it never gets stored (the test reloads the page).
    await new Promise(() => undefined);
  }
  // The embedding job starts only for vectors the bundle lacks (when it ends it stores them all again).
  const tPack = performance.now();
  // The bundle's documents with their splits, after those stored; the stored ones' splits only where the import changed them.
  const splits = to.session.splitsToStore();
  const entries = added.map((doc) => ({ doc, split: splits.get(doc.id) }));
  for (const doc of added) splits.delete(doc.id);
  // Views into the engine's rows, not copies: the import's packs are Blobs made from them at once.
  const { vectors, semantic } = to.keeper.pending(to.session.engine, true, true);
  // The BM25 indexes taken from the bundle's postings are kept as postings: a reload need not analyse the text.
  const lexical = to.session.lexicalForStorage(lexicalKinds);
  const tSave = performance.now();
  if (await to.persistence.saveImport(to.corpus(), entries, splits, vectors, lexical, semantic)) to.keeper.written(vectors, semantic);
  await to.questions.corpusChanged();
  return { mark: tPack - tMark, pack: tSave - tPack, save: performance.now() - tSave };
}
