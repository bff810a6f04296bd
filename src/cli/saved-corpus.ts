/**
 * The corpus file of `rag-lab index --out` (documents, structure, base64 vectors) and the
 * engine made again from it by `query --corpus`, reusing the vectors that still fit.
 */
import { readFileSync } from 'node:fs';
import { CONTEXT_UNIT_KINDS, ContextStore, type SavedContexts } from '../core/context/context-store';
import { RetrievalEngine } from '../core/engine';
import type { UnitKind } from '../core/retrieve/params';
import { DEFAULT_PACKED } from '../core/structure/packed-chunks';
import { DEFAULT_SEMANTIC } from '../core/structure/semantic-chunks';
import type { Document } from '../core/types';
import { savedEmbedderValues } from './embedder-options';
import { makeEngine } from './engine-setup';
import { chunkers, lexicalChoices, type Values } from './options';
import { UsageError } from './usage';

export interface SavedCorpus {
  format: 'rag-lab-corpus';
  version: 1;
  embedder: string | null;
  structure: RetrievalEngine['structure'];
  docs: Document[];
  vectors: Partial<Record<UnitKind, string>>;
  /** Semantic chunks per document (sentence ranges from its first sentence): found with the embedder, so saved with the vectors. */
  semantic?: { start: number; end: number }[][];
  /** Situating contexts (--contextual), as the lab saves them: a query over the corpus sends none of them again. */
  contexts?: SavedContexts;
}

export async function engineFromSaved(values: Values, path: string): Promise<RetrievalEngine> {
  let saved: SavedCorpus;
  try {
    saved = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--corpus ${path}: ${(e as Error).message}`);
  }
  if (saved?.format !== 'rag-lab-corpus') throw new UsageError(`--corpus ${path}: not a corpus saved by "rag-lab index"`);
  if (values.levels || values['chunk-size'] || values.headers) {
    throw new UsageError('--levels, --chunk-size and --headers cannot change a saved corpus; index the files again with them');
  }
  const chosen = savedEmbedderValues(saved.embedder, values, (m) => new UsageError(m));
  // The analyzer and BM25 variant only change the lexical indexes: free to choose here.
  // So are the packed and semantic chunk options: a saved corpus holds no vectors of either, both are made again.
  const fresh = await makeEngine({ ...values, ...chosen }, { ...saved.structure, ...chunkers(values, saved.structure), lexical: lexicalChoices(values)[0]! });
  fresh.addDocuments(saved.docs);
  if (saved.contexts) {
    try {
      for (const e of ContextStore.fromJSON(saved.contexts).entries()) fresh.contexts.store.set(e.key, e.context);
    } catch (e) {
      throw new UsageError(`--corpus ${path}: ${(e as Error).message}`);
    }
  }
  if (fresh.embedder && fresh.embedder.model === saved.embedder) {
    // Packed and semantic vectors fit only chunks made with the same options (flags may change them).
    const same = (k: 'packed' | 'semantic') => JSON.stringify(fresh.structure[k]) === JSON.stringify(saved.structure[k] ?? (k === 'packed' ? DEFAULT_PACKED : DEFAULT_SEMANTIC));
    if (saved.semantic && same('semantic')) fresh.adoptSemanticChunks(saved.semantic);
    const usable = ([kind]: [string, unknown]) => (kind !== 'packed' || same('packed')) && (kind !== 'semantic' || (saved.semantic !== undefined && same('semantic')));
    const sets = Object.entries(saved.vectors).filter(usable).map(([kind, b64]) => {
      const buf = Buffer.from(b64!, 'base64');
      return { key: fresh.variantKey(kind as UnitKind), dim: fresh.embedder!.dim, data: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4) };
    });
    await fresh.restoreVectorSets(sets, 'exact');
  }
  // Contextual vectors are not saved: made again from the saved contexts (one embedding each, no generator call).
  if (fresh.structure.contextual && fresh.embedder) for (const kind of CONTEXT_UNIT_KINDS) await fresh.contexts.embed(kind);
  return fresh;
}
