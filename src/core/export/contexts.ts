/**
 * Contextual retrieval in a bundle: the contexts travel as contexts.json (the lab's own saved
 * form, for the exported documents), the manifest says how they were made and used, and an
 * import puts them back before the BM25 postings are adopted (those postings hold them). The
 * postings and vectors themselves need nothing new: with contextual retrieval on, a unit's
 * postings are those of its contextualised text, and its vector the contextual one where it has
 * a context — so the SQL ranks exactly as the lab did.
 */
import { ContextStore, isContextUnitKind, type SavedContexts } from '../context/context-store';
import { DEFAULT_CONTEXT_PROMPT } from '../context/prompt';
import type { RetrievalEngine } from '../engine';
import type { UnitKind } from '../retrieve/params';
import { BundleError } from './format';
import { sha256, type ContextualManifest, type Manifest } from './manifest';

export const CONTEXTS_FILE = 'contexts.json';

/** contexts.json and the manifest's part for an engine with contextual retrieval on; null when it is off or has no context. */
export function bundleContexts(engine: RetrievalEngine): { json: SavedContexts; manifest: ContextualManifest } | null {
  if (!engine.structure.contextual) return null;
  const docs = new Set(engine.corpus.docs.map((d) => d.id));
  const all = engine.contexts.store.toJSON();
  const entries = all.entries.filter((e) => docs.has(e.doc));
  if (!entries.length) return null;
  const contexts: Partial<Record<UnitKind, number>> = {};
  const sources: Record<string, number> = {};
  for (const e of entries) {
    contexts[e.kind] = (contexts[e.kind] ?? 0) + 1;
    sources[e.source] = (sources[e.source] ?? 0) + 1;
  }
  return {
    json: { ...all, entries },
    manifest: {
      file: CONTEXTS_FILE,
      contexts,
      sources,
      prompt: all.runs[all.runs.length - 1]?.prompt ?? DEFAULT_CONTEXT_PROMPT.user,
      text: "a unit with a context is indexed and embedded as header + '\\n\\n' + context + '\\n\\n' + text (the header only when headers are on); a unit without one as its plain text",
      vectors: 'vectors.embedding is the contextualised text\'s vector for units with a context, the plain vector for the rest (contextual vectors only: the plain vectors of units with a context are not in the bundle)',
      postings: 'postings are the terms of each unit\'s contextualised text, so raglab.bm25_search ranks as the lab did with contextual retrieval on',
    },
  };
}

/** The bundle's contexts, checked against the manifest's checksum; null for a bundle without them. */
export async function readBundleContexts(manifest: Manifest, bytes: Uint8Array | undefined): Promise<ContextStore | null> {
  if (!manifest.contextual) return null;
  if (!bytes) throw new BundleError(`the bundle is incomplete: ${CONTEXTS_FILE} is missing`);
  const entry = manifest.files.find((f) => f.name === CONTEXTS_FILE);
  if (entry && (await sha256(bytes)) !== entry.sha256) throw new BundleError(`${CONTEXTS_FILE} is corrupt: its checksum differs from the manifest's`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new BundleError(`${CONTEXTS_FILE} is corrupt: it is not JSON`);
  }
  try {
    return ContextStore.fromJSON(json);
  } catch (e) {
    throw new BundleError(`${CONTEXTS_FILE} is corrupt: ${(e as Error).message}`);
  }
}

/** Puts a bundle's contexts of the given documents into an engine's store (what is there is replaced). */
export function adoptContexts(engine: RetrievalEngine, from: ContextStore, docIds: ReadonlySet<string>): number {
  let n = 0;
  for (const e of from.entries()) {
    if (!docIds.has(e.doc) || !isContextUnitKind(e.kind)) continue;
    engine.contexts.store.set(e.key, e.context);
    n++;
  }
  for (const run of from.runs) engine.contexts.store.recordRun(run);
  return n;
}

/**
 * A contextual bundle's vectors of units with a context are their contextual vectors: they go to
 * the engine's contextual vectors too, so nothing is embedded again. (They also stand in as the
 * plain vectors of those units, which the bundle does not carry.)
 */
export function contextualVectors(engine: RetrievalEngine, kinds: readonly UnitKind[], docIds: ReadonlySet<string>): void {
  const dim = engine.embedder?.dim;
  if (!dim) return;
  const all = engine.exportVectors();
  for (const kind of kinds) {
    const rows = all[kind];
    if (!rows || !isContextUnitKind(kind) || engine.contexts.store.count(kind) === 0) continue;
    for (let id = 0; id < rows.length / dim; id++) {
      if (!docIds.has(engine.corpus.docs[engine.unitDoc(kind, id)]!.id) || !engine.contexts.get(kind, id)) continue;
      engine.contexts.adoptVector(kind, id, rows.subarray(id * dim, (id + 1) * dim));
    }
  }
}
