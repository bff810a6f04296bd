/** What the export commands (and index --from) borrow: option parsing, loading and errors stay one way. */
import { applyContextual } from './contextual-cli';
import { embedAll, loadFiles, makeEngine } from './engine-setup';
import { loadEvalSet } from './eval-setup';
import type { ExportDeps } from './export-commands';
import { retrieval, type Values } from './options';
import { engineFromSaved } from './saved-corpus';
import { readExportTransform } from './transform-cli';
import { usage } from './usage';

export const exportDeps: ExportDeps<Values> = {
  makeEngine,
  retrieval,
  loadEvalSet,
  loadFiles,
  engineFromSaved,
  embedAll: (e, k) => embedAll(e, k),
  contextual: (e, v) => applyContextual(e, v),
  queryTransform: (v, docs, retriever) => readExportTransform(v, docs, retriever),
  usage,
};
