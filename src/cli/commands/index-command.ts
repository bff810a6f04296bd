/**
 * rag-lab index <files…> --out corpus.json: files → a saved corpus (documents + vectors);
 * index --from BUNDLE --out corpus.json: the same from a bundle, without re-embedding.
 */
import { RetrievalEngine } from '../../core/engine';
import { BUNDLE_KINDS } from '../../core/export/tables';
import { UNIT_KINDS } from '../../core/retrieve/params';
import { writeFileAtomic } from '../../node/atomic-write';
import { applyContextual } from '../contextual-cli';
import { embedAll, loadFiles, makeEngine } from '../engine-setup';
import { applyLateChunking } from '../late-chunking-cli';
import { engineFromBundle } from '../export-commands';
import { exportDeps } from '../export-deps';
import { structure, type Values } from '../options';
import { savedSplits, type SavedCorpus } from '../saved-corpus';
import { postingsSource, savedPostings } from '../saved-postings';
import { renderTable } from '../table';
import { UsageError } from '../usage';

export async function cmdIndex(values: Values, files: string[]): Promise<void> {
  if (!files.length && !values.from) throw new UsageError('index: give one or more files, or --from BUNDLE_DIR');
  if (!values.out) throw new UsageError('index: --out FILE is required');
  const t0 = performance.now();
  let engine: RetrievalEngine;
  if (values.from) {
    if (files.length) throw new UsageError('index: give files or --from, not both');
    // Documents, units and vectors come from the bundle: nothing is embedded again.
    engine = await engineFromBundle(values, values.from, exportDeps);
  } else {
    engine = await makeEngine(values, structure(values));
    const docs = await loadFiles(files);
    if (!docs.length) throw new UsageError('index: no file could be loaded');
    engine.addDocuments(docs);
  }
  const docs = engine.corpus.docs;
  // Late chunking (--late-chunking) is checked before anything is written or embedded; the saved structure records it.
  applyLateChunking(engine, values);
  // Contexts are written (or taken from the bundle) before embedding: the saved corpus keeps them.
  await applyContextual(engine, values);
  // A bundle carries no semantic chunks (the model cuts them): indexing from one embeds only
  // what it lacks, and a query over the saved corpus makes them when its strategies need them.
  await embedAll(engine, values.from ? [...BUNDLE_KINDS] : [...UNIT_KINDS]);
  const vectors = Object.fromEntries(
    engine.snapshotVectors('current').map(({ key, data: v }) => [RetrievalEngine.kindOf(key), Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')]),
  );
  const saved: SavedCorpus = { format: 'rag-lab-corpus', version: 1, embedder: engine.embedder?.model ?? null, structure: engine.structure, docs, vectors, splits: savedSplits(engine), ...(engine.embedder ? { semantic: engine.semanticChunks() } : {}), ...(engine.contexts.store.count() ? { contexts: engine.contexts.store.toJSON() } : {}) };
  // The BM25 postings, so a query starts without analysing the text again (built here if no step above did).
  const postings = savedPostings(engine, postingsSource(saved.docs, saved.contexts));
  if (postings) saved.postings = postings;
  // Whole or not at all: a failed run never leaves a half-written corpus in place of a good one.
  writeFileAtomic(values.out, JSON.stringify(saved));
  const c = engine.corpus;
  console.log(
    renderTable(
      ['document', 'language', 'sections', 'pages', 'sentences'],
      c.docs.map((d, i) => [d.title.slice(0, 60), d.language, d.sections.length - 1, d.pages.length, c.docStarts[i + 1]! - c.docStarts[i]!]),
    ),
  );
  console.log(`\n${c.sentences.length} sentences · ${engine.hierarchy.leaves.length} leaves · ${engine.chunks.length} naive chunks · embedder ${engine.embedder?.model ?? 'none'} · ${((performance.now() - t0) / 1000).toFixed(1)}s → ${values.out}`);
}
