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
import { addStoredDocuments, packSplits, type SavedSplit } from '../worker/saved-split';
import { savedEmbedderValues } from './embedder-options';
import { makeEngine } from './engine-setup';
import { chunkers, lexicalChoices, type Values } from './options';
import { adoptSavedPostings, postingsSource, type SavedPostings } from './saved-postings';
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
  /**
   * Each document's split (sentences, token counts, naive chunks) as the lab stores it, base64
   * Int32Arrays by document id: a query takes them instead of segmenting and counting tokens
   * again, most of its start. Used only when made the same way (splitKey); else split again.
   */
  splits?: Record<string, { key: string; sentences: string; chunks: string }>;
  /**
   * The BM25 indexes of the sentences, leaves, naive and packed chunks as postings
   * (saved-postings.ts): a query adopts them instead of analysing every unit's text again.
   * Used only when made the same way from the same documents; else built again.
   */
  postings?: SavedPostings;
}

/** The engine's splits for a saved corpus. */
export function savedSplits(engine: RetrievalEngine): NonNullable<SavedCorpus['splits']> {
  const b64 = (v: Int32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  return Object.fromEntries([...packSplits(engine)].map(([id, s]) => [id, { key: s.key, sentences: b64(s.sentences), chunks: b64(s.chunks) }]));
}

/** A saved corpus's splits as addStoredDocuments takes them; a damaged entry is left out (its document is split again). */
function readSplits(saved: SavedCorpus['splits']): Map<string, SavedSplit> {
  const out = new Map<string, SavedSplit>();
  const ints = (b64: unknown) => {
    if (typeof b64 !== 'string') return null;
    const buf = Buffer.from(b64, 'base64');
    // Copied: a Buffer may sit at any offset of a shared pool, and an Int32Array needs 4-byte alignment.
    return buf.byteLength % 4 ? null : new Int32Array(new Uint8Array(buf).buffer);
  };
  if (!saved || typeof saved !== 'object') return out;
  for (const [id, s] of Object.entries(saved)) {
    const sentences = ints(s?.sentences);
    const chunks = ints(s?.chunks);
    if (sentences && chunks && typeof s.key === 'string') out.set(id, { key: s.key, sentences, chunks });
  }
  return out;
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
  addStoredDocuments(fresh, saved.docs, readSplits(saved.splits));
  if (saved.contexts) {
    try {
      for (const e of ContextStore.fromJSON(saved.contexts).entries()) fresh.contexts.store.set(e.key, e.context);
    } catch (e) {
      throw new UsageError(`--corpus ${path}: ${(e as Error).message}`);
    }
  }
  // After the contexts: a contextual index's postings are put where the engine looks for them.
  const { notes } = adoptSavedPostings(fresh, saved.postings, () => postingsSource(saved.docs, saved.contexts));
  for (const note of notes) process.stderr.write(`note: --corpus ${path}: ${note}\n`);
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
