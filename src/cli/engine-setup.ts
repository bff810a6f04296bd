/**
 * What every command that searches needs: an engine with the chosen embedder (none for BM25
 * alone), its units embedded with a progress bar, and files loaded one by one (a bad file is
 * one error line; the others still load).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { RetrievalEngine } from '../core/engine';
import type { StructureParams, UnitKind } from '../core/retrieve/params';
import type { Document } from '../core/types';
import { setModelSource } from '../node/model-source';
import { PROJECT_MODELS_DIR } from '../node/paths';
import { loadEmbedderFromOptions } from './embedder-options';
import { bm25Only, structure, type Values } from './options';
import { ProgressBar } from './progress';
import { visible } from './terminal';
import { UsageError, usage } from './usage';

export async function makeEngine(values: Values, structureParams: Partial<StructureParams> = structure(values)): Promise<RetrievalEngine> {
  const modelsDir = values['models-dir'] ?? PROJECT_MODELS_DIR;
  if (values['models-dir'] && !existsSync(modelsDir)) throw new UsageError(`--models-dir: no such folder: ${modelsDir}`);
  // Recorded only: transformers.js loads with the first model (embedder-options and the other loaders pass it on).
  setModelSource({ modelsDir, allowRemoteModels: Boolean(values.remote) });
  let embedder = null;
  if (bm25Only(values)) {
    // BM25 needs no vectors: never ask for a model that may not be generated or reachable.
    process.stderr.write('note: --retriever bm25: no vectors computed (BM25 needs no model)\n');
  } else embedder = await loadEmbedderFromOptions(values, modelsDir, usage);
  return new RetrievalEngine({ embedder, structure: structureParams });
}

export async function embedAll(engine: RetrievalEngine, kinds: UnitKind[], quiet = false): Promise<void> {
  if (!engine.embedder) return;
  for (const kind of kinds) {
    // Semantic chunks are found first (each sentence embedded with its neighbours), then embedded.
    const bar = quiet ? null : new ProgressBar(`embedding ${kind === 'leaf' ? 'leaves' : kind === 'packed' || kind === 'semantic' ? `${kind} chunks` : `${kind}s`}`);
    const { truncated } = await engine.embedUnits(kind, { onEmbedProgress: (p) => bar?.update(p.done, p.total) });
    if (truncated.length) process.stderr.write(`warning: ${truncated.length} ${kind}(s) exceed the model's ${engine.embedder.maxTokens}-token limit and were truncated\n`);
  }
}

export async function loadFiles(paths: string[]): Promise<Document[]> {
  // The format readers (pdf.js, the office and HTML parsers, tesseract for OCR) load only when files are read: a saved corpus needs none.
  const [{ LoaderError }, { loadDocument }, { setOcrEnvironment }, { nodeOcrEnvironment }] = await Promise.all([
    import('../core/documents/builder'),
    import('../core/documents/load'),
    import('../core/documents/ocr'),
    import('../node/ocr-env'),
  ]);
  setOcrEnvironment(nodeOcrEnvironment());
  const docs: Document[] = [];
  for (const p of paths) {
    if (!existsSync(p) || !statSync(p).isFile()) {
      process.stderr.write(`error: ${visible(p)}: no such file\n`);
      continue;
    }
    try {
      const st = statSync(p);
      docs.push(await loadDocument({ name: basename(p), bytes: readFileSync(p), lastModified: st.mtimeMs }));
    } catch (e) {
      process.stderr.write(`error: ${visible(e instanceof LoaderError ? e.message : `${p}: ${(e as Error).message}`)}\n`);
    }
  }
  return docs;
}

/** What the question-set commands borrow: file loading and the usage error. */
export const questionDeps = { loadFiles, usage };
